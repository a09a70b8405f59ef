"""The ``intl`` tokenizer: mteval-v14 ``--international-tokenization`` (sacreBLEU ``intl``).

Three global substitutions on the right-stripped line, with Unicode categories as the
``regex`` module knows them (its Unicode version, not Python's ``unicodedata``):

A. after a non-number (``\\P{N}``), isolate a punctuation character (``\\p{P}``);
B. before a non-number, isolate a punctuation character;
C. isolate every symbol (``\\p{S}``).

There is no padding, so a number followed by a final full stop stays one token. Rules A and B
have the shape of mteval's rules B and C (see ``_mteval``) with "digit" read as ``\\p{N}`` and
"``.`` or ``,``" as ``\\p{P}``, and the same reasoning gives the batch path: a punctuation
character is isolated unless it ends a run, is followed by a number or the line end, and the
run parity leaves it alone.

With the optional compiled module ``_intl_rules`` (built by ``pip install``, switched off by
``EVALFW_NATIVE=0`` as every compiled kernel) each line gets the three rules literally in C,
from the same code-point ranges, so no line needs the exact path and ``re`` is not imported.

Without it, the rules run on ``re``, which is much faster here than ``regex`` and starts without its 64 M
instructions of import. The three categories come as code-point ranges from
``_unicode_classes`` (read out of ``regex`` once per installation of it and cached in a file).
``re`` compiles a class of Latin-1 characters cheaply (a 256-bit map) but one with any other
character slowly (a 64k-bit map, built in Python), so the patterns hold each category's Latin-1
members plus a pool of stand-ins, control characters real text does not hold: before the
rewrite, each member above Latin-1 that occurs in the text is replaced by a stand-in of its
category, and after it (the rules only insert spaces) put back. A text that holds a pool
character, or more members of a category than its pool, gets classes listing the members it
holds instead.
"""

from __future__ import annotations

from evalfw.tokenizers import _unicode_classes
from evalfw.tokenizers.base import JoinedTokenizer, LazyPattern, compiled_module, lines_at, memo

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence
    from types import ModuleType

CATEGORIES = _unicode_classes.CATEGORIES
_ASTRAL = LazyPattern("[\U00010000-\U0010ffff]")
#: stand-ins for the members above Latin-1 that occur in a text, one pool per category (P, S,
#: N): control characters that are not whitespace, which real text practically never holds
_POOLS = (("\x01", "\x08"), ("\x80", "\x84"), ("\x86", "\x8f")), (("\x0e", "\x1b"),), \
    (("\x90", "\x9f"),)
_POOLED = frozenset(chr(c) for pool in _POOLS for a, b in pool for c in range(ord(a), ord(b) + 1))
#: runs of the characters that need no look: "\n", printable ASCII and printable Latin-1 (what
#: is left: pool characters, other controls and everything above Latin-1)
_USUAL = LazyPattern("[\n -~\xa0-\xff]+")


def _unusual(text: str) -> set[str]:
    # deleting runs is twice as fast as finding the other characters one by one
    return set(_USUAL.sub("", text))


def _body(spans: Sequence[tuple[str, str]]) -> str:
    """The body of an ``re`` character class of these spans (first, last), escaped only where
    a class needs it (``re`` parses every escape in Python: the classes recur in the patterns)."""
    return "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in spans)


def _escape(char: str) -> str:
    # "[" and the doubled set operators "&&", "||", "~~", "--" are reserved (FutureWarning)
    return "\\" + char if char in "\\]^-[&|~" else char


@memo()
def _latin1(pooled: bool) -> tuple[str, str, str]:
    """Class bodies of each category's Latin-1 members, with its pool of stand-ins when
    ``pooled``. ``re`` compiles a class of Latin-1 characters to a 256-bit map, and a class
    with any character above that to a 64k-bit map in Python: 1.3 ms a class, 15 M
    instructions for the batch patterns, most of a 400-line command line."""
    ranges = _unicode_classes.classes()
    return tuple(_body(ranges[c].below("\xff")) + (_body(pool) if pooled else "")
                 for c, pool in zip(CATEGORIES, _POOLS))  # type: ignore[return-value]


def classes_in(unusual: set[str], bmp_only: bool = True) -> tuple[str, str, str]:
    """Class bodies (P, S, N) matching, on a text whose characters outside printable Latin-1
    are ``unusual``, exactly what ``regex``'s ``\\p{P}``, ``\\p{S}`` and ``\\p{N}`` match there
    (and ``[^...]`` of the N body ``\\P{N}``); with ``bmp_only``, on the text's characters in
    the BMP only."""
    ranges = _unicode_classes.classes()
    if bmp_only and max(unusual, default="") >= "\U00010000":
        unusual = {c for c in unusual if c < "\U00010000"}
    # whole short runs: fewer items for ``re`` to parse, shared by texts with other members
    return tuple(latin1 + _body(ranges[c].cover(unusual))
                 for c, latin1 in zip(CATEGORIES, _latin1(False)))  # type: ignore[return-value]


def _stand_ins(unusual: set[str]) -> list[tuple[str, str]] | None:
    """(member, stand-in) for every member of P, S or N above Latin-1 among ``unusual``, each
    a character of its category's pool, so that the classes of ``_latin1(True)`` decide; None
    when a pool character occurs or a pool is too small."""
    if not unusual.isdisjoint(_POOLED):
        return None
    ranges = _unicode_classes.classes()
    pairs: list[tuple[str, str]] = []
    for category, pool in zip(CATEGORIES, _POOLS):
        members = ranges[category].members(unusual)
        stand_ins = [chr(c) for a, b in pool for c in range(ord(a), ord(b) + 1)]
        if len(members) > len(stand_ins):
            return None
        pairs += zip(members, stand_ins)
    return pairs


