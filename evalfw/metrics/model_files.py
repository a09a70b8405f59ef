"""What identifies a model by content: the sha256 of its checkpoint file, or of every file in
its directory, so a model metric's cached scores and records follow what was run, not where
it lay.

Hashing a multi-gigabyte checkpoint takes seconds, and every run needs the identity (it is in
the signature and in every cache key, also when every score is cached), so each digest is
remembered in evalfw's cache directory (beside the segment-score cache) by the path, size and
modification time of each file. The memo is an optimisation only: one that cannot be read or
written means hashing again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from evalfw.errors import EvalfwError
from evalfw.io.text import read_bytes

#: digests the memo keeps (the latest): enough for the models of a few experiments
MEMO_SIZE = 64
#: the memo file at most this many bytes (64 entries take about 10 KB)
MEMO_BYTES = 1 << 20


def _memo_path() -> Path:
    from evalfw.metrics._score_cache import default_path

    return default_path().parent / "model-sha256.json"


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def digest(path: str | os.PathLike[str]) -> str:
    """The sha256 of file ``path``, or of directory ``path``'s files (each file's name
    relative to it, then its bytes, in name order)."""
    root = Path(path).resolve()
    files = _files(root)
    stats = [(f, f.stat()) for f in files]
    tag = "|".join([str(root), *(f"{f.relative_to(root) if f != root else ''}:"
                                 f"{s.st_size}:{s.st_mtime_ns}" for f, s in stats)])
    tag = hashlib.sha256(tag.encode("utf-8", "surrogateescape")).hexdigest()
    memo_file = _memo_path()
    try:  # a cache file: regular and small, else not used (a FIFO would never answer)
        memo = json.loads(read_bytes(memo_file, str(memo_file), limit=MEMO_BYTES,
                                     variable=None, what="cache file"))
        memo = memo if isinstance(memo, dict) else {}
    except (EvalfwError, ValueError, RecursionError):
        memo = {}
    found = memo.get(tag)
    if isinstance(found, str) and len(found) == 64:
        return found
    total = hashlib.sha256()
    for f in files:
        if f != root:  # a directory's digest covers its layout too
            total.update(str(f.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
        with f.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 22), b""):
                total.update(block)
    found = total.hexdigest()
    memo.pop(tag, None)
    memo[tag] = found
    for old in list(memo)[:-MEMO_SIZE]:
        del memo[old]
    try:
        memo_file.parent.mkdir(parents=True, exist_ok=True)
        part = memo_file.with_name(f"{memo_file.name}.{os.getpid()}.tmp")
        part.write_text(json.dumps(memo, sort_keys=False), "utf-8")
        os.replace(part, memo_file)
    except OSError:
        pass
    return found


__all__ = ["digest"]
