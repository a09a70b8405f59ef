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

from collections.abc import Callable
from typing import TYPE_CHECKING

from evalfw.compat.sacrebleu._table import render

if TYPE_CHECKING:
    from evalfw.analysis.results import ComparisonResult, ConfidenceResult

_SHORT = {"bs": "bs", "ar": "ar", "seed": "rs"}

#: colours the text (``paint(text, "red")``); sacreBLEU's colours show only on a terminal
Paint = Callable[[str, str], str]


def no_colour(text: str, colour: str) -> str:
    return text


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


#: sacreBLEU stars a p-value at most this (it corrects nothing)
STAR_ALPHA = 0.05


def p_value_text(p: float, paint: Paint = no_colour) -> str:
    """``(p = 0.0010)*``; a p-value above ``STAR_ALPHA`` has no star and is red."""
    text = f"(p = {p:.4f})"
    return text + "*" if p <= STAR_ALPHA else paint(text, "red")


def paired_cell(score: float, mean: float | None, ci: float | None, p_value: float | None,
                width: int, multiline: bool = True, paint: Paint = no_colour) -> str:
    """One table cell of sacreBLEU's paired-test output."""
    text = f"{score:.{width}f}"
    if mean is not None and ci is not None:
        text += f" ({mean:.{width}f} ± {ci:.{width}f})"
    if p_value is not None:
        text += ("\n" if multiline else " ") + p_value_text(p_value, paint)
    return text


def comparison_cell(result: ComparisonResult, width: int, multiline: bool = True) -> str:
    return paired_cell(result.score, result.mean, result.ci, result.p_value, width, multiline)


def baseline_cell(score: float, interval: ConfidenceResult | None, width: int) -> str:
    return paired_cell(score, interval.mean if interval else None,
                       interval.ci if interval else None, None, width)


def banner(method: str, n: int) -> str:
    """``Paired bootstrap resampling test with 1000 resampling trials`` (or AR), dashed."""
    msg = (f"Paired bootstrap resampling test with {n} resampling trials" if method == "bootstrap"
           else f"Paired approximate randomization test with {n} trials")
    return "-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg)


def fancy_grid(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A table in tabulate's ``fancy_grid`` style as sacreBLEU prints it (see
    :mod:`evalfw.compat.sacrebleu._table`)."""
    return render(list(header), [list(row) for row in rows], "fancy_grid")


def paired_explanation(method: str, n: int, baseline_name: str,
                       paint: Paint = no_colour) -> str:
    """The banner and notes sacreBLEU prints under a paired-test table."""
    base, null = paint("baseline", "yellow"), paint("Null hypothesis", "green")
    lines = [banner(method, n),
             f" - Each system is pairwise compared to {paint(baseline_name, 'yellow')}."]
    lines.append("   Actual system score / bootstrap estimated true mean / 95% CI are provided "
                 "for each metric." if method == "bootstrap"
                 else "   Actual system score is provided for each metric.")
    lines += [
        "",
        f" - {null}: the system and the {base} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {base},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the "
        f"{null.lower()} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        f'   to chance, hence the system is significantly "different" than the {base}.',
        f"   Otherwise, the p-values are {paint('highlighted in red', 'red')}.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the '
        f"{base} but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the '
        "delta.",
        "",
    ]
    return "\n".join(lines)


def signatures_block(signatures: dict[str, str]) -> str:
    out = ["-----------------", "Metric signatures", "-----------------"]
    out += [f" - {name:<10} {sig}" for name, sig in signatures.items()]
    return "\n".join(out)
