"""The ``processes`` executor never waits for a dead worker and never leaves one behind.

A worker that calls ``os._exit``, kills itself or is killed with SIGKILL fails the map at once,
naming the item (and, through ``evalfw run --jobs N``, the test set, system and metric, or
the significance table), exit 2, nothing stored. SIGTERM, SIGHUP and SIGINT to ``evalfw run``
stop every worker, store nothing and exit 128 + the signal's number; SIGKILL to evalfw leaves
no worker computing for more than a moment. Every test is bounded: in-process maps by an
alarm, command lines by subprocess timeouts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalfw.executors.base import WorkerLost
from evalfw.executors.local import PARENT_CHECK, Processes
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.cli import REPO, SUPPORT, write

#: a bound for anything here that should take a second (the machine may be busy)
BOUND = 30
BOUND_SECONDS = BOUND  # time_bound: an in-process map that hangs fails the test


def _ends(context: str, item: int) -> int:
    if item == 5:
        if context == "exit":
            os._exit(3)
        if context == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if context == "abort":
            import faulthandler

            faulthandler.disable()  # pytest's, inherited through the fork: no thread dump
            os.abort()
    time.sleep(0.01)
    return item * 2


@pytest.mark.parametrize("how, said", [("exit", "exited with status 3"),
                                       ("kill", "was killed by SIGKILL"),
                                       ("abort", "was killed by SIGABRT")])
def test_a_worker_that_ends_fails_the_map_naming_its_item(how, said) -> None:
    results = Processes(workers=3).map(_ends, list(range(10)), how)
    got = []
    with pytest.raises(WorkerLost) as caught:
        for value in results:
            got.append(value)
    assert caught.value.index == 5 and said in str(caught.value)
    assert "while computing job 6; nothing was stored" in str(caught.value)
    assert got == [0, 2, 4, 6, 8][:len(got)]  # in order, as far as they came before it
    assert caught.value.naming("system 'b'").args[0].count("system 'b'") == 1


def _sleeps(pids: str, item: int) -> int:
    (Path(pids) / str(os.getpid())).write_text("", "utf-8")
    time.sleep(60)
    return item


def _wait_for(path: Path, count: int) -> list[int]:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        found = [int(p.name) for p in path.iterdir()]
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{count} worker(s) did not start within {BOUND} s")


def _gone(pid: int, within: float = BOUND) -> bool:
    """Whether process ``pid`` ended (a zombie counts as ended) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_a_worker_killed_from_outside_fails_the_map_at_once(tmp_path: Path) -> None:
    results = Processes(workers=2).map(_sleeps, [0, 1, 2], str(tmp_path))
    # the map starts when first asked for a result: ask from a thread of the alarm's bound
    import threading

    caught: list[BaseException] = []

    def consume() -> None:
        try:
            list(results)
        except BaseException as exc:
            caught.append(exc)

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    victim, other = sorted(_wait_for(tmp_path, 2))
    started = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    thread.join(BOUND)
    assert not thread.is_alive() and time.monotonic() - started < BOUND
    assert isinstance(caught[0], WorkerLost)
    assert f"worker process {victim} was killed by SIGKILL" in str(caught[0])
    assert _gone(other)  # the pool stopped the other worker too


def test_an_abandoned_map_stops_its_workers(tmp_path: Path) -> None:
    results = Processes(workers=2).map(_ends, list(range(40)), "none")
    assert next(results) == 0
    import multiprocessing

    children = multiprocessing.active_children()
    assert children
    results.close()
    assert all(_gone(c.pid) for c in children)


# ---------------------------------------------------------------- through `evalfw run`

CONFIG = """\
schema_version: 1
experiment: ends
output_dir: runs
plugin_dirs: [{plugins}]
test_sets:
  - name: t
    langs: de-en
    source: ref.txt
    references: [ref.txt]
    systems: {{a: a.txt, b: b.txt, c: c.txt}}
metrics:
  - name: bleu
  - {{name: boom, metric: ending, action: {action}, stage: {stage}}}
{extra}"""


def _project(tmp_path: Path, action: str, stage: str = "statistics", extra: str = "") -> Path:
    write(tmp_path / "ref.txt", ["the cat sat", "on the mat", "TRIGGER"])
    write(tmp_path / "a.txt", ["the cat sat", "on a mat", "x"])
    write(tmp_path / "b.txt", ["a cat", "on the mat", "TRIGGER"])
    write(tmp_path / "c.txt", ["a dog", "on the mat", "y"])
    (tmp_path / "c.yaml").write_text(CONFIG.format(
        plugins=SUPPORT / "worker_plugins", action=action, stage=stage, extra=extra), "utf-8")
    (tmp_path / "pids").mkdir()
    return tmp_path / "c.yaml"


