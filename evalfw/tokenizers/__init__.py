"""Built-in tokenizers (a plugin like any other, registered by
:mod:`evalfw.tokenizers.plugin`): ``none``, ``13a``, ``intl``, ``zh``, ``char`` and, with
optional packages, ``ja-mecab`` and ``ko-mecab`` and the SentencePiece tokenizers ``flores101``,
``flores200``, ``spBLEU-1K`` and ``spm`` (spBLEU).

Each reproduces sacreBLEU 2.6.0: for every line, the tokens equal sacreBLEU's
``tokenize(line.rstrip()).split()``. They tokenize whole batches at once for speed.

Importing this package imports no tokenizer (nor pluggy): a compiled rule module or one
tokenizer is loaded alone (:func:`builtin`, for code that needs no plugin host).
``TOKENIZERS`` and the hook live in the plugin module, which imports this one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalfw.tokenizers.base import Tokenizer


#: the module of each built-in tokenizer, by its name (the name itself is set on its class)
MODULES = {
    "none": "evalfw.tokenizers.none",
    "13a": "evalfw.tokenizers.mteval13a",
    "intl": "evalfw.tokenizers.intl",
    "zh": "evalfw.tokenizers.zh",
    "char": "evalfw.tokenizers.char",
    "ja-mecab": "evalfw.tokenizers.mecab",
    "ko-mecab": "evalfw.tokenizers.mecab",
    "spm": "evalfw.tokenizers.spm",
    "flores101": "evalfw.tokenizers.spm",
    "flores200": "evalfw.tokenizers.spm",
    "spBLEU-1K": "evalfw.tokenizers.spm",
}


def builtin(name: str) -> type[Tokenizer]:
    """The built-in tokenizer class called ``name`` (KeyError for another name), importing
    only its module."""
    from evalfw.tokenizers.base import Tokenizer

    module = importlib.import_module(MODULES[name])
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Tokenizer) and \
                vars(value).get("name") == name:
            return value
    raise KeyError(name)


__all__ = ["builtin", "MODULES"]
