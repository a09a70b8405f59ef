"""``evalfw compare RUN_A RUN_B``: did B get significantly worse than A? (exit 1 if so)."""

from __future__ import annotations

import argparse
import sys

from evalfw.analysis.results import CORRECTIONS, FAMILIES
from evalfw.cli._options import (
    add_format,
    add_plugins_dir,
    add_runs_dir,
    host_for,
    warn,
    write_json,
    write_lines,
)
from evalfw.limits import LIMITS

HELP = "paired tests between the same systems of two stored runs (exit 1 on a regression)"
EPILOG = """examples:
  evalfw compare wmt/20250101T120000Z-001 wmt/20250108T120000Z-001
  evalfw compare runs/wmt/OLD runs/wmt/NEW --metric sacrebleu --alpha 0.01
  evalfw compare baseline-run candidate-run --format json --correction none
  evalfw compare wmt/OLD wmt/NEW --family run --correction bonferroni
  evalfw compare wmt/OLD wmt/NEW --margin 0.5     # fail unless no drop over 0.5 is shown

Both runs must have scored the same test sets (same reference files by sha256, same segment
count) with identically defined metrics; systems are matched by name. B is tested against A
on the stored per-segment statistics (default-mode paired bootstrap, seed of run A unless
--seed). The p-values are corrected as `evalfw run` corrects them by default: Holm within
each table (a family: the systems of one test set x metric); --family test_set or run widens
it, --correction bonferroni or none changes the method. A warning on stderr says when the
samples cannot reach alpha in the largest family, and how many would. A difference that is
not significant is "inconclusive": the test may not have been able to see it.

--margin X (in the metric's units) asks "did B lose more than X?" instead: each row gets the
one-sided bootstrap bound of B - A towards a regression (at 1 - alpha/m, Bonferroni over each
family; 1 - alpha with --correction none), and says "no regression larger than X" only when
that bound stays within X. Exit status: 0 no (significant, or with --margin, possible)
regression, 1 a significant regression (B worse than A, adjusted p <= alpha) or, with
--margin, a regression larger than X not excluded, 2 the runs cannot be compared (the
message names what differs).
"""


