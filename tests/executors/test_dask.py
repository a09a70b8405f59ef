"""The dask executor changes no number: a run on a real cluster (a ``dask scheduler`` and two
``dask worker`` processes on 127.0.0.1) and on a LocalCluster equals the serial run in every
score, statistic, p-value and interval (BLEU variants and chrF; paired bootstrap, AR and
intervals); a worker killed mid-run leaves identical results or a one-line failure with
nothing stored; an unreachable scheduler is a one-line error, exit 2; an abandoned or
cancelled map leaves no task on the cluster. Four systems of WMT22 de-en keep it fast.

Skipped without Dask (``pip install 'evalfw[dask]'``) or without the WMT22 data.
"""

from __future__ import annotations

import operator
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install "
                                                       "'evalfw[dask]'")

from evalfw.cli.main import main  # noqa: E402
from evalfw.errors import EvalfwError  # noqa: E402
from evalfw.records.load import load_segments, open_run  # noqa: E402
from evalfw.runner.run import run_experiment  # noqa: E402
from tests.support.dask_processes import (  # noqa: E402
    HANG_TIMEOUT,
    RUN_TIMEOUT,
    same_numbers,
    scheduler,
    stop,
    worker,
    workers_of,
)
from tests.support.servers import free_port  # noqa: E402
from tests.support.shared_data import need_wmt22  # noqa: E402

CONFIG = """\
schema_version: 1
experiment: dask
output_dir: runs
seed: 11
test_sets:
  - name: de-en
    langs: de-en
    source: {root}/de-en/src.txt
    references: {root}/de-en/ref.*.txt
    systems:
      Online-A: {root}/de-en/sys/Online-A.txt
      Online-B: {root}/de-en/sys/Online-B.txt
      PROMT: {root}/de-en/sys/PROMT.txt
      LT22: {root}/de-en/sys/LT22.txt
metrics:
  - name: bleu
  - name: bleu-floor
    smoothing: floor
  - name: bleu-intl
    tokenizer: intl
  - name: chrf
    metric: chrf
significance:
  baseline: Online-A
  method: both
  samples: 300
  ar_trials: 256
"""

