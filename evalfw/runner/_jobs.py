"""The statistics jobs of one test set, as an executor runs them.

A job is ``(system, statistics key)``, or ``(system, key, start, stop)`` for a shard of the
segments ``start:stop`` of a large test set; what every job of a test set shares, read-only,
is one :class:`TestSetWork`. On a cluster that work is pickled once per worker: it carries
the texts (inputs read on the client, shipped by content), or with ``shared_fs`` only each
file's path and sha256, which the worker reads itself and checks. It never carries reference
preparations: a worker builds each once, on first use, and keeps it for every later job of
any run with the same references (:func:`prepared_references`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalfw.errors import InputError, PluginError
from evalfw.metrics._returns import Refused
from evalfw.metrics.base import SegmentContext
from evalfw.metrics.boundary import BoundaryError, place, refused

if TYPE_CHECKING:
    import numpy as np

    from evalfw.executors.base import Executor
    from evalfw.metrics.base import Metric

#: (absolute path, sha256) of an input file a worker may read itself
FileRef = tuple[str, str]


@dataclass
class TestSetWork:
    """What the statistics jobs of one test set share (see the module docstring)."""

    __test__ = False  # not a pytest test class despite the name

    systems: list[list[str]] | None
    metrics: dict[Hashable, Metric]
    prepared: dict[Hashable, Any]
    contexts: list[SegmentContext]
    references: list[list[str]] | None = field(default_factory=list)
    #: identifies ``references`` by content (the files' sha256)
    references_digest: str = ""
    #: the files behind ``systems`` and ``references``, for workers that see the same paths
    system_files: list[FileRef] = field(default_factory=list)
    reference_files: list[FileRef] = field(default_factory=list)
    #: pickle paths instead of texts (the workers read the files)
    shared_fs: bool = False
    #: unpickled in another process (a worker), which keeps preparations across tasks
    on_worker: bool = False

    def hypotheses(self, system: int) -> list[str]:
        if self.systems is None:
            self.systems = [read_shared(*f) for f in self.system_files]
        return self.systems[system]

    def reference_texts(self) -> list[list[str]]:
        if self.references is None:
            self.references = [read_shared(*f) for f in self.reference_files]
        return self.references

    def prepared_for(self, metric: Metric, rows: tuple[int, int] | None = None) -> Any:
        """``metric``'s preparation of the references (of segments ``rows`` only, a shard)."""
        key = metric.references_key()
        if rows is None and key in self.prepared:
            return self.prepared[key]
        refs = self.reference_texts()
        if rows is not None:
            refs = [r[rows[0]:rows[1]] for r in refs]
        if self.on_worker:  # kept for the worker's later tasks, of this run or the next
            found = prepared_references(metric, refs, (self.references_digest, key, rows))
        else:  # here: held by this work only, released with it
            found = metric.prepare_references(refs)
        if rows is None:
            self.prepared[key] = found
        return found

    def __getstate__(self) -> dict[str, Any]:
        state = {**self.__dict__, "prepared": {}, "on_worker": True}
        if self.shared_fs:  # the worker reads the files: ship their names only
            state.update(systems=None, references=None)
        return state


#: texts and reference preparations of this process (a cluster worker's), by content
_READ: dict[FileRef, list[str]] = {}
_PREPARED: dict[Hashable, Any] = {}
_KEEP = 8  # a few test sets' worth: a worker serving a long sweep stays bounded
_LOCK = threading.Lock()


def _remember(cache: dict[Any, Any], key: Any, make: Callable[[], Any], keep: int) -> Any:
    with _LOCK:  # threads of one worker wait for the one read or preparation
        if key not in cache:
            while len(cache) >= keep:
                cache.pop(next(iter(cache)))
            cache[key] = make()
        return cache[key]


def read_shared(path: str, sha256: str) -> list[str]:
    """The segments of ``path`` read here (a worker on a shared file system), once per
    process, checked to be the bytes the client read."""
    from evalfw.io.text import read_segments

    def read() -> list[str]:
        found = read_segments(path)
        if found.sha256 != sha256:
            raise InputError(
                f"a worker read {path} with sha256 {found.sha256[:12]}..., not the "
                f"{sha256[:12]}... the client read: the workers do not see the client's "
                "files; drop shared_fs: true (the client then ships the texts)")
        return found.lines

    lines: list[str] = _remember(_READ, (path, sha256), read, 4 * _KEEP)
    return lines


