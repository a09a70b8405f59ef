"""sacreBLEU's significance flags for ``evalfw score``: ``--confidence``, ``--paired-bs``,
``--paired-ar`` (with ``-n`` variants) and ``--seed``.

Each metric's statistics run in ``sacrebleu`` mode whenever the metric reproduces sacreBLEU's
resampling arithmetic (BLEU with sacreBLEU's smoothing and mean), so the numbers equal
sacreBLEU's for the same seed; other metrics and variants (``--preset nltk`` ...) use the
default mode. The first ``-i`` system is the baseline. Output: text as sacreBLEU prints it
(score lines with ``(μ = mean ± ci)``, aligned at ``=``; the paired table with one column per
metric in ``-m`` order, notes and signatures), JSON objects (one per system and metric)
gaining ``mean``, ``ci`` and, for non-baseline systems, ``p_value``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from evalfw.cli._options import write_json
from evalfw.compat.sacrebleu import _text as st
from evalfw.errors import ConfigError
from evalfw.limits import LIMITS

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import Metric


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("significance (as sacreBLEU; the first -i system is the baseline)")
    g.add_argument("-ci", "--confidence", action="store_true",
                   help="bootstrap confidence interval of each system's score")
    g.add_argument("-cin", "--confidence-n", type=LIMITS["samples"].argtype(), default=1000, metavar="N",
                   help="bootstrap resamples for --confidence (default 1000)")
    paired = g.add_mutually_exclusive_group()
    paired.add_argument("-pbs", "--paired-bs", action="store_true",
                        help="paired bootstrap resampling test against the baseline")
    paired.add_argument("-par", "--paired-ar", action="store_true",
                        help="paired approximate randomization test against the baseline")
    g.add_argument("-pbsn", "--paired-bs-n", type=LIMITS["samples"].argtype(), default=1000, metavar="N",
                   help="resamples for --paired-bs (default 1000)")
    g.add_argument("-parn", "--paired-ar-n", type=LIMITS["ar_trials"].argtype(), default=10000, metavar="N",
                   help="trials for --paired-ar (default 10000)")
    g.add_argument("--seed", default=None, type=seed_or_none,
                   help="RNG seed, or 'none' (default: $SACREBLEU_SEED, else 12345)")


def seed_or_none(text: str) -> str:
    """A ``--seed`` value as sacreBLEU takes it: an integer seed within bounds, or ``none``."""
    if text.lower() == "none":
        return text
    return str(LIMITS["seed"].argtype()(text))


def systems_table(args: argparse.Namespace, metrics: list[Metric],
                  named: list[tuple[str, list[np.ndarray]]], nrefs: int | str) -> str:
    """Several systems without a paired test, as sacreBLEU prints them: one column per metric
    (sorted by upper-case name, as its single-system lines), then the signatures."""
    headers, columns, signatures = ["System"], [[system for system, _ in named]], {}
    for k in sorted(range(len(metrics)), key=lambda k: metrics[k].name.upper()):
        metric = metrics[k]
        results = [metric.result(rows[k], nrefs) for _, rows in named]
        places = width(args, results[0])
        columns.append([f"{res.score:.{places}f}" for res in results])
        headers.append(results[0].name)
        signatures[results[0].name] = signature(results[0])
    table = st.fancy_grid(tuple(headers), list(zip(*columns)))
    return f"{table}\n\n{st.signatures_block(signatures)}\n"


def requested(args: argparse.Namespace) -> bool:
    return bool(args.confidence or args.paired_bs or args.paired_ar)


def width(args: argparse.Namespace, res: Any) -> int:
    """Decimals of text output: ``--width``, else sacreBLEU's 1 for 0-100 scores and, on
    other scales, enough to keep scores 1% of the scale apart (4 for 0-1)."""
    from evalfw.metrics.scales import places

    if args.width is not None:
        return int(args.width)
    return 1 if res.score_scale == 100 else places(res.score_scale)


def signature(res: Any) -> str:
    """The signature a result is printed with: sacreBLEU's when the metric reproduces it,
    else evalfw's without the metric's name."""
    text: str = res.sacrebleu_signature or res.signature.removeprefix(f"{res.name}|")
    return text


def _verbose(res: Any) -> str:
    text = res.verbose() if hasattr(res, "verbose") else ""
    return f" {text}" if text else ""


def _obj(name: str, res: Any, sig_text: str, **extra: Any) -> dict[str, Any]:
    obj = {**res.to_json(), "name": name, "metric": res.name, **extra}
    key = "sacrebleu_signature" if res.sacrebleu_signature else "signature"
    obj[key] = sig_text if key == "sacrebleu_signature" else f"{res.name}|{sig_text}"
    return obj


def align(lines: list[str]) -> list[str]:
    """sacreBLEU's alignment of several score lines: the text before `` = `` right-justified
    to the longest (lines without ``=``, e.g. ``--score-only``, stay as they are)."""
    cuts = [line.index("=") - 1 if "=" in line else -1 for line in lines]
    w = max(cuts, default=0)
    return [line if cut < 0 else f"{line[:cut]:>{w}}{line[cut:]}"
            for cut, line in zip(cuts, lines)]


def run(args: argparse.Namespace, metrics: list[Metric],
        named: list[tuple[str, list[np.ndarray]]], nrefs: int | str) -> int:
    """Compute and print; ``named`` holds each system's statistics per metric (in the order
    of ``metrics``). Returns the exit status."""
    if args.sentence_level:
        raise ConfigError("--confidence/--paired-bs/--paired-ar work on corpus scores; "
                          "drop --sentence-level")
    if (args.paired_bs or args.paired_ar) and len(named) < 2:
        raise ConfigError("paired tests need at least two systems: give the baseline and the "
                          "other systems with -i BASELINE SYS1 [SYS2 ...]")
    out = (_paired if args.paired_bs or args.paired_ar else _confidence)(args, metrics, named,
                                                                         nrefs)
    if args.format == "json":
        from evalfw.cli._score_inputs import recorded

        write_json([{**obj, **recorded(args)} for obj in out])
    return 0


def _mode(metric: Metric) -> str:
    # the analysis modules import numpy: loaded when a test runs, not for `score --help`
    from evalfw.analysis import sacrebleu_mode as sm

    return "sacrebleu" if sm.supports(metric) else "default"


def _confidence(args: argparse.Namespace, metrics: list[Metric],
                named: list[tuple[str, list[np.ndarray]]], nrefs: int | str
                ) -> list[dict[str, Any]]:
    """One line per system and metric, metrics in sacreBLEU's order (by upper-case name)."""
    from evalfw.analysis import sacrebleu_mode as sm
    from evalfw.analysis import significance as sig

    order = sorted(range(len(metrics)), key=lambda k: metrics[k].name.upper())
    out = []
    for system, stats in named:
        lines = []
        for k in order:
            metric, rows = metrics[k], stats[k]
            res = metric.result(rows, nrefs)
            mode = _mode(metric)
            ci = sig.confidence_interval(rows, metric, args.confidence_n, args.seed, mode,
                                         system=system)
            label = sm.read_seed(args.seed).label if mode == "sacrebleu" else str(ci.seed)
            sig_text = st.confidence_signature(signature(res), ci, label)
            out.append(_obj(system, res, sig_text, mean=ci.mean, ci=ci.ci))
            score = st.confidence_text(res.score, ci, width(args, res))
            lines.append(score if args.score_only else
                         f"{res.name}|{sig_text} = {score}{_verbose(res)}")
        if args.format == "text":
            prefix = f"{system}: " if len(named) > 1 else ""
            sys.stdout.write("".join(f"{prefix}{line}\n" for line in align(lines)))
    return out


