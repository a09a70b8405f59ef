"""``evalfw compare RUN_A RUN_B``: paired tests between the same systems of two stored runs.

Both records must have scored the same test sets: the same test set names, and per test set
the same reference files by content (sha256, in order) and the same segment count; the
compared metrics must be defined identically (same components, versions and options). Anything
else is refused with an :class:`~evalfw.errors.EvalfwError` naming every difference. Systems
are matched by name; systems present in one run only are listed, not tested.

For every test set x metric x common system, run B's statistics are tested against run A's
(A is the baseline) with the default-mode paired bootstrap (or AR) on the stored per-segment
statistics, so no text is read; each run's ``on_flag`` applies to its statistics as in the run
(from the flags its record lists), and the tests use the segments neither run left out. The
p-values are corrected as ``evalfw run`` corrects them,
with the same defaults: Holm within each family, a family being the systems of one test set
x metric (``family: table``; or ``test_set``, or ``run``: every compared cell). A
*regression* is a significant difference (p <= alpha, adjusted unless ``correction`` is
``none``) with B worse than A in the metric's direction (a lower BLEU, a higher TER);
:func:`check` raises :class:`~evalfw.errors.RegressionDetected` (exit status 1) when there is
one. A difference that is not significant is *inconclusive*, not "no change": the test may
have been unable to see it.

With a ``margin`` (in the metric's units) the question becomes non-inferiority: "did B lose
more than ``margin``?". Each row gets the one-sided bootstrap bound of B - A towards a
regression at level ``1 - alpha / m`` (Bonferroni over a family of ``m``; ``1 - alpha``
without a correction), and "no regression larger than X" only when that bound stays within
the margin; otherwise a regression larger than the margin is not excluded, and that is what
fails the check. When the samples cannot reach alpha in the largest family, the result's
``resolution_warning`` says so (:mod:`evalfw.analysis.resolution`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalfw.analysis import significance as sig
from evalfw.analysis.resolution import p_value_resolution
from evalfw.analysis.results import METHODS, ComparisonResult, adjust
from evalfw.errors import EvalfwError, RecordError, RegressionDetected, suggest
from evalfw.reports._cells import CORRECTION_NAMES
from evalfw.runner._conclusions import Conclusions
from evalfw.runner._families import family_key, warning
from evalfw.runner.recorded import describe_changes, recorded_metric

if TYPE_CHECKING:
    import numpy as np

    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric
    from evalfw.records.load import StoredRun


@dataclass
class Comparison:
    """The outcome of comparing two runs."""

    run_a: StoredRun
    run_b: StoredRun
    settings: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> list[dict[str, Any]]:
        """Significant regressions; with a margin, the rows whose regression beyond it is not
        excluded."""
        if self.settings.get("margin") is not None:
            return [r for r in self.rows if r["margin_verdict"].startswith("a regression")]
        return [r for r in self.rows if r["verdict"] == "regression"]

    @property
    def p_label(self) -> str:
        """What the p-value shown for each comparison is: ``p Holm`` (adjusted), or ``p``."""
        name = CORRECTION_NAMES.get(self.settings["correction"])
        return f"p {name}" if name else "p"

    @property
    def resolution_warning(self) -> str | None:
        """Why no difference can be significant with these samples (None when one can)."""
        power = self.settings.get("resolution")
        return warning([power], dict.fromkeys(METHODS, "--samples {}")) if power else None

    def to_json(self) -> dict[str, Any]:
        def who(run: StoredRun) -> dict[str, str]:
            return {"experiment": run.record["experiment"], "version": run.record["version"],
                    "path": str(run.path)}

        warning = self.resolution_warning
        return {"run_a": who(self.run_a), "run_b": who(self.run_b), **self.settings,
                **({"resolution_warning": warning} if warning else {}),
                "p_label": self.p_label,
                "comparisons": self.rows, "unmatched_systems": self.unmatched,
                "regressions": len(self.regressions),
                "improvements": sum(r["verdict"] == "improvement" for r in self.rows),
                "unchanged": sum(r["verdict"] == "unchanged" for r in self.rows)}


def _refs(record: Mapping[str, Any], test_set: str) -> list[dict[str, Any]]:
    return [i for i in record["inputs"] if i["test_set"] == test_set and i["role"] == "reference"]


def _output(record: Mapping[str, Any], test_set: str, system: str) -> str | None:
    """The sha256 of ``system``'s output file on ``test_set``, as recorded."""
    return next((i["sha256"] for i in record["inputs"] if i["role"] == "system"
                 and i["test_set"] == test_set and i.get("system") == system), None)


