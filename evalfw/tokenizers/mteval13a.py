"""The ``13a`` tokenizer: mteval-v13a, sacreBLEU's default and the WMT standard."""

from __future__ import annotations

from collections.abc import Callable

from evalfw.tokenizers import _mteval
from evalfw.tokenizers.base import JoinedTokenizer

#: unescaped in this order, one after the other, so "&amp;lt;" becomes "<"; &apos; is not
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _unescape(text: str) -> str:
    # one fast scan for "&" first: most texts have none
    if "&" in text:
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    return text


class Tokenizer13a(JoinedTokenizer):
    """Remove ``<skipped>``, unescape four entities, pad with spaces, apply mteval's rules.

    None of the replaced strings contains ``"\\n"`` or can be created across one, so they run
    on the joined batch. Lines are padded with a space on both sides, as mteval does, which
    also keeps every ``.``/``,`` away from the separators. Trailing whitespace needs no
    ``rstrip``: it acts like the padding (the ``-\\n`` removal that could tell them apart
    only happens in lines containing ``"\\n"``, which take the exact path).
    """

    name = "13a"
    version = "1"
    description = "mteval-v13a: unescape entities, split ASCII punctuation (sacreBLEU default)"
    pad = " "
    sacrebleu_name = "13a"
    joined = True

    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        return _mteval.rewrite(_unescape(text.replace("<skipped>", "")))

    def line_joiner(self) -> Callable[[str], str | None]:
        native = _mteval.compiled()
        if native is None:
            return super().line_joiner()
        rules_line, batch = native.rules_line, self.tokenize_joined

        def one(line: str) -> str | None:
            # What the batch computes for one line, without its copies: a line with no "\n",
            # "&" or "<" has nothing to remove or unescape and no exact-path rule, and the
            # compiled rules pad and tokenize it in one call (None: it has one of them).
            joined = rules_line(line)
            return batch([line]) if joined is None else joined

        return one

    def _exact(self, line: str) -> list[str]:
        line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        return _mteval.exact(f" {_unescape(line)} ").split()


__all__ = ["Tokenizer13a"]
