"""Model identity by content (:func:`evalfw.metrics.model_files.digest`): a file's sha256, a
directory's over its names and bytes, remembered by path, size and modification time."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from evalfw.metrics.model_files import digest


def test_file_and_directory_digests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    model = tmp_path / "model"
    (model / "sub").mkdir(parents=True)
    (model / "weights.bin").write_bytes(b"\x00\x01" * 1000)
    (model / "sub" / "config.json").write_text("{}", "utf-8")
    assert digest(model / "weights.bin") == hashlib.sha256(b"\x00\x01" * 1000).hexdigest()
    first = digest(model)
    assert (tmp_path / "cache" / "model-sha256.json").is_file()
    (model / "sub" / "config.json").write_text("[]", "utf-8")  # same size, new time
    second = digest(model)
    assert second != first
    # a file rewritten with its old size and time is taken from the memo (not hashed again)
    stat = (model / "weights.bin").stat()
    (model / "weights.bin").write_bytes(b"\x01\x00" * 1000)
    os.utime(model / "weights.bin", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert digest(model) == second
    (model / "sub" / "config.json").rename(model / "config.json")  # the layout counts
    monkeypatch.setenv("EVALFW_NO_CACHE", "1")
    assert digest(model) not in (first, second)


def test_unwritable_memo_still_digests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cache").write_text("not a directory", "utf-8")
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "m.ckpt").write_bytes(b"abc")
    assert digest(tmp_path / "m.ckpt") == hashlib.sha256(b"abc").hexdigest()
