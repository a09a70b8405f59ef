"""Helpers shared by the NLTK compatibility tests: running a call on evalfw.compat.nltk and on
the real nltk.translate.bleu_score, and comparing outcomes (value, type, warnings, exception)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The Papineni et al. (2002) examples used throughout NLTK's doctests and unit tests.
HYP1 = ("It is a guide to action which ensures that the military always obeys the commands "
        "of the party").split()
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
REF1 = ("It is a guide to action that ensures that the military will forever heed Party "
        "commands").split()
REF2 = ("It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party").split()
REF3 = "It is the practical guide for the army always to heed the directions of the party".split()
HYP_B = "he read the book because he was interested in world history".split()
REF_B = "he was interested in world history because he read the book".split()
R3 = [REF1, REF2, REF3]


@dataclass
class Outcome:
    """What a call did: its value or exception type, and the warnings it issued."""

    value: Any = None
    error: type[BaseException] | None = None
    warned: tuple[type[Warning], ...] = ()


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except Exception as exc:  # the exception type is part of what is compared
            return Outcome(error=type(exc), warned=tuple(w.category for w in caught))
    return Outcome(value, None, tuple(w.category for w in caught))


def identical(a: Any, b: Any) -> bool:
    """Same type and value, elementwise for lists (so int 0 != 0.0 and 0.5 != Fraction(1, 2))."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    return bool(a == b)


def same_outcome(ours: Outcome, theirs: Outcome) -> bool:
    return (ours.error is theirs.error and ours.warned == theirs.warned
            and (ours.error is not None or identical(ours.value, theirs.value)))
