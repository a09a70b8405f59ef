"""Text measures the built-in checks share: words (a Chinese or Japanese character counting as
half a word), visible characters, and whether an output is empty."""

from __future__ import annotations

import re

#: Han, Hiragana, Katakana and Hangul (scripts written without spaces between words)
CJK = "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff" \
      "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
_CJK_CHAR = re.compile(f"[{CJK}]")
#: characters that show nothing: zero-width spaces and joiners, the byte order mark, a soft
#: hyphen (an output of only these and whitespace is empty)
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"


def is_empty(text: str) -> bool:
    """Whether ``text`` is empty, whitespace or invisible characters only."""
    return not text.strip().strip(INVISIBLE).strip()


def words(text: str) -> float:
    """Whitespace-separated words, where each Han, Kana or Hangul character counts as half a
    word (a Chinese word is about two characters)."""
    cjk = len(_CJK_CHAR.findall(text))
    if not cjk:
        return float(len(text.split()))
    return len(_CJK_CHAR.sub(" ", text).split()) + cjk / 2


def visible_length(text: str) -> int:
    """Characters other than whitespace."""
    return len("".join(text.split()))


__all__ = ["CJK", "INVISIBLE", "is_empty", "visible_length", "words"]