def _swap(text: str, pairs: list[tuple[str, str]], back: bool = False) -> str:
    # one fast search per member: a text holds few of them, and the rewrites only insert
    # spaces, so swapping back restores every member (the stand-ins were not in the text)
    for member, stand_in in pairs:
        text = text.replace(stand_in, member) if back else text.replace(member, stand_in)
    return text


#: lines of the exact path rewritten by ``_by_loop`` in a process before the rules are compiled
FEW = 64
_looped = 0


def _by_loop(line: str) -> str:
    """Rules A, B and C as ``regex.sub`` applies them, in Python: at each position, a match of
    the two-character pattern is replaced and skipped, else the character is kept."""
    ranges = _unicode_classes.classes()
    kind = {}
    for char in set(line):
        for category in CATEGORIES:
            if ranges[category].run_of(char) >= 0:
                kind[char] = category  # the three categories are disjoint
    for rule in "AB":
        out, i, end = [], 0, len(line) - 1
        while i <= end:
            char = line[i]
            if i < end and (kind.get(char) != "N" and kind.get(line[i + 1]) == "P" if rule == "A"
                            else kind.get(char) == "P" and kind.get(line[i + 1]) != "N"):
                out.append(f"{char} {line[i + 1]} " if rule == "A" else f" {char} {line[i + 1]}")
                i += 2
            else:
                out.append(char)
                i += 1
        line = "".join(out)
    return "".join(f" {char} " if kind.get(char) == "S" else char for char in line)


def compiled() -> ModuleType | None:
    """The compiled rules, or None (see :func:`evalfw.tokenizers.base.compiled_module`)."""
    return compiled_module("_intl_rules")


@memo()
def runs() -> tuple[str, str, str, str, str, str]:
    """The first and last characters of the runs of P, S and N, as ``_intl_rules`` reads
    them."""
    ranges = _unicode_classes.classes()
    return tuple(part for c in CATEGORIES  # type: ignore[return-value]
                 for part in (ranges[c].starts, ranges[c].ends))


@memo(64)
def _rules(c: tuple[str, str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    import re  # here: the compiled rules need no regular expression

    p, s, n = c
    return (
        (re.compile(rf"([^{n}])([{p}])"), r"\1 \2 "),  # A: (\P{N})(\p{P})
        (re.compile(rf"([{p}])([^{n}])"), r" \1 \2"),  # B: (\p{P})(\P{N})
        (re.compile(rf"([{s}])"), r" \1 "),  # C: (\p{S})
    )


@memo(64)
def _patterns(c: tuple[str, str, str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The batch patterns: what to isolate, and where a line needs the exact path."""
    import re

    p, s, n = c
    # the isolated character is a symbol, or a punctuation character (when the first branch
    # failed) that the lookbehinds of rule A may then take as "any character"
    isolate = re.compile(
        rf"([{p}{s}])"
        rf"(?:(?<=[{s}])"  # C: symbols
        rf"|(?![{n}\n])"  # B: followed by a non-number
        rf"|(?<=[^{n}{p}\n].)"  # A: run of one after a non-number
        rf"|(?<=[{n}\n][{p}].))"  # A: second of a run after a number or line start
    )
    # a run of three or more before a number or the line end: parity needs the exact path
    hard = re.compile(rf"[{p}](?<=[{p}][{p}].)(?=[{n}\n])")
    return isolate, hard


class TokenizerIntl(JoinedTokenizer):
    """mteval-v14 international tokenization. In the joined batch ``"\\n"`` (itself neither
    number, punctuation nor symbol) is treated like a missing neighbour, i.e. like a number."""

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
        classes = runs()
        # one line, whatever it holds ("\n" too): the joined text of tokenize_joined([line])
        return lambda line: "\n" + native.rules(line, classes, True) + "\n"

    def _rewrite(self, text: str) -> tuple[str, list[int]]:
        native = compiled()
        if native is not None:
            return native.rules(text, runs(), False), []
        unusual = _unusual(text)
        pairs = _stand_ins(unusual)
        if pairs is not None:
            isolate, hard = _patterns(_latin1(True))
            text = _swap(text, pairs)
            return _swap(" ".join(isolate.split(text)), pairs, back=True), lines_at(text, hard)
        isolate, hard = _patterns(classes_in(unusual))
        # the classes leave out characters above the BMP: ``re`` tests BMP characters
        # against a bitmap but those above against a list, for every character scanned
        # (twenty times slower); lines with them take the exact path
        redo = lines_at(text, hard)
        if max(unusual, default="") >= "\U00010000":
            redo += lines_at(text, _ASTRAL)
        return " ".join(isolate.split(text)), redo

    def _exact(self, line: str) -> list[str]:
        global _looped
        native = compiled()
        if native is not None:
            return native.rules(line, runs(), True).split()
        line = line.rstrip()
        if _looped < FEW:  # compiling the rules costs what the loop spends on a few dozen lines
            _looped += 1
            return _by_loop(line).split()
        unusual = _unusual(line)
        found = _stand_ins(unusual)
        classes = _latin1(True) if found is not None else classes_in(unusual, bmp_only=False)
        pairs = found or []
        line = _swap(line, pairs)
        for pattern, replacement in _rules(classes):
            line = pattern.sub(replacement, line)
        return _swap(line, pairs, back=True).split()


__all__ = ["classes_in", "TokenizerIntl"]