def prepared_references(metric: Metric, references: list[list[str]], key: Hashable) -> Any:
    """``metric.prepare_references(references)``, built once per process for each ``key``."""
    return _remember(_PREPARED, key, lambda: metric.prepare_references(references), _KEEP)


def statistics_job(work: TestSetWork, job: tuple[int, Hashable] | tuple[int, Hashable, int, int]
                   ) -> np.ndarray:
    """The statistics of one system under one statistics key (runs on an executor); a job
    ``(system, key, start, stop)`` computes the rows of segments ``start:stop`` only."""
    system, key = job[0], job[1]
    metric = work.metrics[key]
    hyps, context = work.hypotheses(system), work.contexts[system]
    where = place(context.test_set, context.system)
    if len(job) == 2:
        try:
            return metric.statistics_of(hyps, work.prepared_for(metric), context)
        except BoundaryError as exc:
            raise exc.located(where) from exc.__cause__
    start, stop = job[2], job[3]
    shard = SegmentContext(context.test_set, context.system, context.langs,
                           context.source[start:stop] if context.source else None,
                           {n: v[start:stop] for n, v in context.scores.items()})
    try:
        return metric.statistics_of(hyps[start:stop], work.prepared_for(metric, (start, stop)),
                                    shard)
    except BoundaryError as exc:  # its segment counted in the shard: in the test set
        raise exc.shifted(start).located(where) from exc.__cause__


def resources_of(metric: Metric) -> dict[str, float]:
    """``metric.resources``, checked: names and positive finite amounts (a plugin's value)."""
    found = getattr(metric, "resources", None) or {}
    ok = isinstance(found, Mapping) and all(
        isinstance(k, str) and k and isinstance(v, (int, float)) and not isinstance(v, bool)
        and 0 < v < math.inf for k, v in found.items())
    if not ok:
        raise PluginError(f"metric '{metric.name}' declares resources {found!r}; expected a "
                          "mapping of resource names to positive numbers, such as {'GPU': 1}")
    return {k: float(v) for k, v in sorted(found.items())}


#: statistics tasks per thread of a cluster: enough that a slow worker does not hold the last
#: one alone, few enough that the client's and workers' cost per task stays small
TASKS_PER_THREAD = 4

Batch = tuple[tuple[int, ...], Hashable]


def batch_job(work: TestSetWork, batch: Batch) -> list[np.ndarray]:
    """The statistics of several systems under one key, in one task (fewer, larger tasks on
    a cluster; a metric that needs worker resources loads its model once for all of them)."""
    systems, key = batch
    return [statistics_job(work, (s, key)) for s in systems]


def run_jobs(executor: Executor, jobs: list[tuple[int, Hashable]], work: TestSetWork,
             segments: int, done: Callable[[int], None] | None = None,
             name: Callable[[tuple[Any, ...]], str] = str) -> Iterator[np.ndarray]:
    """The statistics of each job, in order (submitted now, on an executor that submits
    eagerly). An executor with a ``shard_segments`` size splits a job over more segments into
    shards whose rows are concatenated (a row is one segment's: the same array). ``done(i)``
    as soon as job ``i`` finished (all its shards), in any order. A worker lost while
    computing a job fails naming it: ``name(job)``, and the segments of a shard. On a cluster,
    jobs of one statistics key run in batches of systems, about :data:`TASKS_PER_THREAD` tasks
    a thread; those of a metric that declares resources as one batch per key, on workers that
    have them (:meth:`~evalfw.executors.base.Executor.map_on`)."""
    placed = {key: resources_of(work.metrics[key]) for key in dict.fromkeys(k for _, k in jobs)}
    size = int(getattr(executor, "shard_segments", 0) or 0)
    sharded = bool(size) and segments > size  # shards are tasks of a useful size already
    per = max(1, math.ceil(len(jobs) / (max(1, executor.parallelism) * TASKS_PER_THREAD)))
    if not executor.remote or (not any(placed.values()) and (sharded or per == 1)):
        return _sharded(executor, jobs, work, segments, done, name)
    index = {job: i for i, job in enumerate(jobs)}
    systems: dict[Hashable, list[int]] = {}
    for system, key in jobs:
        systems.setdefault(key, []).append(system)
    ran: dict[tuple[tuple[str, float], ...], list[Batch]] = {}  # one map per set of resources
    for key, found in systems.items():
        if placed[key]:
            ran.setdefault(tuple(placed[key].items()), []).append((tuple(found), key))
        elif not sharded:
            ran.setdefault((), []).extend((tuple(found[i:i + per]), key)
                                          for i in range(0, len(found), per))
    batched_keys = {b[1] for group in ran.values() for b in group}
    plain = [job for job in jobs if job[1] not in batched_keys]

    def tick(jobs_done: list[tuple[int, Hashable]]) -> None:
        for job in jobs_done:
            if done is not None:
                done(index[job])

    def batch_name(batch: tuple[Any, ...]) -> str:
        return f"{name((batch[0][0], batch[1]))} and the other systems of its batch"

    def ticker(batches: list[Batch]) -> Callable[[int], None]:
        return lambda b: tick([(s, batches[b][1]) for s in batches[b][0]])

    batched = {group: _named(executor.map_on(dict(group), batch_job, items, work, ticker(items)),
                             items, batch_name)
               for group, items in ran.items()}
    rest = _sharded(executor, plain, work, segments,
                    lambda i: tick([plain[i]]), name) if plain else iter(())
    return _merged(jobs, {key: tuple(placed[key].items()) for key in batched_keys}, rest,
                   batched, ran)


