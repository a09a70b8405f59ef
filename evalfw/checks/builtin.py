"""The built-in checks that need no extra package: ``empty``, ``copy-source``, ``length``,
``repetition`` and ``numbers`` (``language`` is :mod:`evalfw.checks.language`).

Every check but ``empty`` judges non-empty outputs only (an empty output is ``empty``'s
finding, counted once). Thresholds are options with defaults; the docs (``docs/checks.md``)
give the measurements behind each default.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Any

from evalfw.checks._text import CJK, is_empty, visible_length
from evalfw.checks.base import Check, CheckInput


def _number(low: float, high: float, default: float, description: str) -> dict[str, Any]:
    return {"type": "number", "minimum": low, "maximum": high, "default": default,
            "description": description}


def _integer(low: int, high: int, default: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "default": default,
            "description": description}


def _options(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


class Empty(Check):
    name = "empty"
    label = "empty"
    description = "the output is empty, whitespace or invisible characters only"

    def flag(self, segments: CheckInput) -> list[bool]:
        return [is_empty(h) for h in segments.hypotheses]


# ----------------------------------------------------------------------------- copy-source


def char_ngrams(text: str, n: int) -> set[str]:
    """The character n-grams of ``text`` casefolded, whitespace runs as one space (a text
    shorter than n is its own n-gram)."""
    text = " ".join(text.casefold().split())
    if len(text) <= n:
        return {text} if text else set()
    return {text[i:i + n] for i in range(len(text) - n + 1)}


class CopySource(Check):
    name = "copy-source"
    label = "copied from the source"
    description = ("the output is the source, or nearly: most of its character n-grams are "
                   "the source's, and clearly more than any reference's")
    needs_source = True
    options_schema = _options(
        order=_integer(1, 10, 3, "character n-gram length"),
        source_share=_number(0, 1, 0.8, "flag when at least this share of the output's "
                                        "n-grams occur in the source"),
        margin=_number(0, 1, 0.3, "... and this much more than occur in the closest "
                                  "reference"),
    )

    def flag(self, segments: CheckInput) -> list[bool]:
        n, share, margin = (self.options[k] for k in ("order", "source_share", "margin"))
        assert segments.source is not None
        out = []
        for i, (hyp, src) in enumerate(zip(segments.hypotheses, segments.source, strict=True)):
            grams = char_ngrams(hyp, n) if not is_empty(hyp) else set()
            if not grams:
                out.append(False)
                continue
            in_source = len(grams & char_ngrams(src, n)) / len(grams)
            if in_source < share:
                out.append(False)
                continue
            in_ref = max(len(grams & char_ngrams(refs[i], n)) / len(grams)
                         for refs in segments.references)
            out.append(in_source - in_ref >= margin)
        return out


# ----------------------------------------------------------------------------- length


#: characters added to both lengths of a ratio: damps the ratios of short segments, where
#: one word more or less moves the ratio most
LENGTH_SMOOTHING = 10


#: the least spread the length check assumes: references of nearly one ratio (a template
#: test set) would otherwise make any rewording an outlier
MIN_SCALE = 0.1


def log_ratio(output: str, source: str) -> float:
    """log((visible characters of the output + 10) / (those of the source + 10))."""
    return math.log((visible_length(output) + LENGTH_SMOOTHING)
                    / (visible_length(source) + LENGTH_SMOOTHING))


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


class Length(Check):
    name = "length"
    label = "of unusual length"
    description = ("the output/source length ratio is far outside the references' own: a "
                   "robust z-score of its log beyond the threshold, away from the test set's "
                   "median and from the segment's own references alike")
    needs_source = True
    options_schema = _options(
        threshold=_number(1, 100, 3.0, "flag when |z| is above this (z: the log ratio minus "
                                       "the references' median, over 1.4826 times their "
                                       "median absolute deviation)"),
        min_chars=_integer(0, 10_000, 20, "sources with fewer visible characters are not "
                                          "judged (their ratios are noise)"),
    )

    def flag(self, segments: CheckInput) -> list[bool]:
        assert segments.source is not None
        threshold, shortest = self.options["threshold"], self.options["min_chars"]
        source = segments.source
        center, scale = self.reference_distribution(source, segments.references, shortest)
        out = []
        for i, (hyp, src) in enumerate(zip(segments.hypotheses, source, strict=True)):
            if is_empty(hyp) or visible_length(src) < shortest:
                out.append(False)
                continue
            ratio = log_ratio(hyp, src)
            if abs(ratio - center) / scale <= threshold:
                out.append(False)
                continue
            # an output as long as one of the segment's own references is no outlier
            out.append(all(abs(ratio - log_ratio(refs[i], src)) / scale > threshold
                           for refs in segments.references if not is_empty(refs[i])))
        return out

    @staticmethod
    def reference_distribution(source: Sequence[str], references: Sequence[Sequence[str]],
                               shortest: int) -> tuple[float, float]:
        """Median and robust standard deviation (1.4826 x MAD, at least MIN_SCALE) of the
        references' log length ratios over the judged segments."""
        ratios = [log_ratio(ref, src) for refs in references
                  for ref, src in zip(refs, source, strict=True)
                  if visible_length(src) >= shortest and not is_empty(ref)]
        if not ratios:
            return 0.0, MIN_SCALE
        center = median(ratios)
        return center, max(MIN_SCALE, 1.4826 * median([abs(r - center) for r in ratios]))


