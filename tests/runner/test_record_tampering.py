"""A record never decides how a number is judged: `compare` and `verify` rebuild each recorded
metric from the installed plugins, so an edited direction, definition or metric entry makes
`verify` fail naming it and `compare` refuse, instead of flipping a verdict."""

from __future__ import annotations

import contextlib
import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import REPO, write_config

BOUND_SECONDS = 30
SAMPLE = REPO / "configs" / "sample" / "en-de"

CONFIG = """\
schema_version: 1
experiment: guard
seed: 7
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.A.txt]
    systems: {Sys: sys.txt}
metrics:
  - name: ter
    metric: ter
  - name: bleu
"""


def _run(where: Path, system: str) -> Path:
    where.mkdir(parents=True)
    shutil.copy(SAMPLE / "ref.A.txt", where / "ref.A.txt")
    shutil.copy(SAMPLE / "sys" / f"{system}.txt", where / "sys.txt")
    write_config(where / "guard.yaml", CONFIG)
    with contextlib.chdir(where):  # the record names its files relative to here
        assert main(["run", "guard.yaml", "--quiet"]) == 0
    return next((where / "runs" / "guard").iterdir())


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A run of a strong system (A) and of a weak one under the same name (B)."""
    base = tmp_path_factory.mktemp("guard")
    return _run(base / "a", "Strong"), _run(base / "b", "Weak")


@pytest.fixture
def runs(stored: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """Fresh copies of both runs (their working directories included) to edit."""
    out = []
    for version in stored:
        project = version.parents[2]
        copy_of = tmp_path / project.name
        shutil.copytree(project, copy_of)
        out.append(copy_of / "runs" / "guard" / version.name)
    return out[0], out[1]


def edit(version: Path, change: Callable[[dict], None]) -> None:
    path = version / "record.json"
    record = json.loads(path.read_text("utf-8"))
    change(record)
    path.write_text(json.dumps(record), "utf-8")


def entry(record: dict, name: str) -> dict:
    return next(m for m in record["metrics"] if m["name"] == name)


def spec(record: dict, name: str) -> dict:
    return next(s for s in record["specs"] if s["metric"] == name)


def _flip(r: dict) -> None:
    entry(r, "ter")["higher_is_better"] = True


def _rename(r: dict) -> None:
    spec(r, "ter")["definition"]["name"] = "no-such-metric"


def _version(r: dict) -> None:
    spec(r, "ter")["definition"]["version"] = "99"


def _option_type(r: dict) -> None:
    spec(r, "ter")["definition"]["options"]["normalized"] = "yes"


def _extra_option(r: dict) -> None:
    spec(r, "ter")["definition"]["options"]["extra"] = 1


def _grafted(r: dict) -> None:
    spec(r, "bleu")["definition"] = copy.deepcopy(spec(r, "ter")["definition"])


def _emptied(r: dict) -> None:
    r["specs"] = []


def _scale(r: dict) -> None:
    entry(r, "ter")["score_scale"] = 1


def _entry_metric(r: dict) -> None:
    entry(r, "ter")["metric"] = "bleu"


EDITS = {"direction flipped": (_flip, "higher_is_better"),
         "unknown metric": (_rename, "no-such-metric"),
         "version": (_version, "version"),
         "option of a wrong type": (_option_type, "normalized"),
         "extra option": (_extra_option, "extra"),
         "grafted definitions": (_grafted, "bleu"),
         "emptied definitions": (_emptied, "ter"),
         "scale": (_scale, "score_scale"),
         "metric of the entry": (_entry_metric, "metric")}


def test_untouched_records_verify_and_compare_as_a_regression(runs, capsys):
    a, b = runs
    assert main(["verify", str(a), "--data-root", str(a.parents[3])]) == 0
    assert main(["compare", str(a), str(b), "--metric", "ter"]) == 1
    assert "regression" in capsys.readouterr().err


@pytest.mark.parametrize("name", EDITS)
@pytest.mark.parametrize("side", ["A", "B"])
def test_an_edited_record_is_refused_by_compare_and_fails_verify(runs, capsys, name, side):
    a, b = runs
    change, named = EDITS[name]
    edited = a if side == "A" else b
    edit(edited, change)
    status = main(["compare", str(a), str(b)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("evalfw: error: ") and err.count("\n") == 1, err
    assert main(["verify", str(edited), "--data-root", str(edited.parents[3])]) == 1
    out = capsys.readouterr().out
    assert "NOT verified" in out and named in out, out


def test_show_judges_by_the_installed_metric_and_warns(runs, capsys):
    from evalfw.host.host import PluginHost
    from evalfw.records.load import load_record
    from evalfw.runner.recorded import judged

    a, _ = runs
    edit(a, _flip)
    record, notes = judged(load_record(a), PluginHost.create(autoload=False))
    assert entry(record, "ter")["higher_is_better"] is False  # as TER is
    assert len(notes) == 1 and "metric 'ter'" in notes[0]
    assert main(["show", str(a)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("evalfw: warning: ") and "higher_is_better True" in err
