"""Reference-length choice: the one-sentence shortcut equals the vectorized rule, row by row."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evalfw.metrics.bleu.families.brevity import Closest, ClosestFirst, Shortest


@pytest.mark.parametrize("cls", [Closest, ClosestFirst, Shortest])
def test_one_row_at_a_time_equals_all_rows_at_once(cls) -> None:
    rng = random.Random(cls.name)
    rule = cls()
    for _ in range(300):
        rows, refs = rng.randint(2, 12), rng.randint(0, 4)
        hyp = np.array([rng.randint(0, 9) for _ in range(rows)], dtype=np.int64)
        # small lengths make ties (equal distance above and below) frequent; -1: no reference
        lens = np.array([[rng.choice([-1, *range(0, 10)]) for _ in range(refs)]
                         for _ in range(rows)], dtype=np.int64).reshape(rows, refs)
        together = rule.choose_ref_len(hyp, lens).tolist()
        alone = [int(rule.choose_ref_len(hyp[i:i + 1], lens[i:i + 1])[0]) for i in range(rows)]
        assert alone == together


def test_ties_go_to_the_shorter_or_the_first_reference() -> None:
    hyp, lens = np.array([5]), np.array([[7, 3, -1]])
    assert Closest().choose_ref_len(hyp, lens).tolist() == [3]
    assert ClosestFirst().choose_ref_len(hyp, lens).tolist() == [7]
    assert Closest().choose_ref_len(hyp, np.array([[-1, -1]])).tolist() == [-1]
