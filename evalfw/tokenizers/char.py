"""The ``char`` tokenizer: every non-whitespace character is a token (sacreBLEU ``char``)."""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.tokenizers.base import BatchTokenizer, join_lines, splice


class CharTokenizer(BatchTokenizer):
    """sacreBLEU puts a space between all characters and splits on whitespace, so the
    tokens are the non-whitespace code points in order; dropping whitespace and listing the
    rest gives the same without building the spaced string."""

    name = "char"
    version = "1"
    description = "character-level: every non-whitespace character is a token (sacreBLEU 'char')"

    sacrebleu_name = "char"
    joined = True

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [list("".join(line.split())) for line in lines]

    token_unit = "characters"
    joined_unit = "char"  # the joined text is the lines themselves: no spaces to insert

    def tokenize_joined(self, lines: Sequence[str]) -> str | None:
        text, odd = join_lines(lines)
        return splice(text, {i: ["".join(lines[i].split())] for i in odd})


__all__ = ["CharTokenizer"]
