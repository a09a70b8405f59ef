"""The ``intl`` tokenizer: mteval-v14 ``--international-tokenization`` (sacreBLEU ``intl``).

Three global substitutions on the right-stripped line, with Unicode categories as the
``regex`` module knows them (its Unicode version, not Python's ``unicodedata``):

A. after a non-number (``\\P{N}``), isolate a punctuation character (``\\p{P}``);
B. before a non-number, isolate a punctuation character;
C. isolate every symbol (``\\p{S}``).

There is no padding, so a number followed by a final full stop stays one token. Rules A and B
have the shape of mteval's rules B and C (see ``_mteval``) with "digit" read as ``\\p{N}`` and
"``.`` or ``,``" as ``\\p{P}``, and the same reasoning gives the batch path: a punctuation
character is isolated unless it ends a run, is followed by a number or the line end, and the
run parity leaves it alone. ``re`` is much faster than ``regex`` here, so the three categories
are read out of ``regex`` once per process (~10 ms) and turned into ``re`` character classes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from evalfw.tokenizers.base import JoinedTokenizer, LazyPattern, lines_at

if TYPE_CHECKING:
    import regex

_ASTRAL_START = 0x10000
#: batches take the exact per-line path until this many characters went through it (then the
#: batch patterns are built): a command line on a few hundred lines does not pay for them
SMALL = 100_000
_exact_chars = 0  # characters tokenized by the exact path instead of the batch patterns
_ASTRAL = LazyPattern("[\U00010000-\U0010ffff]")


@functools.cache
def _rules() -> tuple[tuple[regex.Pattern[str], str], ...]:
    # ``regex`` is imported on first use: the other tokenizers should not pay for it
    import regex

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


class _Patterns(NamedTuple):
    isolate: re.Pattern[str]
    hard: re.Pattern[str]


def category_class(category: str) -> str:
    """The body of an ``re`` character class matching, within the Basic Multilingual Plane,
    exactly what ``regex`` matches with ``\\p{<category>}``.

    Only the BMP: ``re`` tests BMP characters against a bitmap but code points above it
    against a list of ranges, for every character scanned, which made the batch twenty times
    slower. Lines with characters above the BMP take the exact path instead.
    """
    import regex

    bmp = "".join(map(chr, range(_ASTRAL_START)))
    parts = []
    for match in regex.finditer(rf"\p{{{category}}}+", bmp):
        first, last = match.start(), match.end() - 1
        parts.append(re.escape(chr(first)))
        if last > first:
            parts.append("-" + re.escape(chr(last)))
    return "".join(parts)


@functools.cache
def _patterns() -> _Patterns:
    p, s, n = (category_class(c) for c in "PSN")
    isolate = re.compile(
        rf"([{p}{s}])"
        rf"(?:(?<=[{s}])"  # C: symbols
        rf"|(?<=[{p}])(?![{n}\n])"  # B: followed by a non-number
        rf"|(?<=[^{n}{p}\n][{p}])"  # A: run of one after a non-number
        rf"|(?<=[{n}\n][{p}][{p}]))"  # A: second of a run after a number or line start
    )
    # a run of three or more before a number or the line end: parity needs the exact path
    hard = re.compile(rf"[{p}](?<=[{p}][{p}][{p}])(?=[{n}\n])")
    return _Patterns(isolate, hard)


def _has_astral(text: str) -> bool:
    # a str holds 4-byte code units only if it has a character above the BMP, and encoding
    # to UTF-16 is then the cheapest way to tell (lone surrogates encode to 2 bytes)
    return len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)


class TokenizerIntl(JoinedTokenizer):
    """mteval-v14 international tokenization. In the joined batch ``"\\n"`` (itself neither
    number, punctuation nor symbol) is treated like a missing neighbour, i.e. like a number."""

    name = "intl"
    version = "1"
    description = "mteval-v14 international: split Unicode punctuation and symbols"
    sacrebleu_name = "intl"
    joined = True

    def _prepare(self, lines: Sequence[str]) -> Sequence[str]:
        return [line.rstrip() for line in lines]

    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        global _exact_chars
        if _exact_chars + len(text) < SMALL and not _patterns.cache_info().currsize:
            # building the batch patterns costs what the exact path spends on ~2000 lines
            _exact_chars += len(text)
            return text, list(range(text.count("\n") - 1))
        patterns = _patterns()
        hard = lines_at(text, patterns.hard)
        if _has_astral(text):
            hard += lines_at(text, _ASTRAL)
        return " ".join(patterns.isolate.split(text)), hard

    def _exact(self, line: str) -> list[str]:
        line = line.rstrip()
        for pattern, replacement in _rules():
            line = pattern.sub(replacement, line)
        return line.split()


__all__ = ["category_class", "TokenizerIntl"]
