"""The ``none`` tokenizer: whitespace splitting only (sacreBLEU ``-tok none``)."""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.tokenizers.base import BatchTokenizer, join_lines, splice


class NoneTokenizer(BatchTokenizer):
    """Split on whitespace (Python ``str.split()``: 29 code points), nothing else."""

    name = "none"
    version = "1"
    description = "no tokenization: split on whitespace only (sacreBLEU 'none')"

    sacrebleu_name = "none"
    joined = True
    token_unit = "words"  # whitespace-separated, as the runner counts

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [line.split() for line in lines]

    def tokenize_joined(self, lines: Sequence[str]) -> str | None:
        text, odd = join_lines(lines)
        return splice(text, {i: lines[i].split() for i in odd})


__all__ = ["NoneTokenizer"]
