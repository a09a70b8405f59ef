"""The ``zh`` tokenizer: every "Chinese" character is a token, the rest goes through
mteval's punctuation rules (sacreBLEU ``zh``, after Shujian Huang's script).

sacreBLEU means to split CJK ideographs, CJK punctuation, fullwidth forms and a few symbol
blocks, but its range table writes five-hex-digit code points as ``\\uXXXX`` escapes
(``"\\u20000"`` is U+2000 followed by ``"0"``). Compared with one-character strings those
bounds give different ranges: U+2001-U+2A6D (general punctuation, currency, arrows, maths
and more, even U+200B) is split, CJK Extension B and the compatibility supplement are not.
What counts is what sacreBLEU computes, so ``ZH_RANGES`` is its *effective* set (checked
against sacreBLEU over all code points in the tests). Hiragana and Katakana are not in it.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from evalfw.tokenizers import _mteval
from evalfw.tokenizers.base import JoinedTokenizer

if TYPE_CHECKING:
    import numpy as np

#: inclusive code point ranges that sacreBLEU 2.6.0's zh tokenizer puts spaces around
ZH_RANGES: tuple[tuple[int, int], ...] = (
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),
    (0x3100, 0x312F),
    (0x31A0, 0x31EF),
    (0x3200, 0x4DB5),
    (0x4E00, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
)

@functools.cache
def _zh_table() -> np.ndarray:
    """Boolean lookup table over all code points (1.1 MB, built once)."""
    import numpy as np

    table = np.zeros(0x110000, dtype=bool)
    for first, last in ZH_RANGES:
        table[first : last + 1] = True
    return table


class _Spacer(dict[int, str]):
    """A ``str.translate`` table: a Chinese character to itself between spaces, any other to
    itself. Filled on first sight of each code point, so it holds only those met."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        value = f" {char} " if any(a <= code <= b for a, b in ZH_RANGES) else char
        self[code] = value
        return value


_SPACER = _Spacer()
#: texts up to this many characters are spaced out with ``str.translate``; longer ones (whole
#: batches) with numpy, whose setup costs more than a short text's translation
_SHORT = 4096
#: from this many characters numpy is worth importing for it (its import costs more than the
#: spacing of a smaller text); below, a batch uses numpy only if the process has it loaded
_IMPORT_NUMPY = 2_000_000


def space_out(text: str) -> str:
    """Put a space on both sides of every Chinese character of ``text``.

    Chinese text has one match per character, which makes a regex or a per-character Python
    loop the slowest step of the whole tokenizer: a short text goes through ``str.translate``,
    a batch is vectorized over code points. Either way the output is exactly sacreBLEU's string
    (two spaces between neighbouring Chinese characters).
    """
    if len(text) <= _SHORT or (len(text) < _IMPORT_NUMPY and "numpy" not in sys.modules):
        return text.translate(_SPACER)
    return _space_out_vectorized(text)


def _space_out_vectorized(text: str) -> str:
    """:func:`space_out` over code points with numpy."""
    import numpy as np

    # surrogatepass: a str may hold lone surrogates (e.g. from surrogateescape decoding)
    code = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    hit = _zh_table()[code]
    count = int(np.count_nonzero(hit))
    if not count:
        return text
    size = len(code) + 2 * count
    index = np.int32 if size < 2**31 else np.int64  # half the memory traffic of intp
    step = hit.view(np.int8).astype(index)
    # character i moves right by two spaces per earlier Chinese character, plus its own
    # leading space: i + 2 * (hits up to and including i) - hit[i]
    shift = np.cumsum(step, dtype=index)
    where: np.ndarray = np.arange(len(code), dtype=index)
    where += shift
    where += shift
    where -= step
    out = np.full(size, 0x20, dtype=np.uint32)
    out[where] = code
    return out.tobytes().decode("utf-32-le", "surrogatepass")


class TokenizerZh(JoinedTokenizer):
    """Strip, space out Chinese characters, then apply mteval's rules without padding.

    The joined batch can be spaced out at once (``"\\n"`` is not Chinese). Unlike 13a there is
    no padding, so a ``.``/``,`` can touch a separator: the mteval rules treat a separator
    like a missing neighbour, as a line end is (see ``_mteval``).
    """

    name = "zh"
    version = "1"
    description = "Chinese: split CJK characters (sacreBLEU's effective ranges), then 13a rules"
    sacrebleu_name = "zh"
    joined = True

    def _prepare(self, lines: Sequence[str]) -> Sequence[str]:
        return [line.strip() for line in lines]

    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        return _mteval.rewrite(space_out(text))

    def _exact(self, line: str) -> list[str]:
        return _mteval.exact(space_out(line.strip())).split()


__all__ = ["space_out", "TokenizerZh", "ZH_RANGES"]