# ----------------------------------------------------------------------------- repetition

#: a unit of 2 to 60 characters and the copies that follow it right after
_LOOP = re.compile(r"(.{2,60}?)\1+", re.S)
_LETTER = re.compile(r"[^\W\d_]")
#: words, and each Chinese or Japanese character as a word of its own
_TOKENS = re.compile(f"[{CJK}]|[^\\W_]+")


def longest_loop(text: str) -> int:
    """How many times in a row the most repeated unit (2 to 60 characters, with a letter)
    occurs in ``text``; 1 when nothing repeats."""
    most = 1
    for found in _LOOP.finditer(text):
        unit = found.group(1)
        if _LETTER.search(unit):
            most = max(most, len(found.group(0)) // len(unit))
    return most


def top_share(tokens: Sequence[str], order: int) -> tuple[float, int]:
    """The largest share of ``tokens`` that one n-gram (n up to ``order``) covers, and how
    often that n-gram occurs."""
    best = (0.0, 0)
    for n in range(1, order + 1):
        if len(tokens) < 2 * n:
            break
        count = Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)
                        ).most_common(1)[0][1]
        best = max(best, (count * n / len(tokens), count))
    return best


class Repetition(Check):
    name = "repetition"
    label = "repeating"
    description = ("the output loops: a phrase repeated many times in a row, or one n-gram "
                   "making up a large share of it, more than the source or a reference "
                   "repeats anything")
    options_schema = _options(
        repeats=_integer(2, 100, 4, "a phrase (2 to 60 characters, with a letter) this many "
                                    "times in a row, and 2 more than the source or a "
                                    "reference repeats one, is a loop"),
        share=_number(0, 1, 0.5, "... or one n-gram of up to `order` words (Chinese or "
                                 "Japanese characters) covering this share of the output"),
        order=_integer(1, 10, 4, "longest n-gram of the share test"),
        min_words=_integer(1, 10_000, 12, "outputs with fewer words are not judged by the "
                                          "share test"),
    )

    def flag(self, segments: CheckInput) -> list[bool]:
        others = [*([segments.source] if segments.source is not None else []),
                  *segments.references]
        repeats = self.options["repeats"]
        out = []
        for i, hyp in enumerate(segments.hypotheses):
            tokens = _TOKENS.findall(hyp.casefold())
            # a loop repeats some word (or character) `repeats` times at least: most outputs
            # are cleared here, before any backtracking search
            if len(tokens) < repeats or Counter(tokens).most_common(1)[0][1] < repeats:
                out.append(False)
                continue
            out.append(self._loops(hyp, tokens, [t[i] for t in others]))
        return out

    def _loops(self, hyp: str, tokens: list[str], others: list[str]) -> bool:
        repeats, order = self.options["repeats"], self.options["order"]
        run = longest_loop(hyp)
        if run >= repeats and run >= 2 + max(map(longest_loop, others), default=0):
            return True
        if len(tokens) < self.options["min_words"]:
            return False
        share, count = top_share(tokens, order)
        if share < self.options["share"] or count < repeats:
            return False
        return all(top_share(_TOKENS.findall(o.casefold()), order)[0] < share for o in others)


