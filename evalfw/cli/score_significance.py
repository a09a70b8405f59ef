"""sacreBLEU's significance flags for ``evalfw score``: ``--confidence``, ``--paired-bs``,
``--paired-ar`` (with ``-n`` variants) and ``--seed``.

The statistics run in ``sacrebleu`` mode whenever the BLEU spec is one sacreBLEU can compute
(its smoothing and mean), so the numbers equal sacreBLEU's for the same seed; other specs
(``--preset nltk`` ...) use the default mode. The first ``-i`` system is the baseline.
Output: text as sacreBLEU prints it (score line with ``(μ = mean ± ci)``; the paired table,
notes and signatures), JSON objects gaining ``mean``, ``ci`` and, for non-baseline systems,
``p_value``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from evalfw.analysis import sacrebleu_mode as sm
from evalfw.cli import sacrebleu_text as st
from evalfw.analysis import significance as sig
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import SegmentStats
from evalfw.errors import ConfigError


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("significance (as sacreBLEU; the first -i system is the baseline)")
    g.add_argument("-ci", "--confidence", action="store_true",
                   help="bootstrap confidence interval of each system's score")
    g.add_argument("-cin", "--confidence-n", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for --confidence (default 1000)")
    paired = g.add_mutually_exclusive_group()
    paired.add_argument("-pbs", "--paired-bs", action="store_true",
                        help="paired bootstrap resampling test against the baseline")
    paired.add_argument("-par", "--paired-ar", action="store_true",
                        help="paired approximate randomization test against the baseline")
    g.add_argument("-pbsn", "--paired-bs-n", type=int, default=1000, metavar="N",
                   help="resamples for --paired-bs (default 1000)")
    g.add_argument("-parn", "--paired-ar-n", type=int, default=10000, metavar="N",
                   help="trials for --paired-ar (default 10000)")
    g.add_argument("--seed", default=None,
                   help="RNG seed, or 'none' (default: $SACREBLEU_SEED, else 12345)")


def requested(args: argparse.Namespace) -> bool:
    return bool(args.confidence or args.paired_bs or args.paired_ar)


def _width(args: argparse.Namespace, res: BleuScore) -> int:
    return args.width if args.width is not None else (1 if res.score_scale == 100 else 4)


def _signature(res: BleuScore) -> str:
    return res.sacrebleu_signature or res.signature.removeprefix("BLEU|")


def _obj(name: str, res: BleuScore, signature: str, **extra: Any) -> dict[str, Any]:
    obj = {**res.to_json(), "name": name, "metric": res.name, **extra}
    key = "sacrebleu_signature" if res.sacrebleu_signature else "signature"
    obj[key] = signature if key == "sacrebleu_signature" else "BLEU|" + signature
    return obj


def run(args: argparse.Namespace, spec: BleuSpec, named: list[tuple[str, SegmentStats]]) -> int:
    """Compute and print; returns the exit status."""
    if args.sentence_level:
        raise ConfigError("--confidence/--paired-bs/--paired-ar work on corpus scores; "
                          "drop --sentence-level")
    if (args.paired_bs or args.paired_ar) and len(named) < 2:
        raise ConfigError("paired tests need at least two systems: give the baseline and the "
                          "other systems with -i BASELINE SYS1 [SYS2 ...]")
    mode = "sacrebleu" if sm.supports(spec) else "default"
    results = {name: engine.corpus_score(spec, stats) for name, stats in named}
    out = (_paired if args.paired_bs or args.paired_ar else _confidence)(
        args, spec, dict(named), results, mode)
    if args.format == "json":
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    return 0


def _confidence(args: argparse.Namespace, spec: BleuSpec, stats: dict[str, SegmentStats],
                results: dict[str, BleuScore], mode: str) -> list[dict[str, Any]]:
    seed = sm.read_seed(args.seed) if mode == "sacrebleu" else None
    out = []
    for name, res in results.items():
        ci = sig.confidence_interval(stats[name], spec, args.confidence_n,
                                     args.seed, mode, system=name)
        label = seed.label if seed else str(ci.seed)
        signature = st.confidence_signature(_signature(res), ci, label)
        out.append(_obj(name, res, signature, mean=ci.mean, ci=ci.ci))
        if args.format == "text":
            score = st.confidence_text(res.score, ci, _width(args, res))
            line = score if args.score_only else f"BLEU|{signature} = {score} {res.verbose()}"
            sys.stdout.write((f"{name}: " if len(results) > 1 else "") + line + "\n")
    return out


def _paired(args: argparse.Namespace, spec: BleuSpec, stats: dict[str, SegmentStats],
            results: dict[str, BleuScore], mode: str) -> list[dict[str, Any]]:
    method = "bootstrap" if args.paired_bs else "ar"
    n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    base = next(iter(stats))
    outcome = sig.paired_analysis(stats, base, spec, method, n, args.seed, mode)
    comps = {c.system: c for c in outcome.comparisons}
    first = results[base]
    signature = st.paired_signature(_signature(first), method, outcome.n, outcome.seed)
    width = _width(args, first)
    out, rows = [], []
    for name, res in results.items():
        if name == base:
            interval = outcome.baseline
            extra = {"mean": interval.mean if interval else None,
                     "ci": interval.ci if interval else None}
            rows.append((f"Baseline: {name}", st.baseline_cell(res.score, interval, width)))
        else:
            c = comps[name]
            extra = {"mean": c.mean, "ci": c.ci, "p_value": c.p_value}
            rows.append((name, st.comparison_cell(c, width)))
        out.append(_obj(name, res, signature, **extra))
    if args.format == "text":
        header = "BLEU (μ ± 95% CI)" if method == "bootstrap" else "BLEU"
        sys.stdout.write(st.fancy_grid(("System", header), rows) + "\n\n")
        sys.stdout.write(st.paired_explanation(method, outcome.n, f"Baseline: {base}") + "\n")
        sys.stdout.write(st.signatures_block({"BLEU": signature}) + "\n")
    return out
