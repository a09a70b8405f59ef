"""A run on an executor that streams starts a test set's significance tables as soon as its
statistics are in, while later test sets' statistics still compute; the record is the serial
run's all the same (serial, ``processes``, a Dask LocalCluster on 127.0.0.1), and a failure
while tables resample cancels them. Every wait is bounded."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from evalfw.errors import InputError
from evalfw.executors.base import Executor, ExecutorError
from evalfw.runner._jobs import statistics_job
from evalfw.runner._side_by_side import THREADS
from evalfw.runner.run import run_experiment
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import random_word_files

#: how long the second test set's statistics wait for a table of the first to resample
GATE_SECONDS = 5

CONFIG = """\
schema_version: 1
experiment: streaming
output_dir: runs
seed: 3
test_sets:
  - {{name: a, langs: de-en, references: [{ref}], systems: {{s0: {s0}, s1: {s1}, s2: {s2}}}}}
  - {{name: b, langs: de-en, references: [{ref}], systems: {{s0: {s2}, s1: {s0}, s2: {s1}}}}}
metrics: [{{name: bleu}}, {{name: chrf, metric: chrf}}]
significance: {{baseline: s0, method: both, samples: 200, ar_trials: 320}}
"""

#: what must be equal between runs (the executor and times differ)
SAME = ("results", "significance", "specs", "segments", "test_sets", "inputs")


@pytest.fixture
def config(tmp_path: Path) -> Path:
    files = random_word_files(tmp_path, seed=5, lines=120)
    path = tmp_path / "c.yaml"
    path.write_text(CONFIG.format(**files), "utf-8")
    return path


class Recording(Executor):
    """A streaming executor in this process's threads that records when maps are submitted
    and when statistics finish. Test set ``b``'s statistics wait (at most
    :data:`GATE_SECONDS`) until a map of resampling blocks has been submitted."""

    name = "recording"
    description = "threads here, recording the order of events (a test's executor)"
    streams = True  # type: ignore[assignment]
    parallelism = 2

    def __init__(self) -> None:
        super().__init__()
        self.events: list[str] = []
        self.lock = threading.Lock()
        self.resampling = threading.Event()
        self.threads = ThreadPoolExecutor(4, thread_name_prefix="recording")

    def note(self, event: str) -> None:
        with self.lock:
            self.events.append(event)

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]:
        statistics = task is statistics_job
        where = context.contexts[0].test_set if statistics else ""
        if not statistics:
            self.note(f"resampling submitted ({task.__name__})")
            self.resampling.set()
        futures = [self.threads.submit(self._run, task, context, item, where)
                   for item in items]

        def results() -> Iterator[Any]:
            for i, future in enumerate(futures):
                value = future.result(timeout=30)
                if done is not None:
                    done(i)
                if statistics and i == len(futures) - 1:
                    self.note(f"statistics of {where} finished")
                yield value

        return results()

    def _run(self, task: Callable[[Any, Any], Any], context: Any, item: Any, where: str) -> Any:
        if where == "b":  # the slow test set: its statistics end after a table resampled
            self.resampling.wait(GATE_SECONDS)
        return task(context, item)

    def close(self) -> None:
        self.threads.shutdown(wait=True, cancel_futures=True)


def _run(config: Path, executor: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # too few resamples for alpha: on purpose
        return run_experiment(config, store=False, cache=False, executor=executor).record


def test_a_tables_resampling_starts_before_another_test_sets_statistics_finish(
        config: Path) -> None:
    from evalfw.host.host import PluginHost

    recording = Recording()
    record = _run(config, recording)
    events = recording.events
    first = next(i for i, e in enumerate(events) if e.startswith("resampling submitted"))
    assert "statistics of a finished" in events[:first]
    assert events.index("statistics of b finished") > first, events
    serial = _run(config, PluginHost.create(autoload=False).component("executor", "serial"))
    for key in SAME:
        assert record[key] == serial[key], key


def test_the_record_is_the_serial_runs_on_a_pool_and_on_a_local_dask_cluster(
        config: Path) -> None:
    from evalfw.host.host import PluginHost

    host = PluginHost.create(autoload=False)
    serial = _run(config, host.component("executor", "serial"))
    pooled = _run(config, host.component("executor", "processes", {"workers": 2}))
    for key in SAME:
        assert pooled[key] == serial[key], key
    assert len(serial["significance"]["tables"]) == 4
    pytest.importorskip("distributed", reason="Dask is not installed: pip install "
                                              "'evalfw[dask]'")
    dask = _run(config, host.component("executor", "dask", {"workers": 2}))
    assert dask["executor"]["name"] == "dask" and dask["executor"]["address"] == "local"
    for key in SAME:
        assert dask[key] == serial[key], key


class Failing(Recording):
    """:class:`Recording` whose test set ``b`` fails to score once a table of ``a`` has
    submitted its blocks, which run until the run cancels them."""

    def __init__(self) -> None:
        super().__init__()
        self.cancelled = threading.Event()

    def _run(self, task: Callable[[Any, Any], Any], context: Any, item: Any, where: str) -> Any:
        if task is not statistics_job:
            if self.cancelled.wait(4 * GATE_SECONDS):
                raise ExecutorError("cancelled: the run stopped; nothing was stored")
            return task(context, item)
        if where == "b":
            self.resampling.wait(GATE_SECONDS)
            raise InputError("test set 'b' cannot be scored")
        return task(context, item)

    def cancel(self) -> None:
        self.note("cancelled")
        self.cancelled.set()


def test_a_failure_while_tables_resample_cancels_them_and_fails_the_run(config: Path) -> None:
    failing = Failing()
    before = {t for t in threading.enumerate() if t.name.startswith(THREADS)}
    started = time.monotonic()
    with pytest.raises(InputError, match="test set 'b' cannot be scored"):
        _run(config, failing)
    assert time.monotonic() - started < 3 * GATE_SECONDS  # the blocks did not run out
    events = failing.events
    assert any(e.startswith("resampling submitted") for e in events)
    assert "cancelled" in events and "statistics of b finished" not in events
    left = {t for t in threading.enumerate() if t.name.startswith(THREADS)} - before
    assert not [t for t in left if t.is_alive()]


def test_progress_shows_the_tables_work_in_its_own_stage_after_the_statistics(
        config: Path) -> None:
    calls: list[tuple[int, int, str]] = []
    recording = Recording()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcome = run_experiment(config, store=False, cache=False, executor=recording,
                                 progress=lambda d, t, label: calls.append((d, t, label)))
    assert outcome.record["significance"]["tables"]
    stage = [i for i, (_, _, label) in enumerate(calls) if "/" in label]  # "a/bleu ar"
    statistics = [i for i, (_, _, label) in enumerate(calls) if label in ("a", "b")]
    assert statistics and stage and max(statistics) < min(stage)  # one bar, then the other
    done = [calls[i][0] for i in stage]
    assert done == sorted(done) and done[-1] == calls[stage[-1]][1]
