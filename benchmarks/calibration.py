"""Calibration of evalfw's intervals and tests, checked by simulation on real WMT22 statistics.

    python benchmarks/calibration.py                  # every cell, the replicate counts below
    python benchmarks/calibration.py --replicates 100 # a quicker, rougher run

Each cell prints its rate, the number of replicates (and of intervals or tests counted) and
the rate's binomial standard error. The data are the per-segment statistics of the real WMT22
systems (reference A), computed once; every replicate resamples or permutes them, so nothing
but the design of the simulation is synthetic.

1. **Null calibration of the default tests** (en-de, the whole test set, 2,037 segments):
   truly equal systems are made by swapping two real systems' outputs segment by segment with
   a fair coin (both pseudo-systems are then exchangeable); the rate at which the default
   paired bootstrap (1000 resamples) and approximate randomization (1000 trials) call such a
   pair significant at alpha 0.05 should be about 0.05. sacreBLEU's paired bootstrap (mode
   sacrebleu, reproduced exactly) is run on the same pairs: its rate is what the warning of
   sacreBLEU mode states.
2. **Documents** (en-zh, whose segments come in 181 documents in order): test sets of
   n = 200 and 500 segments are drawn as blocks of 10 contiguous segments, blocks drawn with
   replacement from the 203 full blocks; the truth is the score of all 2,030 segments of those
   blocks. The coverage of 95 % intervals resampling segments (documents ignored) and
   resampling the blocks as documents (``documents:``), and the null rate of the paired
   bootstrap when equal systems are made by swapping whole blocks.
3. **Buckets**: on WMT22 en-de with ``buckets: {name: ref-length, edges: [80]}``, the "80+"
   bucket holds one segment: how many of its comparisons get a mark (none should; nor when
   the minimum size is lowered to 1: its resampling has no variance). And the null rate of
   the bucket tests (reference-length buckets chosen from the data, at least 30 segments)
   under segment swaps.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from evalfw.analysis import significance as sig  # noqa: E402
from evalfw.analysis.bucketers import RefLength  # noqa: E402
from evalfw.analysis.buckets import bucketed_analysis  # noqa: E402
from evalfw.analysis.units import Units  # noqa: E402
from evalfw.host.host import PluginHost  # noqa: E402
from evalfw.metrics.base import Metric, SegmentLengths  # noqa: E402

SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or HERE.parents[1] / "shared")
WMT22 = SHARED / "data" / "wmt22"
ALPHA = 0.05
BLOCK = 10


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1]


def statistics(pair: str, metric: Metric) -> dict[str, np.ndarray]:
    """Every system's per-segment statistics of ``metric`` against reference A."""
    refs = [lines(WMT22 / pair / "ref.A.txt")]
    prepared = metric.prepare_references(refs)
    return {p.stem: metric.segment_statistics(lines(p), prepared)
            for p in sorted((WMT22 / pair / "sys").glob("*.txt"))}


class Rate:
    """Hits out of trials. Its standard error is over replicates: the intervals of one
    replicate (every system's) miss together when the sample is unusual, so they count as
    one cluster (:meth:`replicate`), not as independent trials."""

    def __init__(self) -> None:
        self.hits = 0
        self.trials = 0
        self.shares: list[float] = []
        self._open = [0, 0]

    def add(self, hit: bool | int, trials: int = 1) -> None:
        self.hits += int(hit)
        self.trials += trials
        self._open[0] += int(hit)
        self._open[1] += trials

    def replicate(self) -> None:
        """Close one replicate's trials."""
        if self._open[1]:
            self.shares.append(self._open[0] / self._open[1])
        self._open = [0, 0]

    def text(self) -> str:
        self.replicate()
        p = self.hits / self.trials if self.trials else float("nan")
        k = len(self.shares)
        if k < 2 or k == self.trials:  # one trial a replicate: the binomial error
            se = math.sqrt(p * (1 - p) / self.trials) if self.trials else float("nan")
        else:
            se = float(np.std(self.shares, ddof=1) / math.sqrt(k))
        return f"{p:6.3f} ±{se:.3f}  ({self.hits}/{self.trials})"


