"""A record verifies on its own: ``verify`` re-runs the config the record holds, so a version
directory copied elsewhere verifies with ``--data-root`` pointing at its data, and a config file
moved or deleted since the run is a note. A record that cannot be verified here (an input
missing, a plugin not installed) exits 2 with its cause; exit 1 means something differs."""

from __future__ import annotations

import shutil
from pathlib import Path

from evalfw.cli.main import main
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import workdir  # noqa: F401  (fixture)

BOUND_SECONDS = 120


def _run(capsys) -> Path:
    assert main(["run", "configs/wmt.yaml", "--quiet"]) == 0
    capsys.readouterr()
    return next(p for p in Path("runs/wmt").iterdir() if not p.name.startswith("."))


def test_a_copied_version_verifies_with_its_data_root(workdir, tmp_path_factory, monkeypatch,
                                                      capsys):
    version = _run(capsys)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    copy = elsewhere / "their-run"
    shutil.copytree(version, copy)
    data = workdir / "configs" / "sample"
    monkeypatch.chdir(elsewhere)
    assert main(["verify", str(copy), "--data-root", str(data)]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert out.startswith(f"verified: {copy}: all ") and "--data-root" in out


def test_a_run_whose_config_file_is_gone_verifies_from_its_record(workdir, capsys):
    _run(capsys)
    (workdir / "configs" / "wmt.yaml").unlink()
    assert main(["verify", "wmt"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verified: ") and "note: config file configs/wmt.yaml is not here" \
        in out


def test_a_changed_config_file_is_a_note_the_record_decides(workdir, capsys):
    _run(capsys)
    config = workdir / "configs" / "wmt.yaml"
    config.write_text(config.read_text("utf-8").replace("seed: 12345", "seed: 7"), "utf-8")
    assert main(["verify", "wmt"]) == 0
    assert "changed since the run" in capsys.readouterr().out


def test_a_missing_input_cannot_be_verified_exit_2(workdir, capsys):
    _run(capsys)
    (workdir / "configs" / "sample" / "en-de" / "ref.B.txt").unlink()
    assert main(["verify", "wmt"]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("cannot verify: ") and "NOT verified" not in out
    assert err.startswith("evalfw: error: cannot verify ") and "ref.B.txt" in err
    assert err.count("\n") == 1


def test_a_missing_plugin_cannot_be_verified_exit_2(workdir, capsys):
    plugins = workdir / "plugins"
    plugins.mkdir()
    source = Path(__file__).resolve().parents[1] / "support" / "metric_plugins" / "unigram.py"
    shutil.copy(source, plugins / "unigram.py")
    config = workdir / "configs" / "wmt.yaml"
    text = config.read_text("utf-8").replace("experiment: wmt\n",
                                             "experiment: wmt\nplugin_dirs: [../plugins]\n")
    text = text.replace("\nmetrics:\n", "\nmetrics:\n  - name: uni\n    metric: unigram-f1\n")
    config.write_text(text, "utf-8")
    assert main(["run", "configs/wmt.yaml", "--quiet"]) == 0
    capsys.readouterr()
    (plugins / "unigram.py").write_text('"""The plugin, without its metric."""\n', "utf-8")
    assert main(["verify", "wmt", "--plugins-dir", str(plugins)]) == 2
    err = capsys.readouterr().err
    assert "cannot verify" in err and "unigram-f1" in err, err


def test_a_changed_input_is_a_difference_exit_1(workdir, capsys):
    _run(capsys)
    sys_file = workdir / "configs" / "sample" / "en-de" / "sys" / "Medium.txt"
    sys_file.write_text(sys_file.read_text("utf-8").replace("Der", "Die", 1), "utf-8")
    assert main(["verify", "wmt"]) == 1
    assert "NOT verified" in capsys.readouterr().out
