"""A cache of model scores per segment, so a model-based metric never scores the same input
twice: not on a re-run, not in ``evalfw verify``, not for another system with the same line.

Entries live in one SQLite file (``$EVALFW_CACHE_DIR/segment-scores.sqlite``, else under
``$XDG_CACHE_HOME/evalfw/`` or ``~/.cache/evalfw/``), keyed by the sha256 of the model's name
and version, the options that change its output, and the segment's source, hypothesis and
references. Each row carries a digest of its key and score, so a row edited (or damaged)
after it was written is told from one the model wrote. Like the statistics cache it is an
optimisation only: a cache that cannot be opened or written is not used, and a row that fails
its digest, is not a finite number or lies outside the metric's declared ``score_range`` is a
miss: the model scores the segment again and the row is written anew, with one warning
(:class:`~evalfw.errors.CacheWarning`) saying how many rows were bad.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

from evalfw.errors import CacheWarning

ENV_DIR = "EVALFW_CACHE_DIR"
ENV_OFF = "EVALFW_NO_CACHE"


def default_path() -> Path:
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR]) / "segment-scores.sqlite"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evalfw" / "segment-scores.sqlite"


#: the table of checked rows (rows of an older layout, without digests, are never read)
TABLE = "checked_scores"


def digest(key: str, score: float) -> str:
    """What a row's key and score hash to: a row whose digest differs was not written so."""
    return hashlib.sha256(f"{key}|{float(score).hex()}".encode()).hexdigest()[:32]


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
            if os.path.lexists(self.path) and not os.path.isfile(self.path):
                raise OSError(f"{self.path} is not a regular file")  # a FIFO would hang
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} "
                             "(key TEXT PRIMARY KEY, score REAL NOT NULL, digest TEXT NOT NULL)")
        except (OSError, sqlite3.Error) as exc:
            self._problem(f"segment-score cache {self.path} cannot be used ({exc}); "
                                 "the model scores every segment")
            self._db = None

    def _problem(self, text: str) -> None:
        """A reason the cache was not used, noted and said once (:class:`CacheWarning`)."""
        if text not in self.problems:
            self.problems.append(text)
            warnings.warn(text, CacheWarning, stacklevel=3)

    def get(self, keys: Sequence[str],
            bounds: tuple[float | None, float | None] | None = None) -> dict[str, float]:
        """The intact rows of ``keys``: a row that fails its digest, is not finite or is
        outside ``bounds`` (the metric's ``score_range``) is left out, with one warning."""
        if self._db is None or not keys:
            return {}
        found: dict[str, float] = {}
        from evalfw.metrics._returns import outside

        bad = 0
        try:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                marks = ",".join("?" * len(part))
                for k, score, check in self._db.execute(
                        f"SELECT key, score, digest FROM {TABLE} WHERE key IN ({marks})", part):
                    if not isinstance(score, float) or not math.isfinite(score) \
                            or check != digest(k, score) or outside(score, bounds):
                        bad += 1
                        continue
                    found[k] = score
        except sqlite3.Error as exc:
            self._problem(f"segment-score cache {self.path} is unreadable ({exc})")
            return {}
        if bad:
            warnings.warn(f"segment-score cache {self.path}: {bad} row(s) were changed after "
                          "they were written or hold an impossible score; scored again",
                          CacheWarning, stacklevel=2)
        return found

    def put(self, items: Iterable[tuple[str, float]]) -> None:
        if self._db is None:
            return
        try:
            with self._db:
                self._db.executemany(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?)",
                                     [(k, float(v), digest(k, v)) for k, v in items])
        except sqlite3.Error as exc:
            self._problem(f"cannot write the segment-score cache {self.path} ({exc})")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