def report(cell: str, what: str, replicates: int, rate: Rate) -> None:
    print(f"{cell:<46} {what:<44} {replicates:>5} reps  {rate.text()}", flush=True)


def swapped(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """Two exchangeable pseudo-systems: x where ``mask``, else y, and the complement."""
    return {"P": np.where(mask[:, None], x, y), "Q": np.where(mask[:, None], y, x)}


def null_pairs(names: Sequence[str], rng: np.random.Generator, count: int
               ) -> list[tuple[str, str]]:
    """``count`` pairs of distinct systems, drawn uniformly."""
    out = []
    for _ in range(count):
        a, b = rng.choice(len(names), 2, replace=False)
        out.append((names[int(a)], names[int(b)]))
    return out


# ----------------------------------------------------------------------------- cells


def null_calibration(metric: Metric, label: str, stats: dict[str, np.ndarray], reps: int,
                     sacre_reps: int) -> None:
    rng = np.random.default_rng(20261)
    names = sorted(stats)
    rates = {"bootstrap": Rate(), "ar": Rate(), "sacrebleu": Rate()}
    for k, (a, b) in enumerate(null_pairs(names, rng, reps)):
        mask = rng.integers(2, size=len(stats[a])).astype(bool)
        pair = swapped(stats[a], stats[b], mask)
        seed = int(rng.integers(1 << 31))
        for method, n in (("bootstrap", 1000), ("ar", 1000)):
            (c,) = sig.paired_analysis(pair, "P", metric, method, n, seed).comparisons
            rates[method].add(c.significant(ALPHA))
        if k < sacre_reps and metric.sacrebleu_resampling:
            (c,) = sig.paired_analysis(pair, "P", metric, "bootstrap", 1000, seed + 1,
                                       "sacrebleu").comparisons
            rates["sacrebleu"].add(c.p_value <= ALPHA)
    n = len(next(iter(stats.values())))
    cell = f"1 null, segment swaps, n={n} ({label})"
    report(cell, "type I error, paired bootstrap (default)", reps, rates["bootstrap"])
    report(cell, "type I error, approximate randomization", reps, rates["ar"])
    if rates["sacrebleu"].trials:
        report(cell, "type I error, sacreBLEU's paired bootstrap", sacre_reps,
               rates["sacrebleu"])


def documents_design(metric: Metric, label: str, stats: dict[str, np.ndarray], reps: int,
                     sizes: Sequence[int]) -> None:
    names = sorted(stats)
    blocks = len(next(iter(stats.values()))) // BLOCK
    whole = {s: v[:blocks * BLOCK] for s, v in stats.items()}
    truth = {s: float(metric.score(v)) for s, v in whole.items()}
    for n in sizes:
        rng = np.random.default_rng(7000 + n)
        cover = {"segment": Rate(), "document": Rate()}
        delta_cover = {"segment": Rate(), "document": Rate()}
        null = {"segment": Rate(), "document": Rate()}
        per = n // BLOCK
        ids = [f"b{i // BLOCK}" for i in range(n)]
        for _ in range(reps):
            chosen = rng.choice(blocks, per, replace=True)
            rows = (chosen[:, None] * BLOCK + np.arange(BLOCK)[None, :]).ravel()
            sample = {s: v[rows] for s, v in whole.items()}
            seed = int(rng.integers(1 << 31))
            base = names[0]
            for unit, units in (("segment", None), ("document", Units.from_ids(ids))):
                out = sig.bootstrap_analysis(sample, base, metric, 1000, seed, units=units)
                for i in out.intervals:
                    cover[unit].add(i.lower <= truth[i.system] <= i.upper)
                for c in out.comparisons:
                    real = truth[c.system] - truth[base]
                    delta_cover[unit].add(c.delta_lower <= real <= c.delta_upper)
            # equal systems: two real systems swapped block by block
            a, b = null_pairs(names, rng, 1)[0]
            mask = np.repeat(rng.integers(2, size=per).astype(bool), BLOCK)
            pair = swapped(sample[a], sample[b], mask)
            for unit, units in (("segment", None), ("document", Units.from_ids(ids))):
                (c,) = sig.paired_analysis(pair, "P", metric, "bootstrap", 1000, seed,
                                           units=units).comparisons
                null[unit].add(c.significant(ALPHA))
            for rate in (*cover.values(), *delta_cover.values(), *null.values()):
                rate.replicate()
        cell = f"2 blocks of {BLOCK}, n={n} ({label})"
        for unit in ("segment", "document"):
            what = "segments" if unit == "segment" else "documents"
            report(cell, f"95% interval coverage, resampling {what}", reps, cover[unit])
            report(cell, f"95% paired-delta coverage, resampling {what}", reps,
                   delta_cover[unit])
            report(cell, f"type I error (block swaps), resampling {what}", reps, null[unit])


def buckets(metric: Metric, label: str, stats: dict[str, np.ndarray], reps: int) -> None:
    names = sorted(stats)
    base = "Online-A" if "Online-A" in stats else names[0]
    ordered = {base: stats[base], **stats}
    lengths = SegmentLengths(None, stats[base][:, 1])  # reference length (one reference)
    tiny = Rate()
    forced = Rate()
    for minimum, rate in ((30, tiny), (1, forced)):
        results = bucketed_analysis(ordered, base, metric, RefLength(edges=[80]), lengths,
                                    "bootstrap", 1000, 12345, min_segments=minimum)
        last = results[-1]
        assert last.segments == 1, last.segments
        marked = sum(c.significant(ALPHA) for c in last.comparisons)
        rate.add(marked, len(ordered) - 1)
    report(f"3 one-segment bucket '80+' ({label})", "marked comparisons, minimum 30", 1, tiny)
    report(f"3 one-segment bucket '80+' ({label})", "marked comparisons, minimum 1", 1,
           forced)
    rng = np.random.default_rng(31)
    null = Rate()
    for a, b in null_pairs(names, rng, reps):
        mask = rng.integers(2, size=len(stats[a])).astype(bool)
        pair = swapped(stats[a], stats[b], mask)
        results = bucketed_analysis(pair, "P", metric, RefLength(), lengths, "bootstrap", 1000,
                                    int(rng.integers(1 << 31)))
        for bucket in results:
            for c in bucket.comparisons:
                null.add(c.significant(ALPHA))
        null.replicate()
    report(f"3 ref-length buckets >= 30 segments ({label})",
           "type I error per bucket test, unadjusted", reps, null)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=500,
                        help="replicates per cell (default 500)")
    parser.add_argument("--sacrebleu-replicates", type=int, default=200,
                        help="replicates of sacreBLEU's paired bootstrap (default 200)")
    args = parser.parse_args(argv)
    if not WMT22.is_dir():
        sys.exit(f"calibration: WMT22 data not found at {WMT22} (set EVALFW_SHARED_DIR)")
    warnings.simplefilter("ignore", UserWarning)
    host = PluginHost.create()
    start = time.process_time()
    import subprocess

    commit = subprocess.run(["git", "-C", str(HERE.parent), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"calibration at {commit or 'unknown commit'}, alpha {ALPHA}, "
          f"{args.replicates} replicates a cell ({args.sacrebleu_replicates} for sacreBLEU's "
          "paired bootstrap)")
    print(f"{'cell':<46} {'what':<44} {'':>10}  rate ±se  (count)")
    runs: list[tuple[str, Callable[[], None]]] = []
    for pair, tokenize in (("en-de", "13a"), ("en-zh", "zh")):
        for name, metric in (("BLEU", host.metric("bleu", {"preset": "sacrebleu",
                                                           "tokenizer": tokenize})),
                             ("chrF", host.metric("chrf", {}))):
            stats = statistics(pair, metric)
            label = f"{pair} {name}"
            if pair == "en-de":
                runs.append((label, lambda m=metric, lb=label, st=stats: null_calibration(
                    m, lb, st, args.replicates, args.sacrebleu_replicates)))
                if name == "BLEU":
                    runs.append((label, lambda m=metric, lb=label, st=stats: buckets(
                        m, lb, st, max(50, args.replicates // 5))))
            else:
                runs.append((label, lambda m=metric, lb=label, st=stats: documents_design(
                    m, lb, st, args.replicates, (200, 500))))
    for _, job in runs:
        job()
    print(f"CPU time {time.process_time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
