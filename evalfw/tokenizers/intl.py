"""The ``intl`` tokenizer: mteval-v14 ``--international-tokenization`` (sacreBLEU ``intl``).

Three global substitutions on the right-stripped line, with Unicode categories as the
``regex`` module knows them (its Unicode version, not Python's ``unicodedata``):

A. after a non-number (``\\P{N}``), isolate a punctuation character (``\\p{P}``);
B. before a non-number, isolate a punctuation character;
C. isolate every symbol (``\\p{S}``).

There is no padding, so a number followed by a final full stop stays one token.

:func:`exact` applies them with ``regex``, as sacreBLEU does. The optional compiled module
``_intl_rules`` (built by ``pip install``, switched off by ``EVALFW_NATIVE=0`` as every
compiled kernel) applies the same three rules literally to each line in C, from the
categories ``regex`` gives the text's characters (:func:`runs`); the tests compare the two
with sacreBLEU.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from evalfw.plugin.native import CompiledKernel
from evalfw.tokenizers.base import JoinedTokenizer

if TYPE_CHECKING:
    import regex

CATEGORIES = ("P", "S", "N")
#: sacreBLEU's substitutions, in order
RULES = (
    (r"(\P{N})(\p{P})", r"\1 \2 "),  # A
    (r"(\p{P})(\P{N})", r" \1 \2"),  # B
    (r"(\p{S})", r" \1 "),  # C
)

#: the rules in C (built by ``pip install``)
COMPILED = CompiledKernel("evalfw.tokenizers._intl_rules", "regex")


@functools.cache
def _compiled_rules() -> tuple[tuple[regex.Pattern[str], str], ...]:
    import regex  # a large package: imported by the processes that tokenize with intl

    return tuple((regex.compile(pattern), replacement) for pattern, replacement in RULES)


def exact(line: str) -> str:
    """Rules A, B and C applied to one line with ``regex``, as sacreBLEU applies them."""
    for pattern, replacement in _compiled_rules():
        line = pattern.sub(replacement, line)
    return line


def compiled() -> ModuleType | None:
    """The compiled rules, or None (not built, or switched off)."""
    return COMPILED.module()


def runs(text: str) -> tuple[str, str, str, str, str, str]:
    """The characters of ``text`` in P, S and N as ``regex`` matches them, in the layout
    ``_intl_rules`` reads (the first and the last character of each run, ascending): each
    character a run of its own. The rules look up only the characters of the text they
    rewrite, so these classes decide exactly as the full ones."""
    import regex

    present = "".join(sorted(set(text)))
    out: list[str] = []
    for category in CATEGORIES:
        members = "".join(regex.findall(rf"\p{{{category}}}", present))
        out += [members, members]
    return tuple(out)  # type: ignore[return-value]


class TokenizerIntl(JoinedTokenizer):
    """mteval-v14 international tokenization. In the joined batch of the compiled rules
    ``"\\n"`` (itself neither number, punctuation nor symbol) is treated like a missing
    neighbour, i.e. like a number; without them every line is tokenized by :func:`exact`."""

    name = "intl"
    version = "1"
    description = "mteval-v14 international: split Unicode punctuation and symbols"
    sacrebleu_name = "intl"
    joined = True

    def _prepare(self, lines: Sequence[str]) -> Sequence[str]:
        return [line.rstrip() for line in lines]

    def line_joiner(self) -> Callable[[str], str | None]:
        native = compiled()
        if native is None:
            return super().line_joiner()
        # one line, whatever it holds ("\n" too): the joined text of tokenize_joined([line])
        return lambda line: "\n" + native.rules(line, runs(line), True) + "\n"

    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        native = compiled()
        if native is not None:
            return native.rules(text, runs(text), False), []
        return text, list(range(text.count("\n") - 1))  # every line by the exact path

    def _exact(self, line: str) -> list[str]:
        native = compiled()
        if native is not None:
            tokens: list[str] = native.rules(line, runs(line), True).split()
            return tokens
        return exact(line.rstrip()).split()


__all__ = ["exact", "runs", "TokenizerIntl"]
