"""Built-in tokenizers (a plugin like any other, registered by
:mod:`evalfw.tokenizers.plugin`): ``none``, ``13a``, ``intl``, ``zh``, ``char`` and, with
optional packages, ``ja-mecab`` and ``ko-mecab``.

Each reproduces sacreBLEU 2.6.0: for every line, the tokens equal sacreBLEU's
``tokenize(line.rstrip()).split()``. They tokenize whole batches at once for speed.

Importing this package imports no tokenizer (nor pluggy): a compiled rule module or one
tokenizer is loaded alone. ``TOKENIZERS`` and the hook are read from the plugin module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not from typing: importing typing costs more than this module
if TYPE_CHECKING:
    from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("TOKENIZERS", "evalfw_register_tokenizers"):
        from evalfw.tokenizers import plugin

        return getattr(plugin, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["evalfw_register_tokenizers", "TOKENIZERS"]
