"""Statistics jobs as a cluster worker runs them (no Dask needed): the work arrives pickled,
without reference preparations; a worker prepares each reference set once for all its tasks;
with shared_fs the work carries paths and sha256 only, and a worker that reads other bytes
fails with one line."""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evalfw.errors import InputError
from evalfw.metrics.base import SegmentContext
from evalfw.runner import _jobs

PREPARED: list[int] = []


class CountingMetric:
    """Statistics: per segment, the hypothesis' length and whether it equals a reference."""

    def references_key(self) -> Hashable:
        return "counting"

    def prepare_references(self, references: Sequence[Sequence[str]]) -> Any:
        PREPARED.append(len(references[0]))
        return [set(texts) for texts in zip(*references)]

    def statistics_of(self, hypotheses: Sequence[str], prepared: Any,
                      context: SegmentContext) -> np.ndarray:
        return np.array([[len(h), int(h in refs)] for h, refs in zip(hypotheses, prepared)])


def _work(tmp_path: Path, shared_fs: bool) -> _jobs.TestSetWork:
    systems = [["a b", "c"], ["a", "c d"], ["x", "y"]]
    refs = [["a b", "c d"]]
    files = []
    for i, lines in enumerate([*systems, *refs]):
        path = tmp_path / f"f{i}.txt"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        files.append((str(path), hashlib.sha256(path.read_bytes()).hexdigest()))
    contexts = [SegmentContext("t", f"s{i}") for i in range(len(systems))]
    return _jobs.TestSetWork(systems, {"k": CountingMetric()}, {}, contexts, refs,
                             f"digest-{tmp_path}", files[:3], files[3:], shared_fs)


@pytest.mark.parametrize("shared_fs", [False, True])
def test_a_worker_prepares_the_references_once_for_all_its_tasks(tmp_path, shared_fs,
                                                                  monkeypatch) -> None:
    work = _work(tmp_path, shared_fs)
    local = [_jobs.statistics_job(work, (s, "k")) for s in range(3)]
    shipped = pickle.dumps(work)
    assert (b"a b" in shipped) is not shared_fs  # texts, or only the files' names
    for cache in ("_PREPARED", "_READ"):  # a fresh worker process
        monkeypatch.setattr(_jobs, cache, {})
    PREPARED.clear()
    on_worker = [_jobs.statistics_job(pickle.loads(shipped), (s, "k")) for s in range(3)]
    on_worker += [_jobs.statistics_job(pickle.loads(shipped), (s, "k", 0, 1)) for s in range(3)]
    assert PREPARED == [2, 1]  # the whole set once, the shard once: not once per task
    assert all(np.array_equal(a, b) for a, b in zip(local, on_worker))
    assert np.array_equal(on_worker[3], local[0][:1])


def test_a_worker_that_reads_other_bytes_fails_with_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(_jobs, "_READ", {})
    shipped = pickle.dumps(_work(tmp_path, shared_fs=True))
    (tmp_path / "f0.txt").write_text("changed\nhere\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        _jobs.statistics_job(pickle.loads(shipped), (0, "k"))
    message = str(err.value)
    assert "\n" not in message and "f0.txt" in message and "drop shared_fs: true" in message