def _alpha(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def _margin(text: str) -> float:
    value = float(text)
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_a", metavar="RUN_A", help="the reference run (version directory, "
                        "EXPERIMENT or EXPERIMENT/VERSION)")
    parser.add_argument("run_b", metavar="RUN_B", help="the run tested against RUN_A")
    parser.add_argument("--metric", "-m", metavar="NAME", help="compare this metric only "
                        "(default: every corpus-level metric of both runs)")
    parser.add_argument("--alpha", type=_alpha, default=0.05,
                        help="significance threshold, p <= alpha (default 0.05)")
    parser.add_argument("--method", choices=("bootstrap", "ar"), default="bootstrap",
                        help="paired bootstrap (default) or approximate randomization")
    parser.add_argument("--samples", "-n", type=LIMITS["ar_trials"].argtype(), metavar="N",
                        help="resamples or trials (default 1000 bootstrap, 10000 AR)")
    parser.add_argument("--seed", type=LIMITS["seed"].argtype(), help="resampling seed (default: run A's seed)")
    parser.add_argument("--correction", choices=CORRECTIONS, default="holm",
                        help="multiple-comparison correction within each family (default "
                             "holm, as evalfw run)")
    parser.add_argument("--margin", type=_margin, metavar="X",
                        help="non-inferiority: fail unless every B is shown to lose at most X "
                             "(in the metric's units) against A")
    parser.add_argument("--family", choices=FAMILIES, default="table",
                        help="which comparisons are corrected together: table (one test set "
                             "x metric, the default, as evalfw run), test_set, or run (all)")
    add_format(parser, ("table", "json"))
    add_plugins_dir(parser, "load metrics from")
    add_runs_dir(parser)


def table(data: dict) -> str:
    from evalfw.metrics.scales import places
    from evalfw.runner.compare import p_text

    margin = data.get("margin")
    head = ["test set", "metric", "system", "A", "B", "delta", data["p_label"], "verdict"]
    if margin is not None:
        head[-1:] = ["bound", f"margin {margin:g}"]

    def num(r: dict, key: str, sign: str = "") -> str:
        return f"{r[key]:{sign}.{places(r['score_scale'])}f}"

    rows = [[r["test_set"], r["metric"], r["system"], num(r, "score_a"), num(r, "score_b"),
             num(r, "delta", "+"),
             p_text(r, data["samples"]),
             *((num(r, "bound", "+"), r["margin_verdict"]) if margin is not None
               else (r["verdict"],))] for r in data["comparisons"]]
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(len(head))]
    words = len(head) - 1

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < 3 or i == words else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    a, b = data["run_a"], data["run_b"]
    test = "paired bootstrap" if data["method"] == "bootstrap" else "approximate randomization"
    out = [f"A: {a['experiment']}/{a['version']}", f"B: {b['experiment']}/{b['version']}", "",
           line(head), "  ".join("-" * w for w in widths), *(line(r) for r in rows), "",
           f"{test}, {data['samples']} samples, seed {data['seed']}, alpha {data['alpha']:g}, "
           f"{correction_text(data)}: {data['regressions']} regression(s), "
           f"{data['improvements']} improvement(s)"
           + (f", {data['unchanged']} unchanged (byte-identical outputs, not tested)"
              if data["unchanged"] else "")
           + "; not significant: inconclusive (the test may not have seen the difference)"]
    if margin is not None:
        out.append(f"non-inferiority margin {margin:g}: bound = the one-sided bootstrap bound "
                   "of B - A towards a regression, "
                   + ("at 1 - alpha" if data["correction"] == "none" else
                      "simultaneous over each family (Bonferroni, 1 - alpha/m)"))
    out += [f"not compared: {u}" for u in data["unmatched_systems"]]
    return "\n".join(out) + "\n"


#: what one family holds under each --family
_SCOPE = {"table": "the systems of one test set x metric",
          "test_set": "all metrics and systems of one test set", "run": "every compared cell"}


def correction_text(data: dict) -> str:
    """``Holm-adjusted p within each family of the systems of one test set x metric (3
    comparisons)``: the correction, its family and the family sizes."""
    tested = [r for r in data["comparisons"] if r["family_size"] is not None]
    sizes = sorted({r["family_size"] for r in tested}) or [0]
    counted = f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    if data["correction"] == "none":
        return f"p not corrected ({len(tested)} comparisons)"
    from evalfw.reports._cells import CORRECTION_NAMES

    name = CORRECTION_NAMES[data["correction"]]
    return (f"{name}-adjusted p within each family of {_SCOPE[data['family']]} "
            f"({counted} comparisons)")


def execute(args: argparse.Namespace) -> int:
    from evalfw.records.load import open_run
    from evalfw.runner.compare import check, compare_runs

    if args.method == "bootstrap" and args.samples is not None:
        # -n bounds AR trials at parse time; bootstrap resamples have the lower bound
        LIMITS["samples"].check(args.samples, "--samples")
    run_a = open_run(args.run_a, args.runs_dir)
    run_b = open_run(args.run_b, args.runs_dir)
    result = compare_runs(run_a, run_b, host_for(args), metric=args.metric, alpha=args.alpha,
                          method=args.method, samples=args.samples, seed=args.seed,
                          correction=args.correction, family=args.family,
                          margin=args.margin)
    data = result.to_json()
    if result.resolution_warning:
        warn(str(result.resolution_warning))
    if args.format == "json":
        write_json(data)
    else:
        write_lines(table(data).splitlines())
    sys.stdout.flush()
    check(result)  # RegressionDetected -> exit status 1, after the report is out
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP", "table"]
