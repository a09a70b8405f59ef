"""Scores of many BLEU statistic rows in one call of sacreBLEU's formula compiled in C (the
counting kernel's ``bleu_rows``, ``counting/_sacrebleu_formula.h``): sentence scores and
resampled corpus scores.

The Python reference is the definition: the built-in sacreBLEU brevity penalty
(:mod:`evalfw.metrics.bleu.families.brevity`), smoothing and mean
(:mod:`evalfw.metrics.bleu.families.sacrebleu`), as :func:`engine.score_counts` applies them. The
compiled formula computes the same floats bit for bit (the differential tests compare them on
every Python it is built for) and serves only specs whose penalty, smoothing and mean are those
built-in classes themselves, with uniform weights (:func:`compiled_formula`). Every other spec,
a run without the kernel, and rows the kernel declines (a count of 2**53 or more) are scored
row by row by the reference (the callers' general paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from evalfw.metrics.bleu.counting import kernel
from evalfw.metrics.bleu.families.brevity import Closest, ClosestFirst, Shortest
from evalfw.metrics.bleu.families.sacrebleu import AddK, Exp, Floor, NoSmoothing, SacreMean
from evalfw.metrics.bleu.result import BleuScore

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.spec import BleuSpec

#: (effective order, smoothing number, floor's value, add-k's k): the formula's arguments
Formula = tuple[bool, int, float, int]

#: the smoothing numbers of ``_sacrebleu_formula.h``
_SMOOTHING: dict[type, int] = {NoSmoothing: 0, Floor: 1, AddK: 2, Exp: 3}
#: values below this are exact doubles, where the C arithmetic is Python's
_EXACT = 1 << 53


def compiled_formula(spec: BleuSpec) -> Formula | None:
    """The compiled formula's arguments when it scores ``spec`` exactly: the kernel is built
    with the formula (it is on the Pythons whose ``sum()`` it reproduces) and ``spec`` has the
    built-in classes themselves (not subclasses) of sacreBLEU's brevity penalty (any reference
    rule, the ``sacrebleu`` formula), smoothing and mean, uniform weights, a floor value or an
    integer add-k value below 2**53; else None (a fractional k stays in Python, where it turns
    the counts into floats)."""
    if not hasattr(kernel.kernel(), "bleu_rows"):
        return None
    bp, smoothing, mean = spec.brevity_penalty, spec.smoothing, spec.mean
    code = _SMOOTHING.get(type(smoothing))
    if type(bp) not in (Closest, ClosestFirst, Shortest) or bp.options["formula"] != "sacrebleu" \
            or code is None or type(mean) is not SacreMean or spec.weights is not None:
        return None
    effective = bool(mean.options["effective_order"])
    value: Any = smoothing.options.get("value")
    if type(smoothing) is Floor:
        if type(value) not in (int, float) or not 0 <= value < _EXACT:
            return None
        return effective, code, float(value), 0
    if type(smoothing) is AddK:
        if type(value) is not int or not 0 <= value < _EXACT:
            return None
        return effective, code, 0.0, value
    return effective, code, 0.0, 0


def applies(spec: BleuSpec) -> bool:
    """Whether :func:`row_scores` scores ``spec``."""
    return compiled_formula(spec) is not None


class Rows(NamedTuple):
    """Every row's score, precisions, brevity penalty, and the counts sacreBLEU reports
    (add-k's counts include k)."""

    scores: np.ndarray
    precisions: np.ndarray
    bp: np.ndarray
    matches: np.ndarray
    totals: np.ndarray


def row_scores(spec: BleuSpec, hyp_len: np.ndarray, ref_len: np.ndarray, matches: np.ndarray,
               totals: np.ndarray) -> Rows | None:
    """The compiled formula on every row (``matches`` and ``totals``: rows x ``max_order``),
    or None where it does not apply (see the module docstring)."""
    formula = compiled_formula(spec)
    k = kernel.kernel()
    if formula is None or k is None:
        return None
    import numpy as np

    rows, order = len(hyp_len), spec.max_order
    out = k.bleu_rows(*(np.ascontiguousarray(a, dtype=np.int64)
                        for a in (hyp_len, ref_len, matches, totals)), rows, order, *formula)
    if out is None:
        return None
    score, prec, bp, correct, total = out
    return Rows(np.frombuffer(score, np.float64), np.frombuffer(prec, np.float64).reshape(rows, order),
                np.frombuffer(bp, np.float64), np.frombuffer(correct, np.int64).reshape(rows, order),
                np.frombuffer(total, np.int64).reshape(rows, order))


def results(spec: BleuSpec, rows: Rows, hyp_len: np.ndarray, ref_len: np.ndarray,
            nrefs: int | str) -> list[BleuScore]:
    """Every row's :class:`BleuScore`, equal to the one ``engine.score_counts`` builds."""
    common = {
        "signature": spec.signature(nrefs),
        "sacrebleu_signature": spec.foreign_signature(nrefs),
        "score_scale": spec.mean.score_scale,
        "precision_scale": spec.smoothing.scale,
        "name": "BLEU",
    }
    out: list[BleuScore] = []
    new = BleuScore.__new__
    put = object.__setattr__
    fields = zip(rows.scores.tolist(), map(tuple, rows.precisions.tolist()),
                 map(tuple, rows.matches.tolist()), map(tuple, rows.totals.tolist()),
                 rows.bp.tolist(), hyp_len.tolist(), ref_len.tolist())
    for s, p, c, t, b, h, r in fields:
        # A frozen dataclass's __init__ sets 14 fields one object.__setattr__ at a time;
        # filling __dict__ in one go builds an equal object about six times faster.
        obj = new(BleuScore)
        put(obj, "__dict__", {"score": s, "precisions": p, "counts": c, "totals": t, "bp": b,
                              "hyp_len": h, "ref_len": r, "scores": (s,), "extra": {},
                              **common})
        out.append(obj)
    return out


__all__ = ["applies", "compiled_formula", "Formula", "results", "row_scores", "Rows"]
