"""A metric that declares Dask worker resources (``Metric.resources``) runs only on workers that
have them, all systems of a test set in one task; other metrics' tasks go anywhere; the record
states the resources and the numbers equal the serial run's. A scheduler and two single-thread
workers on 127.0.0.1, one started with ``--resources GPU=1``, one without; without such a
worker the run fails in one line within ``worker_timeout``.

Skipped without Dask (``pip install 'evalfw[dask]'``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install "
                                                       "'evalfw[dask]'")

from evalfw.errors import EvalfwError, PluginError  # noqa: E402
from evalfw.runner._jobs import resources_of  # noqa: E402
from evalfw.runner.run import run_experiment  # noqa: E402
from tests.support.dask_processes import (  # noqa: E402
    bounded,  # noqa: F401  (the fixture below)
    same_numbers,
    scheduler,
    stop,
    worker,
    workers_of,
)
from tests.support.runs import REPO  # noqa: E402
from tests.support.servers import free_port  # noqa: E402

SAMPLE = REPO / "configs" / "sample" / "en-de"
#: a hung cluster ends the test process (its workers end themselves) instead of stalling CI
pytestmark = pytest.mark.usefixtures("bounded")

#: chrF that needs a GPU, and chrF that does not; each logs where its statistics were computed
#: (process, Dask task, system) to the file named by $EVALFW_TEST_PLACES
PLUGIN = """\
import json, os

import evalfw
from evalfw.metrics.chrf.metric import Chrf


def _log(metric, context):
    from distributed import get_worker

    try:
        worker = get_worker()
    except ValueError:  # not on a worker: the serial run
        return
    with open(os.environ["EVALFW_TEST_PLACES"], "a") as f:
        f.write(json.dumps([metric.name, os.getpid(), worker.get_current_task(),
                            context.system, dict(worker.state.total_resources)]) + "\\n")


class GpuChrf(Chrf):
    name = "gpu-chrf"
    version = "1"
    resources = {"GPU": 1}
    wants_context = True

    def segment_statistics(self, hypotheses, references, context=None):
        _log(self, context)
        return super().segment_statistics(hypotheses, references)


class AnyChrf(GpuChrf):
    name = "any-chrf"
    resources = {}


@evalfw.hookimpl
def evalfw_register_metrics():
    return [GpuChrf, AnyChrf]
"""

CONFIG = f"""\
schema_version: 1
experiment: placed
output_dir: runs
plugin_dirs: [plugins]
test_sets:
  - name: t
    langs: en-de
    references: [{SAMPLE / 'ref.A.txt'}]
    systems:
      Weak: {SAMPLE / 'sys' / 'Weak.txt'}
      Strong: {SAMPLE / 'sys' / 'Strong.txt'}
      Weak2: {SAMPLE / 'sys' / 'Weak.txt'}
metrics:
  - {{name: gpu, metric: gpu-chrf}}
  - {{name: any, metric: any-chrf, word_order: 2}}
"""


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "placed.py").write_text(PLUGIN, "utf-8")
    (tmp_path / "c.yaml").write_text(CONFIG, "utf-8")
    log = tmp_path / "places.jsonl"
    monkeypatch.setenv("EVALFW_TEST_PLACES", str(log))  # the workers inherit it
    monkeypatch.chdir(tmp_path)
    return log


@pytest.fixture
def cluster(places: Path) -> Iterator[tuple[str, dict[str, int]]]:
    """A scheduler, a worker with GPU=1 and one without; the workers' pids by resource."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [scheduler(port)]
    try:
        env = {**os.environ}
        gpu = worker(address, extra=["--resources", "GPU=1"], env=env)
        plain = worker(address, env=env)
        procs += [gpu, plain]
        workers_of(address, 2)
        yield address, {"GPU": gpu.pid, "none": plain.pid}
    finally:
        stop(procs[1:])
        stop(procs[:1])


def _rows(log: Path) -> list[list]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_resource_metric_runs_batched_on_the_workers_that_have_them(cluster, places) -> None:
    from evalfw.executors.dask_cluster import DaskExecutor

    address, pids = cluster
    serial = run_experiment(Path("c.yaml"), store=False, cache=False, jobs=1)
    with DaskExecutor(address=address, worker_timeout=20) as executor:
        outcome = run_experiment(Path("c.yaml"), store=False, cache=False, executor=executor)
    same_numbers(outcome.record, outcome.evaluation.arrays,
                 {**serial.record, "arrays": serial.evaluation.arrays})
    specs = {s["metric"]: s for s in outcome.record["specs"]}
    assert specs["gpu"]["resources"] == {"GPU": 1.0} and "resources" not in specs["any"]
    rows = _rows(places)
    gpu = [r for r in rows if r[0] == "gpu-chrf"]
    assert sorted(r[3] for r in gpu) == ["Strong", "Weak", "Weak2"]
    assert {r[1] for r in gpu} == {pids["GPU"]} and all(r[4] == {"GPU": 1.0} for r in gpu)
    assert len({r[2] for r in gpu}) == 1  # one task: a batch of every system
    plain = [r for r in rows if r[0] == "any-chrf"]
    assert sorted(r[3] for r in plain) == ["Strong", "Weak", "Weak2"]
    assert len({r[2] for r in plain}) == 3 and {r[1] for r in plain} <= set(pids.values())


def test_without_a_worker_that_has_the_resources_the_run_fails_in_one_line(places) -> None:
    from evalfw.executors.dask_cluster import ClusterError, DaskExecutor

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [scheduler(port)]
    try:
        procs.append(worker(address, env={**os.environ}))
        workers_of(address, 1)
        with DaskExecutor(address=address, worker_timeout=1) as executor, \
                pytest.raises(ClusterError) as failed:
            run_experiment(Path("c.yaml"), store=False, cache=False, executor=executor)
    finally:
        stop(procs[1:])
        stop(procs[:1])
    message = str(failed.value)
    assert "GPU=1" in message and "--resources" in message and "\n" not in message
    assert not Path("runs").exists() or not any(Path("runs").rglob("record.json"))


@pytest.mark.parametrize("bad", [{"GPU": 0}, {"GPU": "1"}, {"": 1}, ["GPU"], {"GPU": True},
                                 {"GPU": float("nan")}])
def test_resources_a_plugin_declares_are_checked(bad) -> None:
    class Metric:
        name = "m"
        resources = bad

    with pytest.raises(PluginError, match="resources"):
        resources_of(Metric())  # type: ignore[arg-type]
    assert issubclass(PluginError, EvalfwError)


def test_a_local_executor_ignores_resources_and_records_them(places) -> None:
    outcome = run_experiment(Path("c.yaml"), store=False, cache=False, jobs=2)
    assert {s["metric"]: s.get("resources") for s in outcome.record["specs"]} == \
        {"gpu": {"GPU": 1.0}, "any": None}
