"""Local plugin: the textbook BLEU of classic write-ups (Papineni et al. 2002 and tutorials).

Those examples count words after lowercasing and dropping punctuation, and take the shortest
reference's length for the brevity penalty. The tokenizer is the unusual part, so it lives
here as a local plugin (load with ``--plugins-dir plugins/local`` or ``plugin_dirs:`` in a
config) instead of as a special case in evalfw's core.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from evalfw import Preset, Tokenizer, hookimpl


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


class LowercaseNoPunct(Tokenizer):
    """Lowercase, replace every Unicode punctuation character by a space, split on whitespace."""

    name = "lc-nopunct"
    description = "lowercased words with punctuation removed (textbook examples)"

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        table: dict[int, str] = {}
        out = []
        for line in lines:
            for ch in set(line):
                if ord(ch) not in table and _is_punct(ch):
                    table[ord(ch)] = " "
            out.append(line.lower().translate(table).split())
        return out


class TextbookPreset(Preset):
    name = "textbook"
    description = "classic write-ups: lc-nopunct words, shortest reference, no smoothing, 0-1"
    settings = {
        "tokenizer": "lc-nopunct",
        "counter": {"name": "clipped", "total_floor": 0},
        "brevity_penalty": {"name": "shortest", "formula": "sacrebleu"},
        "smoothing": "plain",
        "mean": "geometric",
        "max_order": 4,
    }


@hookimpl
def evalfw_register_tokenizers() -> list[type[Tokenizer]]:
    return [LowercaseNoPunct]


@hookimpl
def evalfw_register_presets() -> list[type[Preset]]:
    return [TextbookPreset]
