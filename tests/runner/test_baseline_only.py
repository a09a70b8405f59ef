"""A test set holding only the baseline cannot be tested by approximate randomization: the
config is refused by ``validate`` and ``run`` alike, with a whole sentence saying why and what
to do; bootstrap intervals of the baseline alone still run."""

from __future__ import annotations

import pytest

from evalfw.cli.main import main
from tests.support.runs import mini

ONE = """\
schema_version: 1
experiment: one
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems: {{A: a.txt}}
metrics:
  - name: bleu
significance: {{baseline: A, method: {method}, samples: 50, ar_trials: 50}}
"""


@pytest.mark.parametrize("method", ["ar", "both"])
def test_ar_with_the_baseline_alone_is_refused_by_validate_and_run(tmp_path, monkeypatch,
                                                                    capsys, method):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    mini(tmp_path, b"a b c\nd e f\n", b"a b c\nd e\n", b"a\nd\n")
    (tmp_path / "mini.yaml").write_text(ONE.format(method=method), "utf-8")
    for command in ("validate", "run"):
        assert main([command, "mini.yaml"]) == 2
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert "has no system but the baseline 'A'" in err and err.endswith("alone"), err
    assert not (tmp_path / "runs").exists()


def test_bootstrap_with_the_baseline_alone_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    mini(tmp_path, b"a b c\nd e f\n", b"a b c\nd e\n", b"a\nd\n")
    (tmp_path / "mini.yaml").write_text(ONE.format(method="bootstrap"), "utf-8")
    assert main(["run", "mini.yaml", "--quiet"]) == 0
