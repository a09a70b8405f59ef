"""A cache of model scores per segment, so a model-based metric never scores the same input
twice: not on a re-run, not in ``evalfw verify``, not for another system with the same line.

Entries live in one SQLite file (``$EVALFW_CACHE_DIR/segment-scores.sqlite``, else under
``$XDG_CACHE_HOME/evalfw/`` or ``~/.cache/evalfw/``), keyed by the sha256 of the model's name
and version, the options that change its output, and the segment's source, hypothesis and
references. Like the statistics cache it is an optimisation only: a cache that cannot be opened
or written, or an entry that is not a finite number, is a miss and the model runs.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

ENV_DIR = "EVALFW_CACHE_DIR"
ENV_OFF = "EVALFW_NO_CACHE"


def default_path() -> Path:
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR]) / "segment-scores.sqlite"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evalfw" / "segment-scores.sqlite"


def key(model: str, version: str, options: object, source: str | None, hypothesis: str,
        references: Sequence[str]) -> str:
    text = json.dumps([model, version, options, source, hypothesis, list(references)],
                      ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ScoreCache:
    """Key -> score, in a SQLite file (or nowhere, when it cannot be used)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.problems: list[str] = []
        self._db: sqlite3.Connection | None = None
        if os.environ.get(ENV_OFF, "") not in ("", "0"):
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute("CREATE TABLE IF NOT EXISTS scores "
                             "(key TEXT PRIMARY KEY, score REAL NOT NULL)")
        except (OSError, sqlite3.Error) as exc:
            self.problems.append(f"segment-score cache {self.path} cannot be used ({exc}); "
                                 "the model scores every segment")
            self._db = None

    def get(self, keys: Sequence[str]) -> dict[str, float]:
        if self._db is None or not keys:
            return {}
        found: dict[str, float] = {}
        try:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                marks = ",".join("?" * len(part))
                for k, score in self._db.execute(
                        f"SELECT key, score FROM scores WHERE key IN ({marks})", part):
                    if isinstance(score, float) and math.isfinite(score):
                        found[k] = score
        except sqlite3.Error as exc:
            self.problems.append(f"segment-score cache {self.path} is unreadable ({exc})")
            return {}
        return found

    def put(self, items: Iterable[tuple[str, float]]) -> None:
        if self._db is None:
            return
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?)",
                                     [(k, float(v)) for k, v in items])
        except sqlite3.Error as exc:
            self.problems.append(f"cannot write the segment-score cache {self.path} ({exc})")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
