"""The compiled kernel's ``Index.bleu_one`` (counting and sacreBLEU's ``compute_bleu`` in C, for
the per-call drop-in) gives exactly sacreBLEU 2.6.0's fields: the same floats, bit for bit, on
random segments that reach every branch of the formula (no match at all, orders without
n-grams, zero matches at some orders, hypotheses shorter and longer than the references,
ties between reference lengths), for every smoothing method and every order."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from evalfw.metrics.bleu.counting import kernel

K = kernel.kernel()
pytestmark = [pytest.mark.parity, pytest.mark.skipif(
    not hasattr(K, "bleu_rows"), reason="the kernel is built without the sacreBLEU formula")]

#: (sacreBLEU's smooth_method, smooth_value) and bleu_one's (smoothing, value, k)
SMOOTHINGS = [(("none", None), (0, 0.0, 0)), (("floor", 0.1), (1, 0.1, 0)),
              (("floor", 3), (1, 3.0, 0)), (("add-k", 1), (2, 0.0, 1)),
              (("add-k", 0), (2, 0.0, 0)), (("add-k", 7), (2, 0.0, 7)), (("exp", None), (3, 0.0, 0))]


def _closest(hyp_len: int, ref_lens: list[int]) -> int:
    # sacreBLEU's BLEU._get_closest_ref_len, spelled out
    closest_diff, closest_len = -1, -1
    for ref_len in ref_lens:
        diff = abs(hyp_len - ref_len)
        if closest_diff == -1 or diff < closest_diff:
            closest_diff, closest_len = diff, ref_len
        elif diff == closest_diff and ref_len < closest_len:
            closest_len = ref_len
    return closest_len


@pytest.mark.parametrize("chars", [False, True])
def test_bleu_one_equals_sacrebleu_compute_bleu(chars: bool) -> None:
    rng = random.Random(20261127 + chars)
    vocab = ["a", "b", "c", "ab", "é", "😀", "你", "d", "e", "f", "g", "h"]
    seen_branches = set()
    for _ in range(4000):
        order = rng.randint(1, 5)
        width = rng.choice([2, 4, len(vocab)])
        words = [rng.choice(vocab[:width]) for _ in range(rng.choice([0, 1, 2, 3, 8, 30]))]
        refs = [" ".join(rng.choice(vocab[:width]) for _ in range(rng.randint(0, 30)))
                for _ in range(rng.randint(1, 3))]
        hyp = " ".join(words)
        index = K.Index([f"\n{r}\n" for r in refs], 1, order, chars)
        hyp_len, matches = index.count_one(f"\n{hyp}\n")
        ref_lens = list(memoryview(index.ref_lens).cast("q"))
        for effective in (False, True):
            for (smooth, value), formula in SMOOTHINGS:
                got = index.bleu_one(f"\n{hyp}\n", effective, *formula)
                totals = [max(hyp_len - n, 0) for n in range(order)]
                want = SacreBLEU.compute_bleu(
                    list(matches), totals, hyp_len, _closest(hyp_len, ref_lens), smooth,
                    value, effective, order)
                assert got == (want.score, tuple(want.counts), tuple(want.totals),
                               tuple(want.precisions), want.bp, want.sys_len,
                               want.ref_len, len(refs)), (hyp, refs, order, effective, smooth)
                assert all(type(x) is int for x in got[1] + got[2])
                assert all(type(x) is float for x in (got[0], got[4], *got[3]))
        seen_branches.add((not any(matches), 0 in matches, hyp_len < order,
                           hyp_len < ref_lens[0]))
    assert len(seen_branches) >= 8  # the segments reached the formula's branches


def test_bleu_one_takes_one_line_of_a_one_segment_index() -> None:
    index = K.Index(["\na b\n"], 1, 2, False)
    for bad in ("a b", "\na\nb\n", "\na b"):
        with pytest.raises(ValueError):
            index.bleu_one(bad, True, 3, 0.0, 0)
    with pytest.raises(TypeError):
        index.bleu_one("\na\n", True)
    with pytest.raises(ValueError):
        K.Index(["\na\nb\n"], 2, 2, False).bleu_one("\na\n", True, 3, 0.0, 0)
    for smoothing, k in ((4, 0), (-1, 0), (2, -1), (2, 2**53)):
        with pytest.raises(ValueError):
            index.bleu_one("\na\n", True, smoothing, 0.0, k)
