"""The big sweep: serial, ``processes`` with 2 workers, Dask (a scheduler and 2 one-thread
workers in their own processes on 127.0.0.1, and a 2-worker LocalCluster), with the client's
own CPU seconds beside each wall time, and every record compared with the serial one.

    python benchmarks/big_sweep.py                          # the full sweep (minutes)
    python benchmarks/big_sweep.py --samples 1000 --ar-trials 10000 --pairs de-en en-de
    python benchmarks/big_sweep.py --only serial auto processes --json out.json

The sweep: the four WMT22 pairs, every system, the first reference; BLEU, chrF, chrF++
(``word_order: 2``) and TER; ``significance: {baseline: Online-A, method: both, samples:
10000, ar_trials: 100000}``, seed 1. Wall time is that of ``run_experiment`` (no cache, nothing
stored); a cluster is started before the clock (its start is printed apart). ``client_cpu_s``
is this process's CPU time during the run: with the external scheduler it is evalfw's own
part alone (with the LocalCluster it includes the scheduler, which runs in this process).
``uptime``'s load is printed first: on a shared machine wall times depend on it.
Needs ``pip install 'evalfw[dask]'`` for the Dask rows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("EVALFW_SHARED_DIR", HERE.parent.parent / "shared")) / "data" / "wmt22"
PAIRS = ("de-en", "en-de", "en-zh", "en-ja")
KINDS = ("serial", "auto", "processes", "dask", "local")

CONFIG = """\
schema_version: 1
experiment: big-sweep
seed: 1
output_dir: runs
test_sets:
{test_sets}
metrics: [{{name: bleu}}, {{name: chrf, metric: chrf}}, {{name: chrfpp, metric: chrf, word_order: 2}},
          {{name: ter, metric: ter}}]
significance: {{baseline: Online-A, method: both, samples: {samples}, ar_trials: {ar_trials}}}
"""

TEST_SET = """\
  - name: {pair}
    langs: {pair}
    references: ["{root}/{pair}/ref.A.txt"]
    systems: {{"*": "{root}/{pair}/sys/*.txt"}}
"""


def write_config(where: Path, data: Path, pairs: list[str], samples: int, ar_trials: int
                 ) -> Path:
    sets = "".join(TEST_SET.format(pair=p, root=data) for p in pairs)
    path = where / "big-sweep.yaml"
    path.write_text(CONFIG.format(test_sets=sets, samples=samples, ar_trials=ar_trials),
                    encoding="utf-8")
    return path


def numbers(outcome: Any) -> tuple[Any, ...]:
    record = outcome.record
    arrays = {k: v.tobytes() for k, v in outcome.evaluation.arrays.items()}
    return record["results"], record.get("significance"), record["specs"], arrays


def _others(executor: Any) -> float:
    """CPU seconds of the workers: reaped child processes (a pool), or a cluster's workers."""
    import resource

    client = getattr(executor, "_client", None)
    if client is not None:
        return float(sum(client.run(time.process_time).values()))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(config: Path, executor: Any) -> tuple[float, float, float, Any]:
    """(wall seconds, this process's CPU seconds, the workers', the outcome) of one run."""
    from evalfw.runner.run import run_experiment

    others, cpu, started = _others(executor), time.process_time(), time.perf_counter()
    outcome = run_experiment(config, store=False, cache=False, executor=executor)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return wall, cpu, _others(executor) - others, outcome


def _spawn(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def external_cluster(workers: int) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """A scheduler and ``workers`` one-thread workers, each its own process on 127.0.0.1."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    procs = [_spawn("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                    str(port), "--no-dashboard", "--idle-timeout", "600")]
    deadline = time.monotonic() + 60
    while True:  # the scheduler listens before the workers are started
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                stop(procs)
                raise SystemExit("the Dask scheduler did not start within 60 s") from None
            time.sleep(0.2)
    procs += [_spawn("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                     "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "60")
              for _ in range(workers)]
    return address, procs


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in reversed(procs):  # the workers first, then their scheduler
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()


def executor_of(kind: str, workers: int) -> tuple[Any, list[subprocess.Popen[bytes]]]:
    from evalfw.host.host import PluginHost

    host = PluginHost.create(autoload=False)
    if kind == "serial":
        return host.component("executor", "serial"), []
    if kind == "auto":
        return host.component("executor", "auto"), []
    if kind == "processes":
        return host.component("executor", "processes", {"workers": workers}), []
    if kind == "local":
        return host.component("executor", "dask", {"workers": workers}), []
    address, procs = external_cluster(workers)
    executor = host.component("executor", "dask", {"address": address, "worker_timeout": 60})
    executor.start()
    executor._client.wait_for_workers(workers, timeout=60)  # every worker, not just one
    return executor, procs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--pairs", nargs="+", default=list(PAIRS), choices=list(PAIRS))
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--ar-trials", type=int, default=100000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", nargs="+", default=["serial", "processes", "dask", "local"],
                        choices=KINDS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="big-sweep-"))
    config = write_config(work, args.data.resolve(), args.pairs, args.samples, args.ar_trials)
    os.chdir(work)
    print("load:", os.getloadavg(), flush=True)
    from evalfw.runner.run import run_experiment

    # untimed: imports and first-use set-up are not the sweep's
    with warnings.catch_warnings():  # too few resamples for significance: on purpose
        warnings.simplefilter("ignore")
        run_experiment(config, ["significance.samples=10", "significance.ar_trials=32"],
                       store=False, cache=False, jobs=1)
    rows: dict[str, dict[str, Any]] = {}
    reference = None
    for kind in args.only:
        started = time.perf_counter()
        executor, procs = executor_of(kind, args.workers)
        try:
            executor.start() if hasattr(executor, "start") else None
            start_s = time.perf_counter() - started
            # untimed, as above for the serial path: the executor's own first use (Dask's
            # serializers and comms imported on first message) is not the sweep's
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                run_experiment(config, ["significance.samples=10", "significance.ar_trials=32"],
                               store=False, cache=False, executor=executor)
            wall, cpu, workers_cpu, outcome = timed(config, executor)
        finally:
            executor.close()
            stop(procs)
        got = numbers(outcome)
        reference = reference or got
        rows[kind] = {"wall_s": wall, "client_cpu_s": cpu, "workers_cpu_s": workers_cpu,
                      "start_s": start_s,
                      "identical": got == reference,
                      "executor": outcome.record["executor"], "load": os.getloadavg()[0]}
        print(f"{kind:>10}: wall {wall:7.2f} s  client CPU {cpu:6.2f} s  workers CPU "
              f"{workers_cpu:6.2f} s  (start {start_s:.1f} s,"
              f" identical {got == reference}, load {os.getloadavg()[0]:.1f})", flush=True)
    base = rows.get("serial")
    if base:
        for kind, row in rows.items():
            row["speedup"] = base["wall_s"] / row["wall_s"]
            row["client_cpu_share"] = row["client_cpu_s"] / base["client_cpu_s"]
            print(f"{kind:>10}: x{row['speedup']:.2f} of serial; client CPU "
                  f"{100 * row['client_cpu_share']:.1f}% of serial's")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, default=str) + "\n", encoding="utf-8")
    return 0 if all(r["identical"] for r in rows.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
