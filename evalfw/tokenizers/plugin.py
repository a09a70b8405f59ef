"""The built-in tokenizers' registration: the plugin module the host loads for them."""

from __future__ import annotations

from evalfw.tokenizers.char import CharTokenizer
from evalfw.tokenizers.intl import TokenizerIntl
from evalfw.tokenizers.mecab import JaMecabTokenizer, KoMecabTokenizer
from evalfw.tokenizers.mteval13a import Tokenizer13a
from evalfw.tokenizers.none import NoneTokenizer
from evalfw.tokenizers.zh import TokenizerZh
from evalfw.tokenizers.base import Tokenizer
from evalfw.plugin import hookimpl

TOKENIZERS: tuple[type[Tokenizer], ...] = (
    NoneTokenizer,
    Tokenizer13a,
    TokenizerIntl,
    TokenizerZh,
    CharTokenizer,
    JaMecabTokenizer,
    KoMecabTokenizer,
)


@hookimpl
def evalfw_register_tokenizers() -> list[type[Tokenizer]]:
    return list(TOKENIZERS)


__all__ = ["evalfw_register_tokenizers", "TOKENIZERS"]
