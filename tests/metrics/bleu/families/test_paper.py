"""Chen & Cherry (2014) smoothing 1-7, ``plain`` and mean ``geometric``, checked against values
computed by hand from the paper's formulas (exact Fractions where the formula is rational),
including the spec's paper-vs-NLTK example ("It is ." : paper 0.2197 / 0.0483 for method 4)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.families import paper as P
from evalfw.metrics.bleu.families.nltk import Method4

# "It is ." vs "It is a place of quiet contemplation ." with NLTK's totals (l_n >= 1):
# matches 3/3, 1/2, 0/1, 0/1; the 5-gram look-ahead is 0/1; hypothesis length 3, reference 8.
IT_IS = Counts((3, 1, 0, 0), (3, 2, 1, 1), 3, 8, 1, (3, 1, 0, 0, 0), (3, 2, 1, 1, 1), 3)
A = math.log(3) / 5  # ln(len(T)) / K


def smooth(cls: type, counts: Counts = IT_IS, **options) -> tuple:
    return cls(**options).smooth(counts).precisions


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-14)


def test_plain():
    assert smooth(P.Plain) == (1, F(1, 2), 0, 0)
    assert smooth(P.Plain, Counts((2, 0), (4, 0), 4, 4)) == (F(1, 2), 0)  # 0/0 -> 0


def test_smoothing_1_epsilon():
    assert smooth(P.Epsilon) == (1, F(1, 2), 0.1, 0.1)
    counts = Counts((2, 0, 0), (4, 3, 2), 4, 4)
    assert smooth(P.Epsilon, counts, epsilon=0.3) == (F(1, 2), 0.3 / 3, 0.3 / 2)


def test_smoothing_2_add_one():
    sm = P.AddOne().smooth(IT_IS)
    assert sm.precisions == (1, F(2, 3), F(1, 2), F(1, 2))
    assert (sm.matches, sm.totals) == ((3, 2, 1, 1), (3, 3, 2, 2))  # the counts it added to
    assert smooth(P.AddOne, Counts((0, 0), (0, 0), 0, 3)) == (0, 1)  # Lin & Och's formula at l = 0


def test_smoothing_3_nist_geometric():
    assert smooth(P.NistGeometric) == (1, F(1, 2), F(1, 2), F(1, 4))
    # the counter only advances at zero-match orders: 1/(2*5), then 1/(4*2)
    assert smooth(P.NistGeometric, Counts((6, 0, 1, 0), (7, 5, 3, 2), 7, 7)) == (
        F(6, 7), F(1, 10), F(1, 3), F(1, 8))


def test_smoothing_4_paper_vs_nltk():
    p = smooth(P.LengthScaled)
    assert p[:2] == (1, F(1, 2))
    assert close(p[2], A) and close(p[3], A * A)  # invcnt compounds K / ln len(T)
    assert (round(p[2], 4), round(p[3], 4)) == (0.2197, 0.0483)  # the spec's paper values
    nltk = Method4().smooth(IT_IS).precisions  # NLTK: 2^c * K / ln L, not compounded
    assert (nltk[2], nltk[3]) == (0.10986122886681099, 0.054930614433405495)
    assert close(nltk[2], p[2] / 2)
    p = smooth(P.LengthScaled, Counts((5, 2, 0, 0), (8, 7, 6, 5), 8, 8), k=2)
    a = math.log(8) / 2
    assert close(p[2], a / 6) and close(p[3], a * a / 5)
    assert smooth(P.LengthScaled, Counts((1, 0), (1, 1), 1, 1)) == (1, 0)  # len(T) = 1: no mass


def test_smoothing_5_neighbours():
    # m'_0 = 4; m'_1 = (4+3+1)/3 = 8/3; m'_2 = (8/3+1+0)/3 = 11/9; m'_3 = 11/27; m'_4 = 11/81
    assert smooth(P.Neighbours) == (F(8, 9), F(11, 18), F(11, 27), F(11, 81))
    # a perfect 7-token match stays exactly 1 (NLTK's method5 gives 1.1167...): m5 = 3 is read
    perfect = Counts((7, 6, 5, 4), (7, 6, 5, 4), 7, 7, 1, (7, 6, 5, 4, 3), (7, 6, 5, 4, 3), 7)
    assert smooth(P.Neighbours, perfect) == (1, 1, 1, 1)
    # several segments: no corpus m_{N+1} exists, it is taken as 0: m'_4 = (5 + 4 + 0) / 3
    corpus = Counts((7, 6, 5, 4), (7, 6, 5, 4), 7, 7, 2, (7, 6, 5, 4, 3), (7, 6, 5, 4, 3), 7)
    assert smooth(P.Neighbours, corpus) == (1, 1, 1, F(3, 4))
    assert P.Neighbours.needs_orders == 5


def test_smoothing_6_interpolation():
    # p3 = (0 + 5 * (1/2)^2 / 1) / (1 + 5) = 5/24; p4 = (0 + 5 * (5/24)^2 / (1/2)) / 6 = 125/1728
    assert smooth(P.Interpolated) == (1, F(1, 2), F(5, 24), F(125, 1728))
    # a zero p_{n-2} gives a zero prior: p3 = (0 + 0) / (2 + 5)
    assert smooth(P.Interpolated, Counts((0, 1, 0), (3, 2, 2), 3, 3)) == (0, F(1, 2), 0)
    # alpha = 1: p3 = (1/4) / 2 = 1/8; p4 = ((1/8)^2 / (1/2)) / 2 = 1/64
    assert smooth(P.Interpolated, alpha=1) == (1, F(1, 2), F(1, 8), F(1, 64))


def test_smoothing_7_length_scaled_then_neighbours():
    # smoothing 4 on m_1..m_5 = 3, 1, 0, 0, 0 gives 3, 1, a, a^2, a^3; then smoothing 5
    m1 = F(8, 3)
    m2 = (m1 + 1 + A) / 3
    m3 = (m2 + A + A * A) / 3
    m4 = (m3 + A * A + A ** 3) / 3
    p = smooth(P.LengthScaledNeighbours)
    assert p[0] == F(8, 9)
    assert close(p[1], m2 / 2) and close(p[2], m3) and close(p[3], m4)


def test_orders_without_ngrams_are_zero_and_not_smoothed():
    short = Counts((2, 1, 0, 0), (2, 1, 0, 0), 2, 2, 1, (2, 1, 0, 0, 0), (2, 1, 0, 0, 0), 2)
    assert smooth(P.Epsilon, short) == (1, 1, 0, 0)
    assert smooth(P.NistGeometric, short) == (1, 1, 0, 0)
    assert smooth(P.LengthScaled, short) == (1, 1, 0, 0)


def test_geometric_mean():
    mean = P.GeometricMean()
    sm = P.NistGeometric().smooth(IT_IS)  # 1, 1/2, 1/2, 1/4: product 1/16, geometric mean 1/2
    bp = math.exp(1 - 8 / 3)
    (score,) = mean.combine(sm, IT_IS, bp, None)
    assert close(score, bp / 2)
    assert mean.combine(sm, IT_IS, 1, [(1.0,), (0.5, 0.5), (0, 0, 0, 1)]) == (
        1.0, math.exp(0.5 * math.log(0.5)), 0.25)
    assert mean.combine(P.Plain().smooth(IT_IS), IT_IS, 1, None) == (0.0,)
    assert mean.combine(P.Plain().smooth(IT_IS), IT_IS, 1, [(0.5, 0.5, 0, 0)]) == (math.sqrt(0.5),)
    (pct,) = P.GeometricMean(percent=True).combine(sm, IT_IS, bp, None)
    assert pct == 100 * score


def test_geometric_effective_order():
    short = Counts((2, 1, 0, 0), (2, 1, 0, 0), 2, 2)
    sm = P.Plain().smooth(short)
    assert P.GeometricMean().combine(sm, short, 1, None) == (0.0,)
    eff = P.GeometricMean(effective_order=True)
    assert eff.combine(sm, short, 1, None) == (1.0,)
    half = Counts((2, 1, 0, 0), (4, 2, 0, 0), 4, 4)
    sm = P.Plain().smooth(half)
    assert eff.combine(sm, half, 1, None) == (math.exp(0.5 * math.log(0.5) * 2),)
    # explicit weights keep their sum: (0.25, 0.25) of the kept orders become (0.5, 0.5)
    assert eff.combine(sm, half, 1, [(0.25,) * 4]) == (math.exp(0.5 * math.log(0.5) * 2),)
    empty = Counts((0,), (0,), 0, 1)
    assert eff.combine(P.Plain().smooth(empty), empty, 0, None) == (0.0,)


def test_engine_scores_paper_methods(session_host):
    from evalfw import api

    result = api.corpus_bleu(["It is ."], [["It is a place of quiet contemplation ."]],
                             host=session_host, preset="nltk", smoothing="chen-cherry-4",
                             mean="geometric")
    expected = math.exp(1 - 8 / 3) * math.exp((math.log(0.5) + math.log(A) + math.log(A * A)) / 4)
    assert close(result.score, expected)
    result = api.corpus_bleu(["It is ."], [["It is a place of quiet contemplation ."]],
                             host=session_host, preset="nltk", smoothing="chen-cherry-6",
                             mean="geometric")  # NLTK's method6 would assert here
    product = F(1, 2) * F(5, 24) * F(125, 1728)
    assert close(result.score, math.exp(1 - 8 / 3) * float(product) ** 0.25)


@pytest.mark.parametrize("cls", P.SMOOTHERS)
def test_every_paper_smoother_is_scale_one_and_total(cls):
    counts = Counts((0, 0, 0, 0), (0, 0, 0, 0), 0, 5, 1, (0,) * 5, (0,) * 5, 0)
    p = cls().smooth(counts).precisions
    assert cls.scale == 1 and len(p) == 4 and all(x >= 0 for x in p)
