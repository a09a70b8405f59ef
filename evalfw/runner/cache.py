"""A disk cache of per-segment statistics, so re-running an unchanged config skips
tokenizing and counting.

The key is the sha256 of everything the statistics depend on: the content of the hypothesis
and reference files (in order), the tokenizer's and counter's names, versions and options,
the orders counted and lowercasing. Smoothing, penalty and mean are *not* in the key: they
work on the statistics, so every such choice shares one entry. A component bumps its
``version`` whenever its output could change, which invalidates old entries.

Entries are ``.npz`` files written atomically (temporary file, then rename), so concurrent
runs and interrupted writes never leave a half entry; an unreadable entry counts as a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import SegmentStats

#: bump when the entry layout or the key recipe changes
FORMAT = 1
ENV_DIR = "EVALFW_CACHE_DIR"


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


def stats_key(spec: BleuSpec, hypothesis_digest: str, reference_digests: Sequence[str]) -> str:
    """The cache key of one (system, test set, counting recipe)."""
    recipe = {
        "format": FORMAT,
        "hypotheses": hypothesis_digest,
        "references": list(reference_digests),
        "tokenizer": _component(spec.tokenizer),
        "precision": _component(spec.counter),
        "orders": spec.count_orders,
        "lowercase": spec.lowercase,
    }
    text = json.dumps(recipe, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _component(comp: object) -> dict[str, object]:
    return {"name": getattr(comp, "name", type(comp).__name__),
            "version": getattr(comp, "version", "?"),
            "options": dict(getattr(comp, "options", {}))}


class StatsCache:
    """Per-segment statistics stored under ``directory/<key[:2]>/<key>.npz``."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_dir()
        self.hits = 0
        self.misses = 0

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.npz"

    def load(self, key: str) -> SegmentStats | None:
        try:
            with np.load(self.path(key), allow_pickle=False) as data:
                return SegmentStats.from_arrays({k: data[k] for k in data.files})
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
            return None  # missing or damaged: recompute (and overwrite)

    def store(self, key: str, stats: SegmentStats) -> None:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **stats.to_arrays())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def get_or_compute(self, key: str, compute: Callable[[], SegmentStats]) -> SegmentStats:
        """The cached statistics for ``key``, computing and storing them on a miss."""
        found = self.load(key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        stats = compute()
        self.store(key, stats)
        return stats


def from_env() -> StatsCache | None:
    """The cache named by ``$EVALFW_CACHE_DIR``, or None when it is unset."""
    return StatsCache(os.environ[ENV_DIR]) if os.environ.get(ENV_DIR) else None


ENV_OFF = "EVALFW_NO_CACHE"


def for_runs(output_dir: str | os.PathLike[str]) -> StatsCache | None:
    """The cache ``evalfw run`` uses: on by default, beside the runs it speeds up
    (``<output_dir>/.cache/stats``), or ``$EVALFW_CACHE_DIR``; off with ``$EVALFW_NO_CACHE=1``
    (``evalfw run --no-cache``). ``evalfw verify`` never uses it: it must recompute."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    return from_env() or StatsCache(Path(output_dir) / ".cache" / "stats")


def cached_cells(store: StatsCache | None, jobs: Sequence[tuple[int, object]],
                 spec_of: Callable[[object], BleuSpec], system_digests: Sequence[str],
                 reference_digests: Sequence[str]) -> tuple[dict[tuple[int, object], SegmentStats],
                                                            dict[tuple[int, object], str]]:
    """For the runner's (system, index) jobs: the statistics already cached, and the cache key
    of every job (to store the others once computed)."""
    if store is None:
        return {}, {}
    keys = {job: stats_key(spec_of(job[1]), system_digests[job[0]], reference_digests)
            for job in jobs}
    hits = {}
    for job, key in keys.items():
        found = store.load(key)
        if found is not None:
            hits[job] = found
    store.hits += len(hits)
    store.misses += len(keys) - len(hits)
    return hits, keys
