"""`evalfw runs prune`: --keep N / --before DATE, a dry run unless --yes, bytes freed, and
the latest version of an experiment is never removed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.records.load import versions
from evalfw.records.prune import size_of
from tests.support.runs import run, workdir  # noqa: F401  (fixture)

STAMPS = ["20240105T100000Z-001", "20240301T100000Z-001", "20250101T100000Z-001",
          "20250102T100000Z-001"]


@pytest.fixture
def stored(workdir) -> Path:
    """Four versions of 'wmt' (made now, renamed to the given UTC stamps) and one of 'other'."""
    for stamp in STAMPS:
        path = run().path
        path.rename(path.parent / stamp)
    run(overrides=("experiment=other",))
    return workdir / "runs"


def names(runs: Path, experiment: str = "wmt") -> list[str]:
    return [p.name for p in versions(runs / experiment)]


def test_dry_run_by_default_lists_versions_and_bytes(stored, capsys):
    sizes = {s: size_of(stored / "wmt" / s) for s in STAMPS}
    assert main(["runs", "prune", "--keep", "2", "--runs-dir", str(stored)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [f"would remove {stored / 'wmt' / s} ({sizes[s] / 1024:.1f} KiB)"
                       for s in STAMPS[:2]]
    total = sizes[STAMPS[0]] + sizes[STAMPS[1]]
    assert f"({total} bytes)" in out[2] and "add --yes" in out[2]
    assert names(stored) == STAMPS  # nothing removed


def test_yes_removes_and_keeps_the_last_n(stored, capsys):
    assert main(["runs", "prune", "--keep", "2", "--yes", "--runs-dir", str(stored)]) == 0
    assert capsys.readouterr().out.startswith("removed ")
    assert names(stored) == STAMPS[2:]
    assert len(names(stored, "other")) == 1
    assert (stored / ".cache").is_dir()  # the statistics cache is left alone


def test_before_a_date_never_the_latest(stored, capsys):
    assert main(["runs", "prune", "wmt", "--before", "2025-01-02", "--yes", "--json",
                 "--runs-dir", str(stored)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["version"] for v in data["removed"]] == STAMPS[:3]
    assert data["bytes"] == sum(v["bytes"] for v in data["removed"]) > 0
    assert names(stored) == STAMPS[3:]
    # a date after every version: the latest one still stays, in every experiment
    assert main(["runs", "prune", "--before", "2999-01-01", "--yes",
                 "--runs-dir", str(stored)]) == 0
    assert names(stored) == STAMPS[3:] and len(names(stored, "other")) == 1
    assert "nothing to remove" in capsys.readouterr().out


def test_keep_and_before_together_need_both(stored, capsys):
    assert main(["runs", "prune", "wmt", "--keep", "1", "--before", "2024-06-01", "--json",
                 "--runs-dir", str(stored)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dry_run"] and [v["version"] for v in data["would_remove"]] == STAMPS[:2]


@pytest.mark.parametrize("argv, message", [
    (["--keep", "0"], "must be at least 1"),
    (["--before", "2025-13-01"], "is not a date YYYY-MM-DD"),
    ([], "say what to remove: --keep N"),
    (["nope", "--keep", "1"], "no experiment 'nope'"),
])
def test_user_errors_exit_2_with_one_line(stored, capsys, argv, message):
    try:
        status = main(["runs", "prune", *argv, "--runs-dir", str(stored)])
    except SystemExit as exc:  # argparse's own usage errors
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert [line for line in err.splitlines() if line.startswith("evalfw: error: ")]
    assert names(stored) == STAMPS


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["runs", "prune", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "evalfw runs prune --keep 5 --yes" in out
