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
import re
import sys
from typing import Any

import numpy as np
import pytest

#: whether ``sum()`` of floats adds left to right here, as where the copied values were made
PLAIN_SUM = sys.version_info < (3, 12)


def same_as_recorded(ours: float, recorded: float) -> bool:
    """``ours`` equals a value recorded under a left-to-right ``sum()``: bit for bit there,
    within the last few bits (relative 1e-13) under 3.12's compensated sum."""
    return ours == recorded if PLAIN_SUM else math.isclose(ours, recorded, rel_tol=1e-13)




def check_verified_here(verify_json: dict[str, Any], recorded_python: str, results: int) -> None:
    """A stored fixture run (made with ``recorded_python``) verifies here: every result
    identical where ``sum()`` adds as it did for the run; under the other ``sum()`` the
    differences are all in the last bits and the verdict says why (``evalfw verify --json``)."""
    made_plain = tuple(int(x) for x in recorded_python.split(".")[:2]) < (3, 12)
    if made_plain == PLAIN_SUM:
        assert verify_json["verified"], verify_json["problems"][:5]
        assert verify_json["compared"] == results
        return
    assert not verify_json["verified"]
    assert any("sum() of floats compensates rounding" in n for n in verify_json["notes"])
    numbers = 0
    for problem in verify_json["problems"]:
        found = re.search(r": (\S+) -> (\S+) \([+-][0-9.e+-]+\)$", problem)
        if found is None:  # what explains them (versions), or a file written from them
            assert problem.startswith(VERSION_LINES) or ".sha256: '" in problem, problem
            continue
        numbers += 1
        assert math.isclose(float(found[1]), float(found[2]), rel_tol=1e-12), problem
    assert numbers > 0


#: how verify's lines about the environment begin
VERSION_LINES = ("python ", "package ", "code computing ", "plugin ", "implementation ",
                 "the config as evalfw completes it")


#: numpy 2 computes a float32 scalar with a Python float in float32 (NEP 50); numpy 1.x in
#: float64 (value-based casting). sacreBLEU's bootstrap scores float32 sums of resampled rows,
#: so its resampled scores (intervals, paired tests) follow the installed numpy; evalfw's
#: sacreBLEU mode reproduces numpy 2's arithmetic. Every other number is the same under both.
NEP50 = int(np.__version__.split(".")[0]) >= 2
needs_nep50 = pytest.mark.skipif(
    not NEP50, reason="numpy 1.x: sacreBLEU's float32 bootstrap arithmetic promotes to float64 "
    "(value-based casting), evalfw's sacreBLEU mode reproduces numpy 2's (NEP 50); "
    "tests/compat/test_numpy1_promotion.py checks the difference")


__all__ = ["NEP50", "PLAIN_SUM", "check_verified_here", "needs_nep50", "same_as_recorded"]
