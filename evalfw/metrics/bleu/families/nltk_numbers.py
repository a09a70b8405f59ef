"""NLTK's number conventions, shared by the ``method0``..``method7`` smoothers and
``evalfw.compat.nltk``: a Fraction that keeps raw counts, and the side inputs of the methods.

Not a plugin module (it registers nothing).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from evalfw.errors import PluginError
from evalfw.metrics.bleu.components import Counts, Precision

#: Before 3.12, Fraction accepts the private ``_normalize`` flag, and NLTK uses it to keep the
#: unreduced pair internally; its ``==`` with ints then compares the raw pair. Doing the same
#: keeps even odd direct calls identical to NLTK on this interpreter.
_KEEP_UNREDUCED = sys.version_info < (3, 12)


#: the pair of an instance that Fraction's own constructors made (3.12's ``from_float`` and
#: ``_from_coprime_ints`` bypass ``__new__``, as a comparison with a float does): reduced
_REDUCED: tuple[Any, Any] = (None, None)


class RawFraction(Fraction):
    """An exact rational whose ``numerator``/``denominator`` report the raw counts it was built
    from (2/4 stays 2/4, 0/7 stays 0/7), as NLTK's ``Fraction`` does: corpus BLEU sums raw
    counts, and methods 1, 3 and 4 divide by the raw n-gram count of a zero-match order."""

    __slots__ = ("_raw",)
    _raw: tuple[Any, Any]

    def __new__(cls, numerator: Any = 0, denominator: Any = None) -> RawFraction:
        self: RawFraction
        if _KEEP_UNREDUCED:
            # typeshed does not declare the private flag (it exists before 3.12 only)
            self = super().__new__(cls, numerator, denominator,  # type: ignore[call-overload]
                                   _normalize=False)
        else:
            self = super().__new__(cls, numerator, denominator)
        self._raw = (numerator, denominator)
        return self

    @property
    def numerator(self) -> Any:
        raw = getattr(self, "_raw", _REDUCED)
        return raw[0] if raw[1] is not None else super().numerator

    @property
    def denominator(self) -> Any:
        raw = getattr(self, "_raw", _REDUCED)
        return raw[1] if raw[1] is not None else super().denominator


@dataclass(frozen=True, slots=True)
class NltkContext:
    """What NLTK's methods read besides p_n; the callables are evaluated only when a method
    needs them, which is when NLTK evaluates them."""

    #: NLTK's ``hyp_len``: corpus hypothesis length, or the last hypothesis's when that is 0.
    hyp_len: int
    last_hyp_len: Callable[[], int]
    #: modified precision of order 5 of the last segment (raw counts).
    order5: Callable[[], Precision]

    @staticmethod
    def from_counts(counts: Counts) -> NltkContext:
        def order5() -> Precision:
            if len(counts.last_matches) < 5:
                raise PluginError(
                    "NLTK method5/method7 need the last segment's order-5 counts but the engine "
                    f"supplied {len(counts.last_matches)} orders; report this as an evalfw bug"
                )
            return RawFraction(int(counts.last_matches[4]), int(counts.last_totals[4]))

        return NltkContext(counts.hyp_len or counts.last_hyp_len,
                           lambda: counts.last_hyp_len, order5)


__all__ = ["NltkContext", "RawFraction"]