# ----------------------------------------------------------------------------- numbers

#: a number: digits with the separators numbers are written with (1,000.5; 1.000,5; 1 000
#: with a no-break or thin space), and a Chinese or Japanese multiplier after it (10万)
_NUMBER = re.compile(r"(\d+(?:[.,\u00a0\u202f\u2009]\d+)*)\s?([万萬亿億兆千百]?)")
_MULTIPLIERS = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12, "千": 10**3,
                "百": 10**2}


def _ascii(digits: str) -> str:
    return digits if digits.isascii() else "".join(str(unicodedata.decimal(c)) for c in digits)


def numbers(text: str) -> list[str]:
    """The digit strings of the numbers in ``text``: separators dropped, any script's decimal
    digits as ASCII, and a number with a multiplier (10万) also as its value (100000)."""
    out = []
    for token, multiplier in _NUMBER.findall(text):
        digits = _ascii("".join(c for c in token if c.isdecimal()))
        out.append(digits)
        if multiplier:
            whole, _, fraction = _ascii(token).replace(",", ".").partition(".")
            value = (int(whole or "0") * 10 ** len(fraction) + int(fraction or "0")) \
                * _MULTIPLIERS[multiplier] // 10 ** len(fraction)
            out.append(str(value))
    return out


class Numbers(Check):
    name = "numbers"
    label = "missing a number"
    description = ("a number of the source appears in no form in the output (digit "
                   "separators and full-width digits aside), while a reference has it")
    needs_source = True
    options_schema = _options(
        min_value=_integer(0, 10**9, 13, "smaller numbers are not checked (they are often "
                                         "written as words: ten, zwölf)"),
        confirmed=({"type": "boolean", "default": True,
                    "description": "flag a missing number only when some reference has it "
                                   "(a translator may convert units, times or spell it out)"}),
    )

    def flag(self, segments: CheckInput) -> list[bool]:
        assert segments.source is not None
        smallest, confirmed = self.options["min_value"], self.options["confirmed"]
        out = []
        for i, (hyp, src) in enumerate(zip(segments.hypotheses, segments.source, strict=True)):
            wanted = [d for d in numbers(src) if len(d) > 12 or int(d) >= smallest] \
                if any(c.isdigit() for c in src) else []
            if not wanted or is_empty(hyp):
                out.append(False)
                continue
            have = numbers(hyp)
            missing = [d for d in wanted if not any(d in h for h in have)]
            if missing and confirmed:
                in_refs = [numbers(refs[i]) for refs in segments.references]
                missing = [d for d in missing if any(any(d in r for r in ref) for ref in in_refs)]
            out.append(bool(missing))
        return out


BUILTIN: tuple[type[Check], ...] = (Empty, CopySource, Length, Repetition, Numbers)
#: the checks a config without ``checks:`` runs: the built-ins that need no extra package
DEFAULT_CHECKS: tuple[str, ...] = tuple(c.name for c in BUILTIN)

__all__ = ["BUILTIN", "char_ngrams", "CopySource", "DEFAULT_CHECKS", "Empty", "Length",
           "log_ratio", "longest_loop", "numbers", "Numbers", "Repetition", "top_share"]
