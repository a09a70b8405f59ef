"""Oracles and a random line generator for the tokenizer tests.

The oracle of every built-in tokenizer is sacreBLEU 2.6.0's own tokenizer class applied as
sacreBLEU applies it: ``tokenizer(line.rstrip()).split()``. The generator mixes the
characters each rule treats specially, glued together without spaces as often as with, so
that random lines reach the rare contexts (punctuation runs next to digits, entities, line
ends) where a batch rewrite could go wrong.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Sequence

import regex

SACREBLEU_CLASSES = {
    "none": "sacrebleu.tokenizers.tokenizer_none:NoneTokenizer",
    "13a": "sacrebleu.tokenizers.tokenizer_13a:Tokenizer13a",
    "intl": "sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International",
    "zh": "sacrebleu.tokenizers.tokenizer_zh:TokenizerZh",
    "char": "sacrebleu.tokenizers.tokenizer_char:TokenizerChar",
    "ja-mecab": "sacrebleu.tokenizers.tokenizer_ja_mecab:TokenizerJaMecab",
    "ko-mecab": "sacrebleu.tokenizers.tokenizer_ko_mecab:TokenizerKoMecab",
}


def sacrebleu_oracle(name: str) -> Callable[[Sequence[str]], list[list[str]]]:
    """sacreBLEU's tokens for a batch, line by line, as its BLEU computes them."""
    import importlib

    module, cls = SACREBLEU_CLASSES[name].split(":")
    tokenizer = getattr(importlib.import_module(module), cls)()
    return lambda lines: [tokenizer(line.rstrip()).split() for line in lines]


#: the 29 code points str.split() splits on
WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]
assert len(WHITESPACE) == 29

# zh: both sides of every boundary of sacreBLEU's nominal and effective ranges
_ZH_EDGES = [
    0x2000, 0x2001, 0x200B, 0x2026, 0x20AC, 0x2A6D, 0x2A6E, 0x2E7F, 0x2E80, 0x2EFF, 0x2F00,
    0x2F80, 0x2F81, 0x2FA1, 0x2FA2, 0x2FDF, 0x2FE0, 0x2FEF, 0x2FF0, 0x2FFF, 0x3000, 0x303F,
    0x3040, 0x30FF, 0x3100, 0x312F, 0x3130, 0x319F, 0x31A0, 0x31BF, 0x31C0, 0x31EF, 0x31F0,
    0x31FF, 0x3200, 0x33FF, 0x3400, 0x4DB5, 0x4DB6, 0x4DFF, 0x4E00, 0x9FA5, 0x9FA6, 0x9FBB,
    0x9FBC, 0xF8FF, 0xF900, 0xFA2D, 0xFA2E, 0xFA2F, 0xFA30, 0xFA6A, 0xFA6B, 0xFA6F, 0xFA70,
    0xFAD9, 0xFADA, 0xFE0F, 0xFE10, 0xFE1F, 0xFE20, 0xFE2F, 0xFE30, 0xFE4F, 0xFE50, 0xFEFF,
    0xFF00, 0xFF0C, 0xFF0E, 0xFF10, 0xFFEF, 0xFFF0, 0x20000, 0x2A6D6, 0x2F800, 0x2FA1D,
]
_ASTRAL_PSN = [
    chr(c) for c in range(0x10000, 0x1FFFF)
    if regex.match(r"[\p{P}\p{S}\p{N}]", chr(c))
]


def _chars(first: int, last: int) -> list[str]:
    return [chr(c) for c in range(first, last + 1)]


