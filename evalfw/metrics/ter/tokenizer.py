"""sacreBLEU 2.6.0's TERCOM normaliser (its ``TercomTokenizer``), as a function of the options.

Order: strip trailing whitespace, lowercase (unless case-sensitive), then the western
normalisation (``normalized``), the CJK splitting (``normalized`` and ``asian_support``), the
punctuation removal (``no_punct``, plus CJK punctuation with ``asian_support``), and finally
whitespace collapsing. The western steps are sequential leftmost non-overlapping substitutions,
so they stay separate regular expressions applied in the same order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

_ASIAN_PUNCT = "\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
_FULL_WIDTH_PUNCT = "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09"

_WESTERN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), r) for p, r in (
        (r"\n-", ""),                     # end-of-line hyphenation
        (r"\n", " "),                     # join lines
        (r"&quot;", '"'), (r"&amp;", "&"), (r"&lt;", "<"), (r"&gt;", ">"),
    ))
_WESTERN_PADDED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), r) for p, r in (
        # ASCII punctuation and symbols except ' , - . (and digits, letters)
        (r"([\x20-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])", r" \1 "),
        (r"'s ", r" 's "), (r"'s$", r" 's"),          # possessives
        (r"([^0-9])([\.,])", r"\1 \2 "),              # . , unless preceded by a digit
        (r"([\.,])([^0-9])", r" \1 \2"),              # . , unless followed by a digit
        (r"([0-9])(-)", r"\1 \2 "),                   # - preceded by a digit
    ))

# Every character of these ranges becomes a token of its own: one class does what sacreBLEU's
# successive substitutions do, since each only adds spaces around its characters. Its kana
# rules are left out: they can only match at the start of the text, which after the western
# step is always the padding space, so they never split anything.
# The CJK patterns are compiled by the variants that use them (large classes: slow to compile).
_ASIAN_SPLIT = ("([\u4e00-\u9fff\u3400-\u4dbf\u31c0-\u31ef\u2e80-\u2eff\u3300-\u33ff"
                "\uf900-\ufaff\ufe30-\ufe4f\u3200-\u3f22" + _ASIAN_PUNCT + _FULL_WIDTH_PUNCT
                + "])")
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_CLASS = "[" + _ASIAN_PUNCT + _FULL_WIDTH_PUNCT + "]"


def _western(text: str) -> str:
    for pattern, repl in _WESTERN:
        text = pattern.sub(repl, text)
    text = f" {text} "
    for pattern, repl in _WESTERN_PADDED:
        text = pattern.sub(repl, text)
    return text


@functools.lru_cache(maxsize=64)
def tokenizer(normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
              case_sensitive: bool = False) -> Callable[[str], list[str]]:
    """The tokens sacreBLEU's TER reads from one line (its ``_preprocess_segment`` then
    ``split()``)."""
    if not (normalized or no_punct):  # the common case: only case folding
        if case_sensitive:
            return str.split
        return lambda text: text.lower().split()

    asian_split = re.compile(_ASIAN_SPLIT) if asian_support and normalized else None
    asian_punct = re.compile(_ASIAN_PUNCT_CLASS) if asian_support and no_punct else None

    def tokens(text: str) -> list[str]:
        text = text.rstrip()
        if not text:
            return []
        if not case_sensitive:
            text = text.lower()
        if normalized:
            text = _western(text)
            if asian_split is not None:
                text = asian_split.sub(r" \1 ", text)
        if no_punct:
            text = _PUNCT.sub("", text)
            if asian_punct is not None:
                text = asian_punct.sub("", text)
        return text.split()

    return tokens


def reference_tokens(tokens: Callable[[str], list[str]], text: str) -> list[str]:
    """Reference tokens: sacreBLEU normalises references twice (once when caching them, once
    when reading the cache), and the western step is not idempotent (``Bob's.``)."""
    return tokens(" ".join(tokens(text)))


__all__ = ["reference_tokens", "tokenizer"]
