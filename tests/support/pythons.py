"""What changes between the supported Pythons for the numbers evalfw reproduces.

Python 3.12's ``sum()`` of floats compensates rounding (earlier Pythons add left to right).
sacreBLEU sums BLEU's log precisions with ``sum()``, so its own scores change in the last bits
on 3.12, and evalfw's BLEU, which reproduces sacreBLEU on the Python it runs on, changes with
them. Values copied from sacreBLEU's tests and the reference notes were computed where ``sum()``
adds left to right: on 3.12 a test compares with the real sacreBLEU on the same Python, and with
the copied value within a few units in the last place.
"""

from __future__ import annotations

import math
import sys

#: whether ``sum()`` of floats adds left to right here, as where the copied values were made
PLAIN_SUM = sys.version_info < (3, 12)


def same_as_recorded(ours: float, recorded: float) -> bool:
    """``ours`` equals a value recorded under a left-to-right ``sum()``: bit for bit there,
    within the last few bits (relative 1e-13) under 3.12's compensated sum."""
    return ours == recorded if PLAIN_SUM else math.isclose(ours, recorded, rel_tol=1e-13)


__all__ = ["PLAIN_SUM", "same_as_recorded"]