def differences(a: Mapping[str, Any], b: Mapping[str, Any], metrics: Sequence[str]) -> list[str]:
    """Why the two records cannot be compared (empty: they can)."""
    out = []
    ts_a = {t["name"]: t for t in a["test_sets"]}
    ts_b = {t["name"]: t for t in b["test_sets"]}
    for name in ts_a.keys() - ts_b.keys():
        out.append(f"test set '{name}' is only in run A")
    for name in ts_b.keys() - ts_a.keys():
        out.append(f"test set '{name}' is only in run B")
    specs_a = {(s["test_set"], s["metric"]): s for s in a["specs"]}
    specs_b = {(s["test_set"], s["metric"]): s for s in b["specs"]}
    for name in sorted(ts_a.keys() & ts_b.keys()):
        if ts_a[name]["segments"] != ts_b[name]["segments"]:
            out.append(f"test set '{name}' has {ts_a[name]['segments']} segments in run A but "
                       f"{ts_b[name]['segments']} in run B")
        ra, rb = _refs(a, name), _refs(b, name)
        if [r["sha256"] for r in ra] != [r["sha256"] for r in rb]:
            out.append(f"test set '{name}': references differ: run A "
                       + ", ".join(f"{r['path']} ({r['sha256'][:12]}...)" for r in ra)
                       + "; run B " + ", ".join(f"{r['path']} ({r['sha256'][:12]}...)" for r in rb))
        for metric in metrics:
            sa, sb = specs_a.get((name, metric)), specs_b.get((name, metric))
            if not sa or not sb:
                out.append(f"metric '{metric}' on test set '{name}' has no definition in run "
                           f"{'A' if not sa else 'B'}")
            elif sa["definition"] != sb["definition"]:
                out.append(f"metric '{metric}' on test set '{name}' is defined differently "
                           f"({describe_changes(sa['definition'], sb['definition'])}): "
                           f"{sa['signature']} vs {sb['signature']}")
    return out


def _metrics(a: Mapping[str, Any], b: Mapping[str, Any], wanted: str | None) -> list[str]:
    def corpus(rec: Mapping[str, Any]) -> list[str]:
        return [m["name"] for m in rec["metrics"] if "corpus" in m["levels"]]

    in_a, in_b = corpus(a), corpus(b)
    common = [m for m in in_a if m in in_b]
    if wanted is not None:
        if wanted not in common:
            raise EvalfwError(f"--metric {wanted}: not a corpus-level metric of both runs"
                              f"{suggest(wanted, common)}; common metrics: "
                              f"{', '.join(common) or 'none'}")
        return [wanted]
    if not common:
        raise EvalfwError(f"the runs share no corpus-level metric (run A: {', '.join(in_a)}; "
                          f"run B: {', '.join(in_b)}); nothing to compare")
    return common


def _stats(run: StoredRun, arrays: Mapping[str, Any], test_set: str, label: str,
           metric: Metric) -> dict[str, np.ndarray]:
    out = {}
    for r in run.record["results"]:
        if (r["test_set"], r["metric"], r["level"]) == (test_set, label, "corpus"):
            stats = run.statistics(arrays, r["segments"], metric)
            problem = metric.check_statistics(stats)
            if problem is not None:
                raise RecordError(f"{run.path}: {test_set}/{r['system']}/{label}: the stored "
                                  f"statistics are not valid ({problem}); the segments file "
                                  "is damaged")
            out[r["system"]] = stats
    return out


