"""Concurrent runs of one experiment: storing, cleaning, listing and pruning tolerate another
process's entries appearing, being renamed and vanishing at every step. Each test forces one
interleaving deterministically: a patched ``os.lstat``/``os.listdir``/``load_record`` does
what the other process would do at exactly that moment."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from evalfw.records import load, prune, store
from evalfw.records.document import RECORD_FILE
from evalfw.records.naming import TMP_PREFIX


def version(exp: Path, name: str, payload: str = "x") -> Path:
    """A complete-looking version directory (listings need only the name and record.json)."""
    path = exp / name
    path.mkdir(parents=True)
    (path / RECORD_FILE).write_text(json.dumps({"payload": payload}), "utf-8")
    return path


def temporary(exp: Path, pid: int) -> Path:
    path = exp / f"{TMP_PREFIX}{socket.gethostname()}-{pid}-abcd1234"
    path.mkdir(parents=True)
    (path / "segments.npz").write_bytes(b"data")
    return path


def hook(monkeypatch: pytest.MonkeyPatch, name: str, when, action) -> list[str]:
    """Patch ``os.<name>`` so that the first call whose path satisfies ``when`` runs
    ``action(path)`` first (the other process's step), then the real call."""
    real = getattr(os, name)
    fired: list[str] = []

    def patched(path, *args, **kwargs):
        if not fired and when(os.fspath(path)):
            fired.append(os.fspath(path))
            action(os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, name, patched)
    return fired


def test_a_temporary_directory_renamed_to_its_version_while_cleaning_is_left_alone(
        tmp_path, monkeypatch):
    # another live run's temporary directory: listed, then renamed before clean_stale looks
    other = temporary(tmp_path, os.getppid())
    final = tmp_path / "20300101T000000Z-001"
    fired = hook(monkeypatch, "lstat", lambda p: p == str(other),
                 lambda p: os.rename(p, final))
    assert store.clean_stale(tmp_path) == []
    assert fired and final.is_dir() and (final / "segments.npz").read_bytes() == b"data"


def test_a_stale_directory_removed_by_another_cleaner_meanwhile_is_no_error(
        tmp_path, monkeypatch):
    dead = temporary(tmp_path, 999_999_999)
    # the other run's clean_stale removes it between this one's lstat and rmtree
    real_lstat = os.lstat
    seen = []

    def lstat(path, *args, **kwargs):
        result = real_lstat(path, *args, **kwargs)
        if os.fspath(path) == str(dead) and not seen:
            seen.append(1)
            shutil.rmtree(dead)
        return result

    monkeypatch.setattr(os, "lstat", lstat)
    assert store.clean_stale(tmp_path) == [dead.name]
    assert seen and not dead.exists()


def test_a_stale_directory_gone_before_lstat_is_skipped(tmp_path, monkeypatch):
    dead = temporary(tmp_path, 999_999_999)
    hook(monkeypatch, "lstat", lambda p: p == str(dead), lambda p: shutil.rmtree(p))
    assert store.clean_stale(tmp_path) == []


def test_an_experiment_directory_removed_meanwhile_lists_nothing(tmp_path):
    assert store.clean_stale(tmp_path / "gone") == []
    assert load.versions(tmp_path / "gone") == []
    assert load.experiments(tmp_path / "gone") == []
    (tmp_path / "file").write_text("x")
    assert load.versions(tmp_path / "file") == [] and load.experiments(tmp_path / "file") == []


def test_a_version_pruned_by_another_process_during_listing_is_not_listed(
        tmp_path, monkeypatch):
    exp = tmp_path / "exp"
    old = version(exp, "20300101T000000Z-001")
    new = version(exp, "20300101T000000Z-002")
    real = load.load_record

    def load_record(path):
        if path == old:  # the other process's prune removes it right before reading
            shutil.rmtree(old)
        return real(path)

    monkeypatch.setattr(load, "load_record", load_record)
    # the fake records are not valid records: the listing reports that for the one still there
    listed = load.list_runs(tmp_path)
    assert [e["version"] for e in listed] == [new.name]
    assert "error" in listed[0]


def test_a_version_vanishing_between_listdir_and_the_record_check_is_skipped(
        tmp_path, monkeypatch):
    exp = tmp_path / "exp"
    a = version(exp, "20300101T000000Z-001")
    b = version(exp, "20300101T000000Z-002")
    real = os.listdir

    def listdir(path):
        names = real(path)
        if Path(path) == exp:
            shutil.rmtree(a)  # gone right after the listing
        return names

    monkeypatch.setattr(os, "listdir", listdir)
    assert load.versions(exp) == [b]


def test_pruning_a_version_another_prune_removed_first_frees_nothing_and_does_not_fail(
        tmp_path):
    exp = tmp_path / "exp"
    for k in range(1, 4):
        version(exp, f"20300101T000000Z-00{k}")
    chosen = prune.plan(tmp_path, keep=1)
    assert [c.version for c in chosen] == ["20300101T000000Z-001", "20300101T000000Z-002"]
    shutil.rmtree(chosen[0].path)  # the other prune was faster
    assert prune.remove(chosen) == chosen[1].bytes
    assert [p.name for p in load.versions(exp)] == ["20300101T000000Z-003"]


def test_pruning_a_version_whose_files_vanish_during_removal(tmp_path, monkeypatch):
    exp = tmp_path / "exp"
    for k in range(1, 3):
        version(exp, f"20300101T000000Z-00{k}")
    (chosen,) = prune.plan(tmp_path, keep=1)
    inner = chosen.path / RECORD_FILE
    real = os.unlink

    def unlink(path, *args, **kwargs):
        if os.fspath(path) in (str(inner), RECORD_FILE) and inner.exists():
            real(inner)  # removed by the other process first
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    prune.remove([chosen])
    assert not chosen.path.exists()


def test_a_version_name_claimed_between_listing_and_renaming_takes_the_next(
        tmp_path, monkeypatch):
    # the other run renames its temporary directory to the name this run chose, just before
    # this run's rename: this run must take the next counter, and both versions stay intact
    record = {"payload": 1}
    monkeypatch.setattr(store, "validate_record", lambda *a, **k: None)
    real = os.rename
    claimed = []

    def rename(src, dst, *args, **kwargs):
        if not claimed and Path(dst).parent.name == "exp":
            claimed.append(Path(dst).name)
            version(Path(dst).parent, Path(dst).name, "theirs")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    path = store.write_version(tmp_path, "exp", record, b"segments")
    assert claimed and path.name != claimed[0]
    assert path.name.rsplit("-", 1)[1] == f"{int(claimed[0].rsplit('-', 1)[1]) + 1:03d}"
    theirs = json.loads((path.parent / claimed[0] / RECORD_FILE).read_text("utf-8"))
    assert theirs == {"payload": "theirs"}
    assert json.loads((path / RECORD_FILE).read_text("utf-8"))["version"] == path.name
    assert not [n for n in os.listdir(path.parent) if n.startswith(TMP_PREFIX)]
