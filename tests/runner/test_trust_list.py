"""Your own runs verify where you ran them, wherever the data lies: ``evalfw run`` notes the
files it read in the per-user trust list, ``verify`` reads those and nothing else a record
names outside the current directory. Every test has its own list (tests/conftest.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.runner import trust_list
from tests.support.runs import REPO
from tests.support.shared_data import need_wmt22

CONFIG = """\
schema_version: 1
experiment: mini
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [{data}/ref.txt]
    systems: {{A: {data}/a.txt, B: {data}/b.txt}}
metrics:
  - name: bleu
"""


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory (the current one) whose data lies in a sibling directory, which
    also holds a file no run reads; returns the data directory."""
    data, project = tmp_path / "data", tmp_path / "project"
    data.mkdir()
    project.mkdir()
    (data / "ref.txt").write_bytes(b"the cat sat on the mat\n")
    (data / "a.txt").write_bytes(b"the cat sat on a mat\n")
    (data / "b.txt").write_bytes(b"a cat on the mat\n")
    (data / "private.txt").write_bytes(b"not for records\n")
    (project / "mini.yaml").write_text(CONFIG.format(data=data), "utf-8")
    monkeypatch.chdir(project)
    return data


def edit_record(change) -> None:
    (version,) = Path("runs/mini").iterdir()
    path = version / "record.json"
    record = json.loads(path.read_text("utf-8"))
    change(record)
    path.write_text(json.dumps(record), "utf-8")


def test_your_own_run_on_data_elsewhere_verifies_without_flags(outside, capsys):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    assert main(["verify", "mini"]) == 0
    assert "verified:" in capsys.readouterr().out
    listed = trust_list.read()
    assert {Path(f).name for f in listed.files} == {"ref.txt", "a.txt", "b.txt", "mini.yaml"}
    assert listed.directories == ()


def test_without_the_list_the_same_record_is_refused(outside, capsys, tmp_path, monkeypatch):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    monkeypatch.setenv(trust_list.ENV_DIR, str(tmp_path / "another-user"))
    assert main(["verify", "mini"]) == 2
    err = capsys.readouterr().err
    assert "outside the directories verify reads" in err and "evalfw trust add" in err


def test_a_record_naming_a_file_no_run_read_is_refused_even_beside_your_data(outside, capsys):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    private = outside / "private.txt"
    digest = hashlib.sha256(private.read_bytes()).hexdigest()
    edit_record(lambda r: r["inputs"][0].update(path=str(private)))
    assert main(["verify", "mini"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert f"{private}, outside the directories verify reads" in text
    assert digest[:12] not in text  # never opened


def test_a_record_pointing_its_config_at_another_file_is_refused(outside, capsys):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    edit_record(lambda r: r["config"].update(path=str(outside / "private.txt")))
    assert main(["verify", "mini"]) == 2
    assert "the record's config is" in capsys.readouterr().err


def test_verify_adds_nothing_to_the_list(outside):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    before = trust_list.list_path().read_bytes()
    assert main(["verify", "mini"]) == 0
    assert trust_list.list_path().read_bytes() == before


def test_removing_the_data_directory_from_the_list_untrusts_its_files(outside, capsys):
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    assert main(["trust", "remove", str(outside)]) == 0
    removed = capsys.readouterr().out
    assert removed.count("removed: ") == 3 and "a.txt" in removed
    assert main(["verify", "mini"]) == 2
    assert main(["trust", "add", str(outside)]) == 0
    assert main(["verify", "mini"]) == 0


def test_trust_list_shows_directories_and_files_per_folder(outside, capsys):
    assert main(["trust", "list"]) == 0
    assert "(empty" in capsys.readouterr().out
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    assert main(["trust", "add", str(outside)]) == 0
    capsys.readouterr()
    assert main(["trust", "list"]) == 0
    out = capsys.readouterr().out
    assert f"directory {os.path.realpath(outside)}" in out
    assert f"3 files read by runs in {os.path.realpath(outside)}" in out
    assert main(["trust", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["path"] == str(trust_list.list_path()) and len(data["files"]) == 4


def test_trust_add_refuses_what_is_not_a_directory(outside, capsys):
    assert main(["trust", "add", str(outside / "a.txt")]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_a_damaged_list_is_an_error_for_verify_and_a_warning_for_run(outside, capsys):
    path = trust_list.list_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", "utf-8")
    assert main(["run", "mini.yaml"]) == 0
    err = capsys.readouterr().err
    assert "evalfw: warning: the files this run read were not added to the trust list" in err
    assert "evalfw: stored" in err
    assert main(["verify", "mini"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"evalfw: error: the trust list {path} is damaged")


def test_an_unwritable_list_only_warns(outside, capsys, monkeypatch):
    blocker = outside.parent / "blocker"
    blocker.write_text("a file where the config directory should be")
    monkeypatch.setenv(trust_list.ENV_DIR, str(blocker / "evalfw"))
    assert main(["run", "mini.yaml"]) == 0
    assert "were not added to the trust list" in capsys.readouterr().err


def test_where_the_list_lives(monkeypatch, tmp_path):
    monkeypatch.delenv(trust_list.ENV_DIR)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert trust_list.list_path() == tmp_path / "xdg" / "evalfw" / "trusted-paths.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert trust_list.list_path() == tmp_path / "home/.config/evalfw/trusted-paths.json"
    monkeypatch.setenv(trust_list.ENV_DIR, str(tmp_path / "mine"))
    assert trust_list.list_path() == tmp_path / "mine" / "trusted-paths.json"


def test_concurrent_runs_noting_files_lose_none(tmp_path):
    files = []
    for k in range(6):
        f = tmp_path / f"f{k}.txt"
        f.write_text("x")
        files.append(f)
    code = ("import sys; from evalfw.runner import trust_list; "
            "[trust_list.note_files([p]) for p in sys.argv[1:] for _ in range(20)]")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = [subprocess.Popen([sys.executable, "-c", code, str(files[k]), str(files[k + 3])],
                              env=env) for k in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    assert sorted(trust_list.read().files) == sorted(str(f) for f in files)


def test_files_that_are_gone_leave_the_list_when_it_is_written(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("x")
    b.write_text("y")
    trust_list.note_files([a, b])
    a.unlink()
    trust_list.note_files([b])
    assert trust_list.read().files == (str(b),)


@pytest.mark.wmt22
def test_the_readme_quick_start_verifies_on_wmt22(tmp_path, monkeypatch, capsys):
    """`evalfw run configs/wmt.yaml --set data_root=../shared/data/wmt22`, then
    `evalfw verify wmt`, from a clone whose ../shared holds the data."""
    data = need_wmt22()
    clone = tmp_path / "evalfw"
    shutil.copytree(REPO / "configs", clone / "configs")
    (tmp_path / "shared").symlink_to(data.parent.parent, target_is_directory=True)
    monkeypatch.chdir(clone)
    assert main(["run", "configs/wmt.yaml", "--set", "data_root=../shared/data/wmt22",
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["verify", "wmt"]) == 0
    assert capsys.readouterr().out.startswith("verified: ")