@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    import faulthandler

    faulthandler.dump_traceback_later(HANG_TIMEOUT, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _wait_for_workers(address: str, n: int) -> None:
    workers_of(address, n)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two single-thread workers on 127.0.0.1, stopped after the module."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [scheduler(port)]
    try:
        procs += [worker(address), worker(address)]
        _wait_for_workers(address, 2)
        yield address, procs
    finally:  # the workers first: they leave while their scheduler still answers
        stop(procs[1:])
        stop(procs[:1])


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = need_wmt22()
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "dask.yaml"
    path.write_text(CONFIG.format(root=root), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def serial_record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The serial run every cluster run is compared with (scores, tests, segments)."""
    root = need_wmt22()
    path = tmp_path_factory.mktemp("serial") / "dask.yaml"
    path.write_text(CONFIG.format(root=root), encoding="utf-8")
    outcome = run_experiment(path, store=False, cache=False, jobs=1)
    return {**outcome.record, "arrays": dict(outcome.evaluation.arrays)}


def test_cluster_run_equals_serial_and_verifies_locally(cluster, config, serial_record,
                                                        capsys) -> None:
    address, _ = cluster
    assert main(["run", str(config), "--scheduler", address, "--quiet", "--no-cache"]) == 0
    stored = open_run("dask", Path("runs"))
    record = stored.record
    assert record["executor"] == {"name": "dask", "address": address, "shared_fs": False,
                                  "workers": 2, "threads": 2}
    same_numbers(record, load_segments(stored.path, record), serial_record)
    capsys.readouterr()
    # no cluster involved: verify runs here, reading the data it is told to trust
    assert main(["verify", "dask", "--data-root", str(need_wmt22())]) == 0
    assert "all" in capsys.readouterr().out


def test_config_executor_with_shared_fs_equals_serial(cluster, config, serial_record) -> None:
    address, _ = cluster
    text = config.read_text(encoding="utf-8")
    config.write_text(text + f"executor: {{name: dask, address: '{address}', shared_fs: true}}\n",
                      encoding="utf-8")
    assert main(["run", str(config), "--quiet", "--no-cache"]) == 0
    stored = open_run("dask", Path("runs"))
    assert stored.record["executor"]["shared_fs"] is True
    assert "executor" not in stored.record["config"].get("resolved", {})
    same_numbers(stored.record, load_segments(stored.path, stored.record), serial_record)
    # the config names a cluster; verify still re-runs here, serially
    assert main(["verify", "dask", "--data-root", str(need_wmt22())]) == 0


def test_local_cluster_with_shards_equals_serial_and_counts_tasks(config, serial_record) -> None:
    from evalfw.executors.dask_cluster import DaskExecutor

    # 800-segment shards: each de-en job is split in three and its rows concatenated
    executor = DaskExecutor(workers=2, shard_segments=800)
    ticks: list[tuple[int, int, str]] = []
    outcome = run_experiment(config, store=False, cache=False, executor=executor,
                             progress=lambda done, total, label: ticks.append((done, total, label)))
    assert outcome.record["executor"]["workers"] == 2
    same_numbers(outcome.record, outcome.evaluation.arrays, serial_record)
    scoring = [t for t in ticks if t[2] == "de-en"]  # one tick per cell, shards all done
    cells = len(outcome.evaluation.cells)
    assert [d for d, _, _ in scoring] == list(range(1, cells + 1)) and scoring[-1][1] == cells
    # the significance tables run side by side and count against one total for the stage
    tables = [t for t in ticks if t[2].startswith("de-en/")]
    assert any(label.startswith("de-en/chrf") for _, _, label in tables)
    assert len({total for _, total, _ in tables}) == 1 and tables[-1][0] == tables[-1][1]


def test_local_cluster_workers_keep_the_allocator_defaults() -> None:
    import os

    from evalfw.executors.dask_cluster import DaskExecutor

    # Dask's MALLOC_TRIM_THRESHOLD_=65536 would make every array over 128 KB a fresh mapping
    # (and Dask would also set it in this process)
    before = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    with DaskExecutor(workers=1) as executor:
        found = executor._client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_")
    assert list(found.values()) == [before]
    assert os.environ.get("MALLOC_TRIM_THRESHOLD_") == before


def test_an_abandoned_or_cancelled_map_leaves_no_task(cluster) -> None:
    from evalfw.executors.dask_cluster import ClusterError, DaskExecutor

    address, _ = cluster
    with DaskExecutor(address=address) as executor:
        # task(context, item) = time.sleep(item): importable on the workers as it is
        results = executor.map(operator.call, [0.3] * 30, time.sleep)
        next(results)
        results.close()  # what Ctrl-C does to the consuming loop
        _until_idle(executor)
        results = executor.map(operator.call, [0.3] * 30, time.sleep)
        executor.cancel()  # what Ctrl-C does to the other tables' threads
        with pytest.raises(ClusterError, match="cancelled"):
            list(results)
        _until_idle(executor)


def _until_idle(executor) -> None:
    deadline = time.monotonic() + 10
    count = -1
    while time.monotonic() < deadline:
        count = executor._client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        if count == 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"{count} task(s) still on the scheduler")


def test_a_worker_killed_mid_run_gives_the_same_numbers_or_one_line(cluster, config,
                                                                    serial_record) -> None:
    from evalfw.executors.dask_cluster import DaskExecutor

    address, _ = cluster
    extra = worker(address)
    try:
        _wait_for_workers(address, 3)
        killed = []

        def progress(done: int, total: int, label: str) -> None:
            if not killed:  # the first finished job: the other jobs are queued or running
                os.kill(extra.pid, signal.SIGKILL)
                killed.append(done)

        started = time.monotonic()
        try:
            outcome = run_experiment(config, cache=False, progress=progress,
                                     executor=DaskExecutor(address=address))
        except EvalfwError as exc:
            assert "\n" not in str(exc) and "nothing was stored" in str(exc)
            assert not (config.parent / "runs" / "dask").exists()
        else:
            same_numbers(outcome.record, outcome.evaluation.arrays, serial_record)
            assert outcome.path is not None
        assert killed and time.monotonic() - started < RUN_TIMEOUT
    finally:
        stop([extra])


def _without_stage_lines(err: str) -> str:
    """stderr without the progress lines of finished stages (``evalfw: [1/4] config ...``)."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not re.match(r"evalfw: \[\d+/\d+\] ", line))


def test_unreachable_scheduler_is_one_line_and_exit_2(config, capsys) -> None:
    started = time.monotonic()
    status = main(["run", str(config), "--scheduler", f"tcp://127.0.0.1:{free_port()}"])
    err = _without_stage_lines(capsys.readouterr().err)
    assert status == 2
    assert err.startswith("evalfw: error: cannot use the Dask scheduler at tcp://127.0.0.1:")
    assert ": connection refused; " in err
    assert err.count("\n") == 1
    assert time.monotonic() - started < 15
    assert not (config.parent / "runs").exists()


def test_without_dask_the_error_names_the_extra(config, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    assert main(["run", str(config), "--executor", "dask"]) == 2
    err = _without_stage_lines(capsys.readouterr().err)
    assert err == ("evalfw: error: executor 'dask' needs Dask, which is not installed; install "
                   "it with: pip install 'evalfw[dask]'\n")