_POOLS: dict[str, list[str]] = {
    "ascii_punct": list(string.punctuation),
    "dot_comma_dash": list(".,-") * 3,
    "digits": list(string.digits),
    "entities": ["&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "&amp;lt;", "&", ";", "<skipped>",
                 "<skip", "ped>", "-\n", "\n"],
    "cjk": _chars(0x4E00, 0x4E40) + _chars(0x3400, 0x3410) + _chars(0x3000, 0x303F),
    "kana": _chars(0x3040, 0x30FF),
    "fullwidth": _chars(0xFF00, 0xFF65),
    "zh_edges": [chr(c) for c in _ZH_EDGES],
    "combining": _chars(0x0300, 0x036F),
    "emoji": _chars(0x1F600, 0x1F64F) + ["\U0001F44D\U0001F3FD", "\u2764\ufe0f"],
    "symbols": list("€£¥¢$©®°±×÷§¶†‡•№™←→↑↓∀∂∑√∞≈≠≤≥") + _chars(0x20A0, 0x20C0),
    "unicode_punct": list("“”‘’«»—–…¿¡·‹›„‚") + _chars(0x2010, 0x2027) + _chars(0x2030, 0x205E),
    "unicode_numbers": list("²³¹½¼¾") + _chars(0x0660, 0x0669) + _chars(0x2160, 0x2188)
    + _chars(0x2460, 0x2473) + _chars(0xFF10, 0xFF19),
    "astral_psn": _ASTRAL_PSN,
    "whitespace": WHITESPACE,
    "invisible": ["\u200b", "\ufeff", "\u200d", "\u00ad", "\u2060"],
    "controls": _chars(0x00, 0x08) + _chars(0x0E, 0x1B) + ["\x7f"] + _chars(0x80, 0x84)
    + _chars(0x86, 0x9F),
    "latin": list("äöüßéèçñøåÄÖÜÉ"),
    "hangul": _chars(0xAC00, 0xAC40),
    "surrogate": ["\ud800", "\udfff"],
}
_WEIGHTS = {"ascii_punct": 3, "dot_comma_dash": 6, "digits": 6, "entities": 2, "whitespace": 3,
            "surrogate": 0.1}


_RUNS = [".", ",", "-", "..", ",.", "...", ".,.", "....", "-", ".,", ",,,"]


def _number(rng: random.Random) -> str:
    parts = [str(rng.randint(0, 9999))]
    for _ in range(rng.randint(0, 3)):
        parts.append(rng.choice(_RUNS))
        parts.append(str(rng.randint(0, 999)))
    # runs before or after a number, e.g. "2017." and ".5" (at a line end or start too)
    if rng.random() < 0.3:
        parts.insert(0, rng.choice(_RUNS))
    if rng.random() < 0.3:
        parts.append(rng.choice(_RUNS))
    return "".join(parts)


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 8)))


def random_piece(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.25:
        return _word(rng)
    if roll < 0.40:
        return _number(rng)
    names = list(_POOLS)
    pool = _POOLS[rng.choices(names, [_WEIGHTS.get(n, 1) for n in names])[0]]
    return "".join(rng.choice(pool) for _ in range(rng.randint(1, 3)))


def random_line(rng: random.Random) -> str:
    if rng.random() < 0.04:
        return rng.choice(["", " ", "\t", "\u3000", "\x85", "...", ".", "5", "-"])
    pieces = [random_piece(rng) for _ in range(rng.randint(1, 14))]
    glue = [rng.choice(["", "", " ", " ", rng.choice(WHITESPACE)]) for _ in pieces]
    line = "".join(g + p for g, p in zip(glue, pieces))
    if rng.random() < 0.2:
        line += rng.choice(_RUNS)
    if rng.random() < 0.15:
        line = rng.choice(WHITESPACE) + line
    if rng.random() < 0.15:
        line += rng.choice(WHITESPACE + [" ", "  "])
    return line


def random_batches(seed: int, lines: int) -> list[list[str]]:
    """Batches of 1-150 random lines, about ``lines`` lines in all."""
    rng = random.Random(seed)
    batches: list[list[str]] = []
    while sum(map(len, batches)) < lines:
        batches.append([random_line(rng) for _ in range(rng.randint(1, 150))])
    return batches
