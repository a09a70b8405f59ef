"""Every command reaches the same verdict on a record: a score edited into a copied version is
refused by ``compare``, fails ``verify``, and is warned about by ``show`` (exit 1) and ``runs``
(the version marked DAMAGED), each checking it against the stored statistics."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import MINI, write_config

BOUND_SECONDS = 60

REF = b"the cat sat on the mat\na dog barked at night\nwe went home early\n"
A = b"the cat sat on a mat\na dog barked\nwe went home\n"
B = b"a cat on the mat\nthe dog barked at night\nwe went home early\n"


@pytest.fixture
def edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A run of systems A and B, and a copy of its version whose record gives A a BLEU of
    99.0 (better than B's)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    (tmp_path / "ref.txt").write_bytes(REF)
    (tmp_path / "a.txt").write_bytes(A)
    (tmp_path / "b.txt").write_bytes(B)
    write_config(tmp_path / "mini.yaml", MINI.format(extra=""))
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    original = next(p for p in (tmp_path / "runs" / "mini").iterdir()
                    if not p.name.startswith("."))
    copy = original.with_name(original.name[:-3] + "999")
    shutil.copytree(original, copy)
    record = json.loads((copy / "record.json").read_text("utf-8"))
    for row in record["results"]:
        if row["system"] == "A":
            row["score"] = 99.0
    record["version"] = copy.name
    (copy / "record.json").write_text(json.dumps(record), "utf-8")
    return original, copy


def test_compare_refuses_and_verify_fails(edited, capsys):
    original, copy = edited
    assert main(["compare", str(original), str(copy)]) == 2
    assert "99.0 was recorded" in capsys.readouterr().err
    assert main(["verify", str(copy)]) == 1


def test_show_warns_in_one_line_and_exits_1(edited, capsys):
    original, copy = edited
    assert main(["show", str(original)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["show", str(copy)]) == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: warning: "), err
    assert "t/A/bleu (99.0) is not what its stored statistics give" in lines[0]
    assert "99.00" in out  # shown as recorded, with the warning beside it


def test_runs_marks_the_edited_version(edited, capsys):
    original, copy = edited
    assert main(["runs", "mini"]) == 0
    out, err = capsys.readouterr()
    row = next(line for line in out.splitlines() if copy.name in line)
    assert "DAMAGED: the recorded score of t/A/bleu" in row
    assert not any("DAMAGED" in line for line in out.splitlines() if original.name in line)
    assert err.count("evalfw: warning: ") == 1 and copy.name in err
    assert main(["runs", "mini", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [("damaged" in e) for e in entries] == [False, True]


def test_an_unedited_run_is_quiet_everywhere(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    for name, data in (("ref.txt", REF), ("a.txt", A), ("b.txt", B)):
        (tmp_path / name).write_bytes(data)
    write_config(tmp_path / "mini.yaml", MINI.format(extra="  - name: chrf\n    metric: chrf\n"
                                                         "  - name: ter\n    metric: ter\n"))
    with contextlib.chdir(tmp_path):
        assert main(["run", "mini.yaml", "--quiet"]) == 0
        capsys.readouterr()
        assert main(["show", "mini"]) == 0 and main(["runs"]) == 0
    assert capsys.readouterr().err == ""