def _evalfw(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "EVALFW_TEST_PIDS": str(tmp_path / "pids"), "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "evalfw", "run", "c.yaml", "--jobs", "2",
                             "--no-cache", "--quiet", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("action, said", [("exit", "exited with status 7"),
                                          ("kill", "was killed by SIGKILL")])
def test_run_names_the_job_whose_worker_died(tmp_path: Path, action: str, said: str) -> None:
    _project(tmp_path, action)
    proc = _evalfw(tmp_path)
    out, err = proc.communicate(timeout=BOUND * 2)
    assert proc.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("evalfw: error: worker process "), err
    assert f"{said} while computing test set 't', system 'b', metric 'boom'; nothing was " \
           "stored" in err
    assert not (tmp_path / "runs" / "ends").exists()


@pytest.mark.slow
def test_run_names_the_significance_table_whose_worker_died(tmp_path: Path) -> None:
    _project(tmp_path, "exit", "resampling", "significance: {baseline: a, samples: 1000}\n")
    proc = _evalfw(tmp_path)
    out, err = proc.communicate(timeout=BOUND * 2)
    assert proc.returncode == 2, err
    assert err.count("\n") == 1, err
    assert "exited with status 7 while computing the significance table of test set 't', " \
           "metric 'boom', block " in err
    assert not (tmp_path / "runs" / "ends").exists()


@pytest.mark.slow
@pytest.mark.parametrize("signum, status, said", [
    (signal.SIGTERM, 143, "evalfw: terminated by SIGTERM"),
    (signal.SIGHUP, 129, "evalfw: terminated by SIGHUP"),
    (signal.SIGINT, 130, "evalfw: interrupted"),
])
def test_a_signal_stops_every_worker_and_stores_nothing(tmp_path: Path, signum: int,
                                                        status: int, said: str) -> None:
    _project(tmp_path, "sleep")
    (tmp_path / "b.txt").write_text("TRIGGER\n" * 3, "utf-8")
    (tmp_path / "a.txt").write_text("TRIGGER\n" * 3, "utf-8")
    proc = _evalfw(tmp_path)
    try:
        workers = _wait_for(tmp_path / "pids", 2)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=BOUND)
    finally:
        proc.kill()
    assert proc.returncode == status, err
    assert err.strip().splitlines()[-1] == said and "Traceback" not in err
    assert all(_gone(pid, 5) for pid in workers)
    assert not (tmp_path / "runs" / "ends").exists()


@pytest.mark.slow
def test_evalfw_killed_leaves_no_worker_computing(tmp_path: Path) -> None:
    _project(tmp_path, "sleep")
    (tmp_path / "a.txt").write_text("TRIGGER\n" * 3, "utf-8")
    proc = _evalfw(tmp_path)
    try:
        workers = _wait_for(tmp_path / "pids", 2)
        proc.kill()
        proc.communicate(timeout=BOUND)
    finally:
        proc.kill()
    assert all(_gone(pid, PARENT_CHECK + 5) for pid in workers)


def _pid_and(context: int, item: int) -> tuple[int, int]:
    return os.getpid(), context * item


def test_a_run_keeps_its_pool_between_maps_and_stops_it_at_close() -> None:
    with Processes(workers=2) as executor:
        first = list(executor.map(_pid_and, range(6), 2))
        second = list(executor.map(_pid_and, range(6), 3))  # context and task pickled
        assert [v for _, v in first] == [2 * i for i in range(6)]
        assert [v for _, v in second] == [3 * i for i in range(6)]
        pids = {p for p, _ in first}
        assert {p for p, _ in second} <= pids and os.getpid() not in pids
        # a task that does not pickle: a new pool, forked with it
        third = list(executor.map(lambda ctx, item: (os.getpid(), ctx + item), range(4), 10))
        assert [v for _, v in third] == [10, 11, 12, 13] and not {p for p, _ in third} & pids
        workers = {p for p, _ in third}
    for pid in pids | workers:  # stopped by close (or when the pool was replaced)
        deadline = time.monotonic() + BOUND
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes (its parent reaps it)
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
