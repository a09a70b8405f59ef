"""`evalfw runs` and `evalfw show` flag a version whose segments file is missing or does not
match its record, instead of listing it as normal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import mini


@pytest.fixture
def version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"the cat sat\nhello world\n", b"the cat\nhello\n", b"a cat sat\nworld\n")
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    return next((tmp_path / "runs" / "mini").iterdir())


def test_an_intact_version_is_listed_as_normal(version, capsys):
    assert main(["runs", "--runs-dir", "runs", "--format", "json"]) == 0
    assert "damaged" not in json.loads(capsys.readouterr().out)[0]
    assert main(["show", str(version)]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize("damage, said", [
    (lambda p: p.unlink(), "segments.npz is missing"),
    (lambda p: p.write_bytes(p.read_bytes() + b"x"), "does not match the record"),
    (lambda p: (p.unlink(), p.mkdir()), "is not a regular file"),
])
def test_a_damaged_version_is_flagged_by_runs_and_show(version, capsys, damage, said):
    damage(version / "segments.npz")
    assert main(["runs", "--runs-dir", "runs"]) == 0
    out = capsys.readouterr().out
    assert f"DAMAGED: segments.npz {said.split('segments.npz ')[-1]}" in out, out
    assert main(["runs", "--runs-dir", "runs", "--format", "json"]) == 0
    assert said in json.loads(capsys.readouterr().out)[0]["damaged"]
    assert main(["show", str(version)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("evalfw: warning: ") and said in err