def compare_runs(run_a: StoredRun, run_b: StoredRun, host: PluginHost, *,
                 metric: str | None = None, alpha: float = 0.05, method: str = "bootstrap",
                 samples: int | None = None, seed: int | None = None,
                 correction: str = "holm", family: str = "table",
                 margin: float | None = None) -> Comparison:
    """Test every common system of B against the same system of A (see module docstring);
    with ``margin`` (in the metric's units), a non-inferiority check instead."""
    a, b = run_a.record, run_b.record
    if margin is not None and method != "bootstrap":
        raise EvalfwError("--margin bounds the difference by the paired bootstrap's "
                          "interval; drop --method ar")
    if margin is not None and not margin > 0:
        raise EvalfwError(f"--margin must be a positive difference in the metric's units, "
                          f"got {margin!r}")
    metrics = _metrics(a, b, metric)
    problems = differences(a, b, metrics)
    if problems:
        raise EvalfwError(f"cannot compare {run_a.path} (A) with {run_b.path} (B): they did not "
                          "score the same inputs: " + "; ".join(problems))
    seed = a["seed"] if seed is None else seed
    n = samples or sig.DEFAULT_N[method]
    result = Comparison(run_a, run_b, {"metric": metric, "alpha": alpha, "method": method,
                                       "samples": n, "seed": seed, "correction": correction,
                                       "family": family, "margin": margin})
    found = _cells(run_a, run_b, host, metrics, result)
    if not found:
        raise EvalfwError("the runs have no system in common (systems are matched by name): "
                          + "; ".join(result.unmatched))
    # a system whose output is byte-identical in both runs (so are the rows a test would use;
    # a metric reading score files, or another on_flag, may still differ) is unchanged: not
    # tested, and no member of a correction family
    cells = [c for c in found if not c.unchanged]
    keys = [family_key(family, "comparisons", method, c.test_set, c.label) for c in cells]
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    comps = []
    for cell, key in zip(cells, keys):
        size = len(groups[key])
        # with a margin: the one-sided bound at 1 - alpha / m (Bonferroni; none: 1 - alpha)
        # is an end of the two-sided interval at 1 - 2 alpha / m
        level = 1 - 2 * alpha / (size if correction != "none" else 1) if margin else 0.95
        with warnings.catch_warnings():  # NLTK-style zero-count warnings, per resample
            warnings.simplefilter("ignore", UserWarning)
            out = sig.paired_analysis({"A": cell.a, "B": cell.b}, "A", cell.metric, method, n,
                                      seed, "default", level)
        comps.append((out.comparisons[0], level))
    adjusted: list[float | None] = [None] * len(comps)
    for members in groups.values():
        for i, value in zip(members, adjust([comps[i][0].p_value for i in members], correction)
                            or ()):
            adjusted[i] = value
    for cell, (c, level), p_adj, key in zip(cells, comps, adjusted, keys):
        row = {"test_set": cell.test_set, "metric": cell.label, "system": cell.system,
               "score_a": c.baseline_score, "score_b": c.score, "delta": c.delta,
               "p_value": c.p_value, "p_adjusted": p_adj, "family_size": len(groups[key]),
               "delta_lower": c.delta_lower, "delta_upper": c.delta_upper,
               "score_scale": cell.scale, "higher_is_better": cell.higher,
               "verdict": _verdict(c, p_adj, alpha, cell.higher)}
        if margin is not None:
            row.update(_margin(c, level, margin, cell.higher))
        result.rows.append(row)
    result.rows += [_unchanged_row(c, margin) for c in found if c.unchanged]
    order = [(c.test_set, c.label, c.system) for c in found]
    result.rows.sort(key=lambda r: order.index((r["test_set"], r["metric"], r["system"])))
    if groups:
        largest = max(len(members) for members in groups.values())
        result.settings["resolution"] = {
            "kind": "comparisons", "family": family,
            **p_value_resolution(method, n, largest, correction, alpha).to_json()}
    return result


