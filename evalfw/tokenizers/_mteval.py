"""The punctuation rules of mteval-v13a, shared by the ``13a`` and ``zh`` tokenizers.

mteval (and sacreBLEU) applies four global substitutions in order, each one leftmost-first
and non-overlapping over the whole string:

A. isolate (space on both sides) every ASCII symbol or punctuation character except
   ``'``, ``,``, ``-`` and ``.``;
B. isolate a ``.`` or ``,`` that follows a character other than an ASCII digit;
C. isolate a ``.`` or ``,`` that is followed by a character other than an ASCII digit;
D. isolate a ``-`` that follows an ASCII digit.

``exact`` applies them literally to one line. The batch path gets the same tokens from a
single ``re.split`` over the joined text, using what the four rules amount to:

* rule A does not depend on context, and nothing it inserts is a digit, ``.``, ``,`` or ``-``,
  so for B, C and D it only turns some neighbours into spaces, which are non-digits as well.
  How many spaces end up between two tokens never matters.
* Take a maximal run ``p1..pk`` of ``.``/``,`` with ``x`` the character before it and ``y`` the
  one after it (either may be missing). Because B does not overlap its matches, it isolates
  ``p1, p3, ...`` when ``x`` is a non-digit and ``p2, p4, ...`` when ``x`` is a digit or
  missing. Afterwards no two of them touch, so C isolates every one followed by a non-digit.
  The only one left alone is ``pk`` when B skipped it and ``y`` is a digit or missing: that
  is, when ``j = k - 1`` (run characters before it) is even and ``x`` is a digit or missing,
  or ``j`` is odd and ``x`` is a non-digit.
* D overlaps nothing: a ``-`` is isolated exactly when a digit precedes it.

In the joined text a line boundary (``"\\n"``) stands for "missing", i.e. like a digit for B
and C but not for D (13a pads its lines with spaces, so there it never touches a ``.``/``,``).
``ISOLATE`` decides runs with ``j`` up to 1 by fixed-width lookbehind; ``_HARD`` finds the
lines with a longer run before a digit, which then take the exact path.

With the optional compiled module ``_mteval_rules`` (built by ``pip install``, switched off by
``EVALFW_NATIVE=0`` as every compiled kernel) the batch applies the four rules literally to each
line in C instead, so no line needs the exact path.
"""

from __future__ import annotations

import re
from types import ModuleType

from evalfw.plugin.native import CompiledKernel
from evalfw.tokenizers.base import lines_at

#: rule A's characters: ASCII punctuation and symbols except ' , - . (U+0021-0026,
#: U+0028-002B, U+002F, U+003A-0040, U+005B-0060, U+007B-007E). Space is in mteval's set
#: too; isolating a space adds only spaces, so the batch leaves it out.
_RULE_A = r"!-&(-+/:-@\[-`{-~"

# One character per match (so a literal charset starts the pattern and re can skip to
# candidates), then lookarounds decide whether it is isolated.
ISOLATE = re.compile(
    rf"([{_RULE_A}.,\-])"
    rf"(?:(?<=[{_RULE_A}])"  # rule A
    r"|(?<=[.,])(?![0-9\n])"  # C: followed by a non-digit
    r"|(?<=[^0-9.,\n][.,])"  # B: j = 0 after a non-digit
    r"|(?<=[0-9\n][.,][.,])"  # B: j = 1 after a digit or line start
    r"|(?<=[0-9]-))"  # D
)

#: a ./, run of three or more ending before a digit (or line end): parity needs the exact
#: path. One pattern per last character: a single literal first lets re skip ahead at memchr
#: speed, several times faster than a character class.
_HARD = tuple(
    re.compile(last + r"(?=[0-9\n])(?<=[.,][.,]" + last + ")")
    for last in (r"\.", ",")
)


_RULES = (
    (re.compile(rf"([ {_RULE_A}])"), r" \1 "),
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


#: the rules in C (built by ``pip install``)
COMPILED = CompiledKernel("evalfw.tokenizers._mteval_rules", "Python")


def compiled() -> ModuleType | None:
    """The compiled rules of this module, or None (not built, or switched off)."""
    return COMPILED.module()


def rewrite(text: str) -> tuple[str, list[int]]:
    """Apply the rules to a joined batch; also return the lines that need ``exact``."""
    native = compiled()
    if native is not None:
        return native.rules(text), []
    hard = [i for pattern in _HARD for i in lines_at(text, pattern)]
    return " ".join(ISOLATE.split(text)), hard


def exact(line: str) -> str:
    """Apply rules A-D in order to one line, literally."""
    for pattern, replacement in _RULES:
        line = pattern.sub(replacement, line)
    return line