def _merged(jobs: list[tuple[int, Hashable]], groups: dict[Hashable, Any],
            rest: Iterator[np.ndarray], batched: dict[Any, Iterator[list[np.ndarray]]],
            ran: dict[Any, list[Batch]]) -> Iterator[np.ndarray]:
    """The plain jobs' and the batches' results, in job order (``groups``: the resources of
    each batched key)."""
    got: dict[tuple[int, Hashable], np.ndarray] = {}
    pending = {group: list(items) for group, items in ran.items()}
    for job in jobs:
        if job[1] not in groups:
            yield next(rest)
            continue
        group = groups[job[1]]
        while job not in got:
            systems, key = pending[group].pop(0)
            got.update(zip([(s, key) for s in systems], next(batched[group])))
        yield got.pop(job)


def _sharded(executor: Executor, jobs: list[tuple[int, Hashable]], work: TestSetWork,
             segments: int, done: Callable[[int], None] | None,
             name: Callable[[tuple[Any, ...]], str]) -> Iterator[np.ndarray]:
    """The jobs on ``executor.map``, in shards of ``shard_segments`` where it has a size."""
    size = int(getattr(executor, "shard_segments", 0) or 0)
    if not size or segments <= size:
        return _named(executor.map(statistics_job, jobs, work, done), jobs, name)
    bounds = [(a, min(a + size, segments)) for a in range(0, segments, size)]
    shards = [(*job, a, b) for job in jobs for a, b in bounds]
    left = [len(bounds)] * len(jobs)

    def shard_done(i: int) -> None:
        left[i // len(bounds)] -= 1
        if done is not None and not left[i // len(bounds)]:
            done(i // len(bounds))

    def shard_name(shard: tuple[Any, ...]) -> str:
        return f"{name(shard[:2])}, segments {shard[2] + 1}-{shard[3]}"

    return _joined(_named(executor.map(statistics_job, shards, work, shard_done), shards,
                          shard_name), [work.metrics[job[1]] for job in jobs], len(bounds))


def _named(results: Iterator[Any], items: list[Any], name: Callable[[Any], str]
           ) -> Iterator[Any]:
    """``results``, with a lost worker's failure naming its item."""
    from evalfw.executors.base import WorkerLost

    try:
        yield from results
    except WorkerLost as exc:
        raise exc.naming(name(items[exc.index])) from exc


def _joined(results: Iterator[np.ndarray], metrics: list[Metric], shards: int
            ) -> Iterator[np.ndarray]:
    """Each job's shards as one array; shards whose rows differ in width or dtype are the
    metric's fault, refused naming it."""
    import numpy as np

    for metric in metrics:
        parts = [next(results) for _ in range(shards)]
        check_alike(metric, parts)
        yield np.concatenate(parts, axis=0)


def check_alike(metric: Metric, arrays: list[np.ndarray]) -> None:
    """Refuse statistics of one metric that differ in columns or dtype (between shards, or
    between systems: their rows are summed and compared)."""
    kinds = {(a.shape[1], a.dtype.name) for a in arrays}
    if len(kinds) > 1:
        found = ", ".join(f"{c} {d} columns" for c, d in sorted(kinds))
        raise refused(metric, "segment_statistics", Refused(
            f"rows of different widths or types for one test set ({found}); a metric's rows "
            "must be alike for every segment and system"))


__all__ = ["batch_job", "check_alike", "prepared_references", "read_shared", "resources_of",
           "run_jobs", "statistics_job", "TASKS_PER_THREAD", "TestSetWork"]
