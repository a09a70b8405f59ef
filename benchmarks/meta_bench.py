"""CPU time of the meta-evaluation on the TED en-de MQM data (../shared/data/mqm/ted-en-de).

    python benchmarks/meta_bench.py                      # the target: 1000 resamples, 1000 trials
    python benchmarks/meta_bench.py --repeat 3           # best of 3 (the machine is noisy)
    python benchmarks/meta_bench.py --fallback 20        # also numpy alone (20 trials)

Measured, each a fresh process whose CPU seconds (user + system, its reaped children included)
and peak RSS come from ``os.wait4``:

1. ``evalfw run`` of BLEU, chrF, chrF++ and TER against the MQM judgements at system and
   segment level (grouped by item and ungrouped), with 1000 bootstrap resamples, 1000
   permutation trials per pair of metrics and tie calibration: the whole run, reading the MQM
   file and scoring the 13 systems included (serial executor: one core);
2. ``evalfw meta RUN --recompute`` on that stored run: the meta-evaluation alone (from the
   stored statistics); its output must equal the stored section;
3. with ``--fallback N``: the same with ``EVALFW_NATIVE=0`` (numpy, no compiled kernel) and
   N trials, and with 0 trials, which gives the fallback's cost per 1000 trials;
4. one tie calibration grouped by item (chrF, 41,262 pairs) by the literal algorithm of
   mt-metrics-eval's ``tau_optimization`` written in Python (tests/support/meta_oracles.py,
   exact fractions), against evalfw's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or HERE.parents[1] / "shared")
DATA = SHARED / "data"

CONFIG = """schema_version: 1
experiment: meta-bench
seed: 12345
data_root: {data}
output_dir: {out}
test_sets:
  - name: ted-en-de
    langs: en-de
    mqm: {{file: "{{data_root}}/mqm/ted-en-de/mqm_ted_ende.tsv", reference: ref}}
metrics:
  - name: bleu
  - {{name: chrf, metric: chrf}}
  - {{name: chrfpp, metric: chrf, word_order: 2}}
  - {{name: ter, metric: ter}}
meta_evaluation:
  human: mqm
  samples: {samples}
  permutations: {permutations}
reports: [json]
executor: serial
"""


def measure(argv: list[str], env: dict[str, str] | None = None,
            repeat: int = 1) -> tuple[float, float, float, bytes]:
    """Best (lowest CPU) of ``repeat`` runs: CPU seconds, wall seconds, peak RSS MB, output."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                env={**os.environ, **(env or {})})
        out = proc.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({os.waitstatus_to_exitcode(status)})")
        got = (usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, out)
        if best is None or got[0] < best[0]:
            best = got
    assert best is not None
    return best


def run(folder: Path, samples: int, permutations: int, env: dict[str, str] | None = None,
        repeat: int = 1) -> tuple[float, float, float, Path]:
    config = folder / f"meta-{samples}-{permutations}.yaml"
    out = folder / f"runs-{samples}-{permutations}-{len(env or {})}"
    config.write_text(CONFIG.format(data=DATA, out=out, samples=samples,
                                    permutations=permutations), encoding="utf-8")
    cpu, wall, rss, _ = measure([sys.executable, "-m", "evalfw", "run", str(config)], env, repeat)
    version = sorted((out / "meta-bench").iterdir())[-1]
    return cpu, wall, rss, version


def oracle_calibration() -> tuple[float, float]:
    """CPU seconds of one grouped tie calibration (chrF on TED): literal Python, evalfw."""
    import numpy as np

    sys.path.insert(0, str(HERE.parent))
    import evalfw
    from evalfw.analysis.meta import grouped
    from evalfw.io.judgements import read_mqm
    from tests.support.meta_oracles import tau_optimization

    mqm = read_mqm(DATA / "mqm" / "ted-en-de" / "mqm_ted_ende.tsv")
    ids = mqm.segment_ids
    systems = [s for s in mqm.systems if s != "ref"]
    refs = [mqm.targets["ref"][g] for g in ids]
    chrf = evalfw.metric("chrf")
    x = np.stack([chrf.sentence_scores(chrf.segment_statistics(
        [mqm.targets[s][g] for g in ids], [refs])) for s in systems])
    y = -np.array([[mqm.scores[s][g] for g in ids] for s in systems])
    start = time.process_time()
    tau_optimization(x.T.tolist(), y.T.tolist())
    literal = time.process_time() - start
    judged = np.ones_like(y, dtype=bool)
    start = time.process_time()
    pairs = grouped.Pairs.of(judged)
    grouped.calibrate(pairs, grouped.PairStatus.of(pairs, x.ravel(), y.ravel()))
    return literal, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--fallback", type=int, default=0, metavar="N",
                        help="also time numpy without the kernel with N trials (and 0)")
    args = parser.parse_args()
    if not (DATA / "mqm" / "ted-en-de").is_dir():
        raise SystemExit(f"the shared data is not at {DATA}; set EVALFW_SHARED_DIR")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; CPU s = user + sys")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cpu, wall, rss, version = run(folder, args.samples, args.permutations,
                                      repeat=args.repeat)
        print(f"evalfw run, 4 metrics, {args.samples} resamples, {args.permutations} trials: "
              f"{cpu:6.2f} CPU s {wall:6.2f} s wall {rss:5.0f} MB")
        cpu, wall, rss, out = measure([sys.executable, "-m", "evalfw", "meta", str(version),
                                       "--recompute", "--format", "json"], repeat=args.repeat)
        stored = json.loads((version / "record.json").read_text())["meta_evaluation"]
        same = json.loads(out) == stored
        print(f"evalfw meta --recompute (the meta-evaluation alone):      "
              f"{cpu:6.2f} CPU s {wall:6.2f} s wall {rss:5.0f} MB  identical={same}")
        if args.fallback:
            off = {"EVALFW_NATIVE": "0"}
            zero = run(folder, args.samples, 0, off)[0]
            some = run(folder, args.samples, args.fallback, off)[0]
            per = (some - zero) / args.fallback * 1000
            print(f"numpy fallback (EVALFW_NATIVE=0): {zero:.2f} CPU s without tests, "
                  f"{some:.2f} with {args.fallback} trials: {per:.0f} CPU s per 1000 trials")
    literal, fast = oracle_calibration()
    print(f"one grouped tie calibration (chrF, 41,262 pairs): literal Python {literal:.2f} CPU s, "
          f"evalfw {fast:.3f} CPU s (x{literal / fast:.0f})")


if __name__ == "__main__":
    main()
