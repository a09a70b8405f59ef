"""The built-in tokenizers' registration: the plugin module the host loads for them."""

from __future__ import annotations

from evalfw.plugin import hookimpl
from evalfw.tokenizers import MODULES, builtin
from evalfw.tokenizers.base import Tokenizer

#: every built-in tokenizer class, in the order of ``MODULES``
TOKENIZERS: tuple[type[Tokenizer], ...] = tuple(builtin(name) for name in MODULES)


@hookimpl
def evalfw_register_tokenizers() -> list[type[Tokenizer]]:
    return list(TOKENIZERS)


__all__ = ["evalfw_register_tokenizers", "TOKENIZERS"]