def _unchanged_row(cell: _Cell, margin: float | None) -> dict[str, Any]:
    """The row of a system whose output is byte-identical in both runs: its score on the
    segments a test would use, no test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        score = float(cell.metric.score(cell.a))
    return {"test_set": cell.test_set, "metric": cell.label, "system": cell.system,
            "score_a": score, "score_b": score, "delta": 0.0, "p_value": None,
            "p_adjusted": None, "family_size": None, "delta_lower": None, "delta_upper": None,
            "score_scale": cell.scale, "higher_is_better": cell.higher,
            "verdict": "unchanged",
            **({"bound": 0.0, "bound_level": None, "margin_verdict": "unchanged"} if margin
               else {})}


@dataclass(frozen=True)
class _Cell:
    """One system of one test set x metric, in both runs."""

    test_set: str
    label: str
    system: str
    metric: Metric
    a: np.ndarray
    b: np.ndarray
    scale: float
    higher: bool
    #: the same output file (by sha256) and the same rows in both runs
    unchanged: bool = False


def _cells(run_a: StoredRun, run_b: StoredRun, host: PluginHost, metrics: Sequence[str],
           result: Comparison) -> list[_Cell]:
    """Every common system of every test set x metric, its stored statistics checked to
    score as recorded, with each run's ``on_flag`` applied (the systems of one run only go to
    ``result.unmatched``)."""
    arrays_a, arrays_b = run_a.segments(), run_b.segments()
    out = []
    for ts in run_a.record["test_sets"]:
        for m in metrics:
            metric = recorded_metric(host, run_a, ts["name"], m)
            recorded_metric(host, run_b, ts["name"], m)  # defined as in A
            sa = _stats(run_a, arrays_a, ts["name"], m, metric)
            sb = _stats(run_b, arrays_b, ts["name"], m, metric)
            result.unmatched += [f"{ts['name']}/{m}: {s} only in run {'A' if s in sa else 'B'}"
                                 for s in [*sa, *sb] if (s in sa) != (s in sb)]
            scale = metric.resolve_scale([*sa.values(), *sb.values()])
            # each run's on_flag, from the flags its record lists; the tests use the segments
            # neither run left out
            ca, cb = (Conclusions.of_record(r, ts["name"]) for r in (run_a.record,
                                                                      run_b.record))
            kept = ~(ca.dropped(ts["segments"]) | cb.dropped(ts["segments"]))
            for system in [s for s in sa if s in sb]:
                _check_rescored(metric, ca.statistics(metric, system, sa[system]), run_a,
                                ts["name"], system, m)
                _check_rescored(metric, cb.statistics(metric, system, sb[system]), run_b,
                                ts["name"], system, m)
                rows_a = ca.penalised(metric, system, sa[system])[kept]
                rows_b = cb.penalised(metric, system, sb[system])[kept]
                same = _output(run_a.record, ts["name"], system)
                unchanged = same is not None and same == _output(
                    run_b.record, ts["name"], system) and _equal(rows_a, rows_b)
                out.append(_Cell(ts["name"], m, system, metric, rows_a, rows_b, scale,
                                 bool(metric.higher_is_better), unchanged))
    return out


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    import numpy as np

    return bool(np.array_equal(a, b))


def _verdict(c: ComparisonResult, p_adj: float | None, alpha: float, higher: bool) -> str:
    p = c.p_value if p_adj is None else p_adj
    if p <= alpha and c.delta != 0 and not c.zero_variance:
        return "improvement" if (c.delta > 0) == higher else "regression"
    return "inconclusive"


def _margin(c: ComparisonResult, level: float, margin: float, higher: bool) -> dict[str, Any]:
    """Non-inferiority: B's worst plausible change (the one-sided bound of B - A towards a
    regression) against the margin."""
    bound = c.delta_lower if higher else c.delta_upper
    assert bound is not None  # the paired bootstrap always has its interval
    shown = bound > -margin if higher else bound < margin
    return {"bound": bound, "bound_level": 1 - (1 - level) / 2,
            "margin_verdict": f"no regression larger than {margin:g}" if shown else
            f"a regression larger than {margin:g} is not excluded"}


def _check_rescored(metric: Metric, stats: np.ndarray, run: StoredRun, test_set: str,
                    system: str, label: str) -> None:
    """The rebuilt spec must give the recorded score, else the tests would test other
    numbers."""
    row = next(r for r in run.record["results"] if (r["test_set"], r["system"], r["metric"],
                                                    r["level"]) == (test_set, system, label,
                                                                    "corpus"))
    recorded = row["score"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        score = metric.score(stats)
    if score != recorded:
        raise RecordError(f"{run.path}: {test_set}/{system}/{label}: the stored statistics "
                          f"score {score!r} now but {recorded!r} was recorded; run "
                          "`evalfw verify` on it to see why")


def p_text(row: Mapping[str, Any], samples: int) -> str:
    """The p-value a comparison's verdict rests on (adjusted, when corrected) as the table and
    the regression line print it: ``<`` before it when no resample was as extreme (it is then
    only known to be below that), ``-`` for a system not tested (unchanged)."""
    if row["p_value"] is None:
        return "-"
    p = row["p_adjusted"] if row["p_adjusted"] is not None else row["p_value"]
    floor = row["p_value"] <= 1 / (samples + 1) and p < 1.0
    return f"{'<' if floor else ''}{p:.4f}"


def check(result: Comparison) -> None:
    """Raise RegressionDetected naming every significant regression (with a margin: every
    regression larger than it that is not excluded)."""
    bad = result.regressions
    margin = result.settings.get("margin")
    if bad and margin is not None:
        listing = "; ".join(f"{r['test_set']}/{r['metric']}/{r['system']} {r['score_a']:.2f} -> "
                            f"{r['score_b']:.2f} (bound {r['bound']:+.2f})" for r in bad)
        raise RegressionDetected(f"{len(bad)} regression(s) larger than the margin {margin:g} "
                                 f"not excluded from A to B at alpha "
                                 f"{result.settings['alpha']:g}: {listing}")
    if bad:
        # the p-value the verdict rests on, named as the table names it
        label = result.p_label
        samples = result.settings["samples"]
        listing = "; ".join(f"{r['test_set']}/{r['metric']}/{r['system']} {r['score_a']:.2f} -> "
                            f"{r['score_b']:.2f} ({label} = {p_text(r, samples)})" for r in bad)
        raise RegressionDetected(f"{len(bad)} significant regression(s) from A to B at "
                                 f"alpha {result.settings['alpha']:g}: {listing}")


__all__ = ["check", "compare_runs", "Comparison", "differences", "p_text"]
