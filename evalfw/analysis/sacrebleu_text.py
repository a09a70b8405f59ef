"""The text sacreBLEU 2.6.0 prints for intervals and paired tests, and its signature fields.

- single system with ``--confidence``: ``33.3 (μ = 33.3 ± 0.9)`` (the interval only when the
  mean is > 0), JSON keys ``confidence_mean``, ``confidence_var`` (the half-width) and
  ``confidence``;
- paired table cells: ``26.7 (26.6 ± 0.7)`` then ``(p = 0.3077)`` on a new line (fancy grid)
  or after a space, with ``*`` when p <= 0.05;
- signature: ``bs:<n>``/``ar:<n>`` and ``seed:<seed>`` right after ``nrefs`` (short forms
  ``bs``, ``ar``, ``rs``).
"""

from __future__ import annotations

from typing import Any

from evalfw.analysis.results import ComparisonResult, ConfidenceResult

_SHORT = {"bs": "bs", "ar": "ar", "seed": "rs"}


def signature_with(signature: str, *, bs: int | None = None, ar: int | None = None,
                   seed: str | None = None, short: bool = False) -> str:
    """Insert sacreBLEU's resampling fields after the first (``nrefs``/``#``) field."""
    head, _, rest = signature.partition("|")
    fields = [head]
    for key, value in (("bs", bs), ("ar", ar), ("seed", seed)):
        if value is not None:
            fields.append(f"{_SHORT[key] if short else key}:{value}")
    return "|".join(fields + ([rest] if rest else []))


def confidence_signature(signature: str, result: ConfidenceResult, seed_label: str,
                         short: bool = False) -> str:
    """``--confidence``: ``bs:<n>|seed:<label>`` (label as written in $SACREBLEU_SEED)."""
    return signature_with(signature, bs=result.n, seed=seed_label, short=short)


def paired_signature(signature: str, method: str, n: int, seed: int | None,
                     short: bool = False) -> str:
    """``--paired-bs``/``--paired-ar``: the seed as the integer sacreBLEU parsed (or none)."""
    key = {"bootstrap": "bs", "ar": "ar"}[method]
    return signature_with(signature, **{key: n}, seed=str(seed).lower(), short=short)


def confidence_text(score: float, result: ConfidenceResult | None, width: int) -> str:
    """``score (μ = mean ± ci)``, or the score alone when there is no interval or the mean is
    not positive (sacreBLEU hides it then)."""
    text = f"{score:.{width}f}"
    if result is not None and result.mean > 0:
        text += f" (μ = {result.mean:.{width}f} ± {result.ci:.{width}f})"
    return text


def confidence_json(result: ConfidenceResult, width: int) -> dict[str, Any]:
    """The three keys sacreBLEU's JSON gains after ``signature`` (empty if mean <= 0)."""
    if result.mean <= 0:
        return {}
    mean, var = f"{result.mean:.{width}f}", f"{result.ci:.{width}f}"
    return {"confidence_mean": float(mean), "confidence_var": float(var),
            "confidence": f"μ = {mean} ± {var}"}


def p_value_text(p: float) -> str:
    return f"(p = {p:.4f})" + ("*" if p <= 0.05 else "")


def paired_cell(score: float, mean: float | None, ci: float | None, p_value: float | None,
                width: int, multiline: bool = True) -> str:
    """One table cell of sacreBLEU's paired-test output (without colours)."""
    text = f"{score:.{width}f}"
    if mean is not None and ci is not None:
        text += f" ({mean:.{width}f} ± {ci:.{width}f})"
    if p_value is not None:
        text += ("\n" if multiline else " ") + p_value_text(p_value)
    return text


def comparison_cell(result: ComparisonResult, width: int, multiline: bool = True) -> str:
    return paired_cell(result.score, result.mean, result.ci, result.p_value, width, multiline)


def baseline_cell(score: float, interval: ConfidenceResult | None, width: int) -> str:
    return paired_cell(score, interval.mean if interval else None,
                       interval.ci if interval else None, None, width)


def paired_json(score: float, p_value: float | None = None, mean: float | None = None,
                ci: float | None = None) -> dict[str, Any]:
    """A system's metric object in sacreBLEU's paired JSON (full precision)."""
    return {"score": score, "p_value": p_value, "mean": mean, "ci": ci}


def banner(method: str, n: int) -> str:
    """``Paired bootstrap resampling test with 1000 resampling trials`` (or AR), dashed."""
    msg = (f"Paired bootstrap resampling test with {n} resampling trials" if method == "bootstrap"
           else f"Paired approximate randomization test with {n} trials")
    return "-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg)
