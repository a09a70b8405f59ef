"""The ``none`` tokenizer: whitespace splitting only (sacreBLEU ``-tok none``)."""

from __future__ import annotations

from collections.abc import Sequence

from evalfw.builtin.tokenizers._batch import BatchTokenizer


class NoneTokenizer(BatchTokenizer):
    """Split on whitespace (Python ``str.split()``: 29 code points), nothing else."""

    name = "none"
    version = "1"
    description = "no tokenization: split on whitespace only (sacreBLEU 'none')"

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [line.split() for line in lines]