def warn_resolution(method: str, n: int, option: str) -> None:
    """On stderr only (the text output stays sacreBLEU's): a warning when ``n`` resamples or
    trials cannot give a p-value sacreBLEU would star, with the ``option`` that would."""
    from evalfw.analysis.resolution import describe, p_value_resolution

    limit = p_value_resolution(method, n, 1, "none", st.STAR_ALPHA)
    if not limit.reachable:
        sys.stderr.write("evalfw: warning: significance is out of reach: "
                         f"{describe(limit, setting=option)}\n")


def _paired(args: argparse.Namespace, metrics: list[Metric],
            named: list[tuple[str, list[np.ndarray]]], nrefs: int | str
            ) -> list[dict[str, Any]]:
    """sacreBLEU's paired table: one column per metric (in ``-m`` order)."""
    from evalfw.analysis import significance as sig

    method = "bootstrap" if args.paired_bs else "ar"
    n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    warn_resolution(method, n, "-pbsn {}" if args.paired_bs else "-parn {}")
    if method == "bootstrap" and any(_mode(m) == "sacrebleu" for m in metrics):
        from evalfw.analysis.sacrebleu_mode import SACREBLEU_BOOTSTRAP

        # stderr only: the table stays the one sacreBLEU prints
        sys.stderr.write(f"evalfw: warning: {SACREBLEU_BOOTSTRAP}\n")
    base = named[0][0]
    columns: list[list[str]] = [[f"Baseline: {base}", *(s for s, _ in named[1:])]]
    headers, signatures, out = ["System"], {}, []
    objects: dict[str, list[dict[str, Any]]] = {s: [] for s, _ in named}
    for k, metric in enumerate(metrics):
        stats = {system: rows[k] for system, rows in named}
        results = {system: metric.result(rows, nrefs) for system, rows in stats.items()}
        outcome = sig.paired_analysis(stats, base, metric, method, n, args.seed,
                                      _mode(metric))
        comps = {c.system: c for c in outcome.comparisons}
        first = results[base]
        sig_text = st.paired_signature(signature(first), method, outcome.n, outcome.seed)
        places = width(args, first)
        cells = []
        for system, res in results.items():
            if system == base:
                interval = outcome.baseline
                extra = {"mean": interval.mean if interval else None,
                         "ci": interval.ci if interval else None}
                cells.append(st.baseline_cell(res.score, interval, places))
            else:
                c = comps[system]
                extra = {"mean": c.mean, "ci": c.ci, "p_value": c.p_value}
                cells.append(st.comparison_cell(c, places))
            objects[system].append(_obj(system, res, sig_text, **extra))
        columns.append(cells)
        headers.append(f"{first.name} (μ ± 95% CI)" if method == "bootstrap" else first.name)
        signatures[first.name] = sig_text
        n = outcome.n
    for system, _ in named:
        out += objects[system]
    if args.format == "text":
        rows = list(zip(*columns))
        sys.stdout.write(st.fancy_grid(tuple(headers), rows) + "\n\n")
        sys.stdout.write(st.paired_explanation(method, n, f"Baseline: {base}") + "\n")
        sys.stdout.write(st.signatures_block(signatures) + "\n")
    return out
