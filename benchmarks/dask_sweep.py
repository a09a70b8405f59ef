"""A WMT22 sweep on a 2-worker Dask LocalCluster against the serial executor, and the Dask
path's per-task overhead.

    python benchmarks/dask_sweep.py                  # best of 1
    python benchmarks/dask_sweep.py --repeat 3       # best of 3 (the machine is noisy)
    python benchmarks/dask_sweep.py --data DIR --workers 2 --json out.json

The sweep: every WMT22 system of the four pairs x 3 BLEU variants (sacreBLEU's default, floor
smoothing, the intl tokenizer) x a paired bootstrap with 1000 samples against a baseline
present in every pair. It runs serially and on the cluster (wall time of ``run_experiment``;
the cluster is started before the clock and its start is reported separately) and checks the
two records' numbers are identical. The overhead is the wall time per task of ``map`` over
no-op tasks on the same cluster (handing over the shared work included), minus nothing: it is
what a task costs beyond its own work. CPU seconds (this process, plus the workers' on the cluster) are reported
too: on a shared machine they depend much less on the other jobs than wall time. An untimed
run counts the pickled bytes each task and map moves (``--shared-fs``: as workers that read
the files themselves). Needs ``pip install 'evalfw[dask]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data" / "wmt22"
PAIRS = {"de-en": "13a", "en-de": "13a", "en-zh": "zh", "en-ja": "char"}
BASELINE = "Online-A"  # a system of every pair

CONFIG = """\
schema_version: 1
experiment: sweep
output_dir: runs
seed: 1
test_sets:
{test_sets}
metrics:
  - name: bleu
  - name: bleu-floor
    smoothing: floor
  - name: bleu-intl
    tokenizer: intl
significance:
  baseline: {baseline}
  method: bootstrap
  samples: 1000
"""

TEST_SET = """\
  - name: {pair}
    langs: {pair}
    references: "{root}/{pair}/ref.*.txt"
    systems: {{"*": "{root}/{pair}/sys/*.txt"}}
    tokenizer: {tok}
"""


def _noop(context: Any, item: int) -> int:
    return item


def _measured(base: type) -> type:
    """``base`` (the Dask executor) also counting the pickled bytes each map moves: the
    context once per worker, each item to a worker and each result back, by task name."""

    class Measured(base):  # type: ignore[misc, valid-type]
        moved: dict[str, dict[str, int]] = {}

        def map(self, task: Any, items: Any, context: Any, done: Any = None) -> Any:
            row = self.moved.setdefault(task.__name__, {"tasks": 0, "context": 0, "items": 0,
                                                        "results": 0, "maps": 0})
            row["maps"] += 1
            row["tasks"] += len(items)
            row["context"] += len(pickle.dumps(context)) * self.parallelism
            row["items"] += sum(len(pickle.dumps(item)) for item in items)
            for result in super().map(task, items, context, done):
                row["results"] += len(pickle.dumps(result))
                yield result

    return Measured


def _per_task(moved: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    return {name: {"tasks": r["tasks"], "maps": r["maps"],
                   "item_and_result_bytes": (r["items"] + r["results"]) / r["tasks"],
                   "context_bytes_per_task": r["context"] / r["tasks"],
                   "context_bytes_per_map_and_worker": r["context"] / r["maps"] / 2}
            for name, r in moved.items()}


def _numbers(outcome: Any) -> tuple[Any, ...]:
    record = outcome.record
    arrays = {k: v.tobytes() for k, v in outcome.evaluation.arrays.items()}
    return record["results"], record["significance"], arrays


def _timed(config: Path, executor: Any) -> tuple[float, Any]:
    from evalfw.runner.run import run_experiment

    started = time.perf_counter()
    outcome = run_experiment(config, store=False, cache=False, executor=executor)
    return time.perf_counter() - started, outcome


def _cpu(executor: Any = None) -> float:
    """CPU seconds of this process, plus the workers' when ``executor`` is a started cluster
    (wall time on a shared machine depends on its other jobs; CPU time much less)."""
    own = time.process_time()
    if executor is None:
        return own
    return own + sum(executor._client.run(time.process_time).values())


def main() -> int:
    from evalfw.executors.dask_cluster import DaskExecutor
    from evalfw.executors.local import Serial

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--tasks", type=int, default=400, help="no-op tasks for the overhead")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--shared-fs", action="store_true",
                        help="count the bytes with shared_fs: true (workers read the files)")
    args = parser.parse_args()
    sets = "".join(TEST_SET.format(pair=p, tok=t, root=args.data) for p, t in PAIRS.items())
    work = Path(tempfile.mkdtemp(prefix="dask-sweep-"))
    config = work / "sweep.yaml"
    config.write_text(CONFIG.format(test_sets=sets, baseline=BASELINE), encoding="utf-8")
    os.chdir(work)

    serial, serial_cpu = [], []
    for _ in range(args.repeat):
        cpu = _cpu()
        seconds, reference = _timed(config, Serial())
        serial.append(seconds)
        serial_cpu.append(_cpu() - cpu)
    started = time.perf_counter()
    executor = DaskExecutor(workers=args.workers)
    executor.start()
    startup = time.perf_counter() - started
    try:
        cluster, cluster_cpu = [], []
        for _ in range(args.repeat):
            cpu = _cpu(executor)
            seconds, outcome = _timed(config, executor)  # started above: stays up
            cluster.append(seconds)
            cluster_cpu.append(_cpu(executor) - cpu)
        identical = _numbers(outcome) == _numbers(reference)
        started = time.perf_counter()
        assert list(executor.map(_noop, range(args.tasks), None)) == list(range(args.tasks))
        overhead = (time.perf_counter() - started) / args.tasks
    finally:
        executor.close()
    measured = _measured(DaskExecutor)(workers=args.workers, shared_fs=args.shared_fs)
    with measured:  # an untimed run: pickling to count bytes costs time
        _timed(config, measured)
    tables = len(PAIRS) * 3
    systems = sum(len(list((args.data / p / "sys").glob("*.txt"))) for p in PAIRS)
    out = {
        "systems": systems, "tables": tables, "workers": args.workers,
        "serial_s": min(serial), "cluster_s": min(cluster), "cluster_start_s": startup,
        "speedup": min(serial) / min(cluster),
        "speedup_with_start": min(serial) / (min(cluster) + startup),
        "serial_cpu_s": min(serial_cpu), "cluster_cpu_s": min(cluster_cpu),
        "overhead_ms_per_task": overhead * 1000, "identical": identical,
        "tasks": {k: v["tasks"] for k, v in measured.moved.items()},
    }
    for key, value in out.items():
        print(f"{key:>22}: {value:.3f}" if isinstance(value, float) else f"{key:>22}: {value}")
    moved = _per_task(measured.moved)
    print(f"bytes moved (pickled; shared_fs={args.shared_fs}):")
    for name, row in moved.items():
        print(f"  {name}: " + ", ".join(f"{k} {v:,.0f}" for k, v in row.items()))
    out["bytes"] = moved
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0 if identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
