"""The ``char`` tokenizer: every non-whitespace character is a token (sacreBLEU ``char``)."""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.builtin.tokenizers._batch import BatchTokenizer


class CharTokenizer(BatchTokenizer):
    """sacreBLEU puts a space between all characters and splits on whitespace, so the
    tokens are the non-whitespace code points in order; dropping whitespace and listing the
    rest gives the same without building the spaced string."""

    name = "char"
    version = "1"
    description = "character-level: every non-whitespace character is a token (sacreBLEU 'char')"

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [list("".join(line.split())) for line in lines]
