"""The tokenizer contract, and the batch machinery the built-in tokenizers share.

Tokenizers are shared by every metric that works on tokens. A tokenizer turns a batch of
lines into token lists; two optional capabilities make it faster or comparable:

- the joined lane (``joined = True``, ``tokenize_joined``, ``joined_unit``): the tokens of a
  whole batch as one text, which the clipped counter reads without building a list per line;
- ``sacrebleu_name``: what sacreBLEU calls this tokenizer, set only by a class that tokenizes
  exactly as sacreBLEU does (so a BLEU result can carry sacreBLEU's signature).

Both are flags of the class itself (see :func:`evalfw.plugin.component.declares`): a
subclass that changes what ``tokenize`` computes does not inherit them.

The built-ins tokenize a whole batch as one string: the lines are joined with ``"\\n"``,
every rewrite runs once over the joined text (C speed instead of Python calls per line), and
the result is cut at the ``"\\n"`` separators again. That is only right when no rewrite can
see across a separator; each tokenizer states why its rewrites cannot, and sends the lines
for which it cannot promise it (a line containing ``"\\n"`` itself, rare punctuation runs) to
its exact per-line path instead.
"""

from __future__ import annotations

import contextlib
import gc
import re
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from evalfw.plugin.component import Component, declares


class Tokenizer(Component):
    """Turns a batch of raw lines into token lists (one list per line)."""

    kind = "tokenizer"
    plural = "tokenizers"
    #: capability flag: ``tokenize_joined`` agrees with ``tokenize`` (set on the class itself)
    joined: ClassVar[bool] = False
    #: what a token of ``tokenize_joined``'s text is: "word" (whitespace-separated) or "char"
    #: (every non-whitespace character)
    joined_unit: ClassVar[str] = "word"
    #: sacreBLEU's name for this tokenizer, when it tokenizes exactly as sacreBLEU's does
    sacrebleu_name: ClassVar[str | None] = None

    @abstractmethod
    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        """Tokenize every line of ``lines``; must return exactly ``len(lines)`` lists."""

    def tokenize_joined(self, lines: Sequence[str]) -> str | None:
        """The tokens of all lines as one text: it starts and ends with ``"\\n"``, has one
        ``"\\n"`` between lines, and the ``str.split()`` of line i equals
        ``tokenize(lines)[i]`` (with ``joined_unit`` "char": its non-whitespace characters).
        None declines (then ``tokenize`` is used). Only called when ``joined`` is declared."""
        return None

    def line_joiner(self) -> Callable[[str], str | None]:
        """A function of one line giving ``tokenize_joined([line])``, for callers that tokenize
        one line per call (the per-call drop-ins): a tokenizer may skip its batch machinery
        there."""
        return lambda line: self.tokenize_joined([line])

    @property
    def token_unit(self) -> str:
        """The plural noun of what a token is, for lengths counted in tokens (``13a tokens``;
        ``characters`` for the char tokenizer)."""
        return f"{self.name} tokens"

    def sacrebleu_signature(self) -> str | None:
        """How sacreBLEU's signature names this tokenizer (``tok:<this>``), or None when it is
        not one of sacreBLEU's. ``sacrebleu_name`` counts only on the class that sets it."""
        name = vars(type(self)).get("sacrebleu_name")
        return name if isinstance(name, str) else None


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while token lists are built.

    A batch allocates one list per line, and every 700 container allocations trigger a
    collection that walks the live containers: with the collector on, building the lists of
    a WMT test set takes about twice as long. Token lists hold only strings, so they cannot
    form cycles and nothing is lost by collecting later.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def supports_joined(component: Any) -> bool:
    """Whether ``component`` offers the joined lane (``tokenize_joined`` / ``count_joined``)
    on its own class: the capability flag ``joined``."""
    return declares(component, "joined")


class BatchTokenizer(Tokenizer):
    """A tokenizer that works on the whole batch at once (with the collector paused)."""

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        if not lines:
            return []
        with gc_paused():
            return self._tokenize(lines)

    @abstractmethod
    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        """Tokenize a non-empty batch."""


class JoinedTokenizer(BatchTokenizer):
    """A tokenizer whose rules run once over the ``"\\n"``-joined batch.

    Subclasses give the per-line preparation (``_prepare``, for C-level string methods such
    as ``strip``), the rewrite of the joined text (``_rewrite``, which also names the lines the
    rewrite cannot handle) and the exact per-line tokenization those lines get (``_exact``,
    which starts from the raw line). ``pad`` is put on both sides of every line.
    """

    pad: ClassVar[str] = ""

    def _prepare(self, lines: Sequence[str]) -> Sequence[str]:
        return lines

    @abstractmethod
    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        """Rewrite the joined text; return it and the indices of lines to redo exactly."""

    @abstractmethod
    def _exact(self, line: str) -> list[str]:
        """Tokens of one raw line, by the plain per-line rules (the slow, obvious path)."""

    def _tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        text, odd = join_lines(self._prepare(lines), self.pad)
        text, hard = self._rewrite(text)
        result = split_lines(text)
        for i in (*odd, *hard):
            result[i] = self._exact(lines[i])
        return result

    def tokenize_joined(self, lines: Sequence[str]) -> str | None:
        text, odd = join_lines(self._prepare(lines), self.pad)
        text, hard = self._rewrite(text)
        return splice(text, {i: self._exact(lines[i]) for i in (*odd, *hard)})


def join_lines(lines: Sequence[str], pad: str = "") -> tuple[str, list[int]]:
    """``"\\n" + pad + (pad + "\\n" + pad).join(lines) + pad + "\\n"`` and the indices of the
    lines that contain ``"\\n"`` themselves: those are left empty in the text, because a
    newline inside a line would be taken for a separator."""
    if not pad and lines:  # the text in one copy (the padded form below copies the body twice)
        text = "\n".join(["", *lines, ""])
        if text.count("\n") == len(lines) + 1:
            return text, []
    sep = pad + "\n" + pad
    body = sep.join(lines)
    odd: list[int] = []
    if body.count("\n") != len(lines) - 1:
        odd = [i for i, line in enumerate(lines) if "\n" in line]
        kept = list(lines)
        for i in odd:
            kept[i] = ""
        body = sep.join(kept)
    return "".join(("\n" + pad, body, pad + "\n")), odd  # one copy of the body, not three


def splice(text: str, tokens: dict[int, list[str]]) -> str:
    """A joined token text (as ``tokenize_joined`` returns it) with the lines in ``tokens``
    replaced by those tokens (for the few lines the batch rewrite must not handle)."""
    if not tokens:
        return text
    segments = text.split("\n")
    for i, toks in tokens.items():
        segments[i + 1] = " ".join(toks)
    return "\n".join(segments)


def split_lines(text: str) -> list[list[str]]:
    """Whitespace tokens of every line of a joined text (as ``join_lines`` builds it)."""
    segments = text.split("\n")
    del segments[0], segments[-1]
    return [segment.split() for segment in segments]


def lines_at(text: str, pattern: re.Pattern[str]) -> list[int]:
    """Indices of the lines of a joined text in which ``pattern`` matches (never at a
    separator). Separators are counted between consecutive matches, so the cost stays one
    pass over the text however many lines match."""
    found: list[int] = []
    line, counted_to = -1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", counted_to, match.start())
        counted_to = match.start()
        if not found or found[-1] != line:
            found.append(line)
    return found


__all__ = [
    "BatchTokenizer", "gc_paused", "join_lines", "JoinedTokenizer", "lines_at", "splice",
    "split_lines", "supports_joined", "Tokenizer",
]
