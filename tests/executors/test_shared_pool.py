"""Inside a run, the ``processes`` executor serves several maps at once from one pool: results
in item order for each map, wherever and whenever its items ran; a lost worker fails the map
it was computing (naming the item) and every other map; cancel and close end everything; a
significance run on it gives the serial run's record. Every wait is bounded by an alarm."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from evalfw.executors._shared_pool import PoolBroken
from evalfw.executors.base import ExecutorError, WorkerLost
from evalfw.executors.local import Processes
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.runs import random_word_files

BOUND = 30
BOUND_SECONDS = BOUND  # time_bound: an in-process map that hangs fails the test


def _scaled(context: tuple[int, float], item: int) -> tuple[int, int]:
    factor, pause = context
    time.sleep(pause * (item % 3))  # items finish out of order
    return os.getpid(), factor * item


def _dies_at(context: int, item: int) -> int:
    if item == context:
        os._exit(5)
    time.sleep(0.02)
    return item


def test_maps_side_by_side_from_threads_come_back_in_order() -> None:
    with Processes(workers=2) as executor:
        assert executor.streams
        out: dict[int, list[tuple[int, int]]] = {}
        seen: dict[int, list[int]] = {f: [] for f in range(1, 5)}

        def one(factor: int) -> None:
            out[factor] = list(executor.map(_scaled, list(range(12)), (factor, 0.005),
                                            seen[factor].append))

        threads = [threading.Thread(target=one, args=(f,)) for f in range(1, 5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(BOUND)
        for factor, results in out.items():
            assert [v for _, v in results] == [factor * i for i in range(12)]
            assert sorted(seen[factor]) == list(range(12))
        pids = {p for results in out.values() for p, _ in results}
        assert len(pids) <= 2 and os.getpid() not in pids  # one pool for every map
    assert not executor.streams  # outside a run: the plain pool, forked per map


def test_a_lost_worker_fails_its_map_naming_the_item_and_the_others_too() -> None:
    with Processes(workers=2) as executor:
        dying = executor.map(_dies_at, list(range(10)), 3)  # first: items run in map order
        slow = executor.map(_scaled, list(range(400)), (1, 0.01))
        with pytest.raises(WorkerLost) as lost:
            list(dying)
        assert lost.value.index == 3 and "exited with status 5" in str(lost.value)
        with pytest.raises(PoolBroken):
            list(slow)
        with pytest.raises(ExecutorError):  # a broken pool takes no new map
            executor.map(_scaled, [1, 2], (1, 0.0))


def test_cancel_fails_every_unfinished_map_at_once_and_close_stops_the_workers() -> None:
    with Processes(workers=2) as executor:
        results = executor.map(_scaled, list(range(1000)), (1, 0.05))
        pid, _ = next(results)
        started = time.monotonic()
        executor.cancel()
        with pytest.raises(ExecutorError, match="cancelled"):
            list(results)
        assert time.monotonic() - started < 5
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"worker {pid} still runs after close")


def test_an_abandoned_map_leaves_the_pool_serving_the_next() -> None:
    with Processes(workers=2) as executor:
        first = executor.map(_scaled, list(range(200)), (1, 0.01))
        next(first)
        first.close()
        assert [v for _, v in executor.map(_scaled, list(range(6)), (2, 0.0))] == \
            [2 * i for i in range(6)]


def test_maps_that_do_not_pickle_side_by_side_each_get_a_forked_pool() -> None:
    import multiprocessing

    with Processes(workers=2) as executor:
        out: dict[int, list[int]] = {}

        def one(factor: int) -> None:
            out[factor] = list(executor.map(lambda ctx, item: ctx * item, range(8), factor))

        threads = [threading.Thread(target=one, args=(f,)) for f in (1, 2, 3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(BOUND)
        assert out == {f: [f * i for i in range(8)] for f in (1, 2, 3)}
    deadline = time.monotonic() + BOUND
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()  # every pool stopped, kept or not


CONFIG = """\
schema_version: 1
experiment: pool
output_dir: runs
seed: 3
test_sets:
  - {{name: a, langs: de-en, references: [{ref}], systems: {{s0: {s0}, s1: {s1}, s2: {s2}}}}}
  - {{name: b, langs: de-en, references: [{ref}], systems: {{s0: {s2}, s1: {s0}, s2: {s1}}}}}
metrics: [{{name: bleu}}, {{name: chrf, metric: chrf}}]
significance: {{baseline: s0, method: both, samples: 300, ar_trials: 640,
                sentence_export: [csv]}}
"""


def test_a_significance_run_on_the_pool_gives_the_serial_record(tmp_path: Path) -> None:
    import warnings

    from evalfw.host.host import PluginHost
    from evalfw.runner.run import run_experiment

    files = random_word_files(tmp_path, seed=4, lines=150)
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG.format(**files), "utf-8")
    host = PluginHost.create(autoload=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = run_experiment(config, store=False, cache=False,
                                executor=host.component("executor", "serial"))
        pooled = run_experiment(config, store=False, cache=False,
                                executor=host.component("executor", "processes",
                                                        {"workers": 2}))
    for key in ("results", "significance", "specs", "segments"):
        assert pooled.record[key] == serial.record[key], key
    assert pooled.record["executor"]["name"] == "processes"
