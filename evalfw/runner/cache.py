"""A disk cache of per-segment statistics, so re-running an unchanged config skips the
expensive part (tokenizing and counting, or a model) for every metric.

The key is the sha256 of everything the statistics depend on: the content of the hypothesis
and reference files (in order) and the metric's ``statistics_key()`` (its name, version and
the options that shape its statistics). A metric bumps its ``version`` whenever its output
could change, which invalidates old entries.

The cache is an optimisation, never a source of truth or of failure:

- an entry holds the statistics and the sha256 of their bytes, dtype and shape, written
  atomically (temporary file, then rename), and is used only when that checksum matches and
  the metric accepts the values (:meth:`~evalfw.metrics.base.Metric.check_statistics`);
  anything else is a miss, noted once in :attr:`StatsCache.problems`;
- a cache that cannot be read or written (read-only or full disk, a file where a directory
  should be, a device) turns into misses, and the run goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from evalfw.errors import InputError
from evalfw.io.text import open_regular
from evalfw.limits import max_segments_bytes
from evalfw.metrics.boundary import statistics_problem

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import Metric

#: bump when the entry layout or the key recipe changes
FORMAT = 2
ENV_DIR = "EVALFW_CACHE_DIR"
ENV_OFF = "EVALFW_NO_CACHE"


def default_dir() -> Path:
    """``$EVALFW_CACHE_DIR``, else ``$XDG_CACHE_HOME/evalfw/stats``, else ``~/.cache/...``."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evalfw" / "stats"


def file_digest(path: str | os.PathLike[str]) -> str:
    """sha256 of a file's bytes, read in blocks (files may be large)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def stats_key(metric: Metric, hypothesis_digest: str, reference_digests: list[str]) -> str:
    """The cache key of one (system, test set, metric recipe)."""
    recipe = {
        "format": FORMAT,
        "hypotheses": hypothesis_digest,
        "references": list(reference_digests),
        "metric": repr(metric.statistics_key()),
    }
    text = json.dumps(recipe, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def checksum(statistics: np.ndarray) -> str:
    """sha256 of an array's dtype, shape and bytes."""
    h = hashlib.sha256(f"{statistics.dtype.str}{statistics.shape}".encode())
    h.update(statistics.data.cast("B") if statistics.flags.c_contiguous
             else statistics.tobytes())
    return h.hexdigest()


class StatsCache:
    """Per-segment statistics stored under ``directory/<key[:2]>/<key>.npz``."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_dir()
        self.hits = 0
        self.misses = 0
        #: why entries were not used or not written (each reason once), for the run's warnings
        self.problems: list[str] = []

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.npz"

    def _note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def load(self, key: str, metric: Metric, segments: int | None = None) -> np.ndarray | None:
        """The statistics stored under ``key`` if they are intact, rows a metric may return
        (``segments`` of them) and ``metric`` accepts them."""
        return self.load_checked(
            key, lambda stats: statistics_problem(stats, segments) or metric.check_statistics(stats),
            f"metric '{metric.name}'")

    def load_checked(self, key: str, problem_of: Callable[[np.ndarray], str | None],
                     user: str) -> np.ndarray | None:
        """The array stored under ``key`` if it is intact and ``problem_of`` finds nothing
        wrong with it (``user`` names who reads it: a metric, a check)."""
        import numpy as np

        path = self.path(key)
        try:
            if not path.exists():
                return None  # not cached (a cache that cannot be written is noted by store())
            # a regular file within the segments limit (a FIFO would wait for a writer)
            with open_regular(path, str(path), max_segments_bytes()) as fh, \
                    np.load(fh, allow_pickle=False) as data:
                if set(data.files) != {"statistics", "sha256"}:
                    raise ValueError("unexpected arrays")
                if any(i.file_size > max_segments_bytes() for i in data.zip.infolist()):
                    raise ValueError("an array larger than EVALFW_MAX_SEGMENTS_BYTES")
                stats: np.ndarray = data["statistics"]
                recorded = str(data["sha256"])
        except (FileNotFoundError, NotADirectoryError):
            return None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError, InputError) as exc:
            self._note(f"statistics cache entry {path} is unreadable ({exc}); recomputed")
            return None
        if checksum(stats) != recorded:
            self._note(f"statistics cache entry {path} does not match its checksum; recomputed")
            return None
        problem = problem_of(stats)
        if problem is not None:
            self._note(f"statistics cache entry {path} is not valid for {user} ({problem}); "
                       "recomputed")
            return None
        return stats

    def store(self, key: str, statistics: np.ndarray) -> bool:
        """Write an entry; False (with the reason in ``problems``) when that is impossible."""
        import numpy as np

        target = self.path(key)
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, statistics=statistics, sha256=np.array(checksum(statistics)))
            os.replace(tmp, target)
            return True
        except OSError as exc:
            self._note(f"cannot write the statistics cache under {self.directory} "
                       f"({exc.strerror or exc}); the run goes on without it")
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            return False

    def get_or_compute(self, key: str, metric: Metric,
                       compute: Callable[[], np.ndarray]) -> np.ndarray:
        """The cached statistics for ``key``, computing and storing them on a miss."""
        found = self.load(key, metric)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        stats = compute()
        self.store(key, stats)
        return stats


def for_runs(output_dir: str | os.PathLike[str]) -> StatsCache | None:
    """The cache ``evalfw run`` uses: on by default, beside the runs it speeds up
    (``<output_dir>/.cache/stats``), or ``$EVALFW_CACHE_DIR``; off with ``$EVALFW_NO_CACHE=1``
    (``evalfw run --no-cache``). ``evalfw verify`` never uses it: it must recompute."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    if os.environ.get(ENV_DIR):
        return StatsCache(os.environ[ENV_DIR])
    return StatsCache(Path(output_dir) / ".cache" / "stats")


__all__ = ["StatsCache", "checksum", "file_digest", "for_runs", "stats_key"]
