"""Every value of the NLTK 3.10.4 reference tables (../shared/reference/nltk-3.10.4-bleu-spec.md,
§1.8, §2.10, §3.1-§3.5, §4.3) reproduced through evalfw.compat.nltk, compared with ``==`` and,
where the spec says so, by type (int 0 vs float)."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

from evalfw.compat import nltk as C
from tests.support.expected_warnings import nltk_zero_order
from tests.support.nltk_calls import (
    HYP1,
    HYP2,
    HYP_B,
    R3,
    REF1,
    REF_B,
    identical,
    outcome,
)

pytestmark = pytest.mark.parity

SF = C.SmoothingFunction()


def smoothed(method: int, refs, hyp) -> list[float]:
    p_n = [C.modified_precision(refs, hyp, n) for n in range(1, 5)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = getattr(SF, f"method{method}")(p_n, refs, hyp, len(hyp))
    return [float(p) for p in out]


# --------------------------------------------------------------------------- §2.10 smoothed p_n

TABLE_A = {  # hyp2 vs the three Papineni references
    1: [0.5714285714285714, 0.07692307692307693, 0.008333333333333333, 0.009090909090909092],
    2: [0.5714285714285714, 0.14285714285714285, 0.07692307692307693, 0.08333333333333333],
    3: [0.5714285714285714, 0.07692307692307693, 0.041666666666666664, 0.022727272727272728],
    4: [0.5714285714285714, 0.07692307692307693, 0.02199214441346049, 0.011995715134614811],
    5: [0.73992673992674, 0.27228327228327226, 0.09076109076109076, 0.030253696920363587],
    7: [0.73992673992674, 0.27961398708775914, 0.10453394887861149, 0.0388432213377421],
}
RAW_B = [11 / 18, 8 / 17, 6 / 16, 4 / 15]
TABLE_B = {  # hyp1 vs ref1 only
    1: RAW_B, 3: RAW_B, 4: RAW_B,
    2: [0.6111111111111112, 0.5, 0.4117647058823529, 0.3125],
    5: [0.8976034858387799, 0.5810639070442992, 0.4075768579036553, 0.27236688914248824],
    7: [0.8976034858387799, 0.5810639070442992, 0.4075768579036553, 0.27236688914248824],
    6: [11 / 18, 8 / 17, 0.3719947872197007, 0.2735144396630224],
}
IT_IS = "It is .".split()
PLACE = "It is a place of quiet contemplation .".split()
TABLE_C = {  # "It is ." vs "It is a place of quiet contemplation ."
    1: [1.0, 0.5, 0.1, 0.1],
    2: [1.0, 0.6666666666666666, 0.5, 0.5],
    3: [1.0, 0.5, 0.5, 0.25],
    4: [1.0, 0.5, 0.10986122886681099, 0.054930614433405495],
    5: [1.1666666666666667, 0.5555555555555556, 0.18518518518518517, 0.06172839506172839],
    7: [1.1666666666666667, 0.5921759651778259, 0.2523226028260141, 0.10241773908647318],
}


@pytest.mark.parametrize(("table", "refs", "hyp"), [
    (TABLE_A, R3, HYP2), (TABLE_B, [REF1], HYP1), (TABLE_C, [PLACE], IT_IS)])
def test_worked_smoothed_precisions(table, refs, hyp):
    for method, expected in table.items():
        assert smoothed(method, refs, hyp) == expected, f"method{method}"


@pytest.mark.parametrize(("refs", "hyp"), [(R3, HYP2), ([PLACE], IT_IS)])
def test_method6_asserts_on_zero_trigram(refs, hyp):
    with pytest.raises(AssertionError):
        smoothed(6, refs, hyp)


def test_raw_counts_are_kept():
    assert C.modified_precision([["a", "b"]], ["a", "b", "a", "b"], 1).denominator == 4
    p = C.modified_precision([["a", "b"]], ["a", "b", "a", "b"], 1)
    assert (p.numerator, p.denominator, float(p)) == (2, 4, 0.5)
    zero = C.modified_precision([REF1], ["x"] * 7, 2)
    assert (zero.numerator, zero.denominator) == (0, 6)


# --------------------------------------------------------------------------- §3.1 doctests

@nltk_zero_order  # HYP2 matches no 4-gram: NLTK warns, and so does its drop-in
def test_sentence_doctests():
    assert C.sentence_bleu(R3, HYP1) == 0.5045666840058485
    assert C.sentence_bleu(R3, HYP2) == 5.92086005993801e-155
    assert C.sentence_bleu(R3, HYP2, smoothing_function=SF.method1) == 0.03703131191121491
    assert C.sentence_bleu(R3, HYP1, (1 / 5,) * 5) == 0.39202634084155785
    assert C.sentence_bleu(R3, HYP1, [(1 / 2, 1 / 2), (1 / 3,) * 3, (1 / 4,) * 4]) == [
        0.7453559924999299, 0.6240726989348756, 0.5045666840058485]


def test_corpus_doctests():
    refs, hyps = [R3, [REF_B]], [HYP1, HYP_B]
    assert C.corpus_bleu(refs, hyps) == 0.5920778868801042
    avg = (C.sentence_bleu(R3, HYP1) + C.sentence_bleu([REF_B], HYP_B)) / 2
    assert C.sentence_bleu([REF_B], HYP_B) == 0.7400828044922853
    assert avg == 0.6223247442490669
    assert C.corpus_bleu(refs, hyps, weights=(0.1, 0.3, 0.5, 0.1)) == 0.5818765313748497
    weights = [(0.5, 0.5), (0.333, 0.333, 0.334), (0.25,) * 4, (0.2,) * 5]
    assert C.corpus_bleu(refs, hyps, weights) == [
        0.8242803277698696, 0.7067259260175768, 0.5920778868801042, 0.4719230742411042]


def test_modified_precision_doctests():
    cat = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    assert float(C.modified_precision(cat, ["the"] * 7, 1)) == 2 / 7
    assert float(C.modified_precision(cat, ["the"] * 7, 2)) == 0.0
    assert float(C.modified_precision(R3, ["of", "the"], 1)) == 1.0
    assert float(C.modified_precision(R3, ["of", "the"], 2)) == 1.0
    assert float(C.modified_precision(R3, HYP1, 1)) == 17 / 18
    assert float(C.modified_precision(R3, HYP2, 1)) == 8 / 14
    assert float(C.modified_precision(R3, HYP1, 2)) == 0.5882352941176471
    assert float(C.modified_precision(R3, HYP2, 2)) == 1 / 13


def _bp(ref_lens: list[int], hyp_len: int):
    refs = [["a"] * n for n in ref_lens]
    return C.brevity_penalty(C.closest_ref_length(refs, hyp_len), hyp_len)


def test_brevity_penalty_doctests():
    assert _bp([12, 15, 17], 12) == 1.0
    assert _bp([28, 28], 12) == 0.2635971381157267
    assert _bp([13, 2], 12) == 0.9200444146293233
    assert _bp([13, 11], 12) == _bp([11, 13], 12) == 1
    assert type(_bp([13, 11], 12)) is int
    assert _bp([11, 8], 7) == 0.8668778997501817
    assert _bp([11, 8, 6, 7], 7) == 1.0
    assert C.closest_ref_length([["a"] * 5, ["a"] * 3], 4) == 3  # tie -> shorter


def test_smoothing_function_doctests():
    expected = {None: 0.41180376356915777, 0: 0.41180376356915777, 1: 0.41180376356915777,
                2: 0.4452945001507636, 3: 0.41180376356915777, 4: 0.41180376356915777,
                5: 0.4905328138015114, 6: 0.41358958106633686, 7: 0.4905328138015114}
    for method, value in expected.items():
        fn = None if method is None else getattr(SF, f"method{method}")
        assert C.sentence_bleu([REF1], HYP1, smoothing_function=fn) == value, method


# --------------------------------------------------------------------------- §3.2, §3.3

NO_ALIGN = "The candidate has no alignment to any of the references".split()
JLM = "John loves Mary".split()


def test_bleu_doctest_file():
    zero = C.bleu([NO_ALIGN], JLM, (1,))
    assert zero == 0 and type(zero) is int
    value = C.sentence_bleu([PLACE], IT_IS, smoothing_function=SF.method4) * 100
    assert value == 4.426730592500287


def test_unit_zero_and_full_matches():
    for n in range(1, 3):
        zero = C.sentence_bleu([NO_ALIGN], JLM, (1 / n,) * n)
        assert zero == 0 and type(zero) is int
        assert C.sentence_bleu([JLM], JLM, (1 / n,) * n) == 1.0


@pytest.mark.parametrize(("refs", "hyp", "expected"), [
    ([JLM], "John loves Mary who loves Mike".split(), 5.775353993361614e-78),
    (["John loves Mary ?".split()], JLM, 8.751273976943354e-78),
    ([JLM], JLM, 1.2213386697554703e-77),
    (["let it go".split()], "let go it".split(), 1.821831989445342e-231),
])
def test_unit_partial_matches_warn(refs, hyp, expected):
    result = outcome(C.sentence_bleu, refs, hyp)
    assert result.value == expected and UserWarning in result.warned


def test_unit_fringe_cases():
    for refs, hyp in (([JLM], []), ([[]], JLM), ([[]], [])):
        value = C.sentence_bleu(refs, hyp)
        assert value == 0 and type(value) is int
    assert C.sentence_bleu([JLM], ["Foo"], smoothing_function=SF.method4) == 0
    assert C.sentence_bleu([NO_ALIGN], JLM, np.array([0.25] * 4)) == 0


def test_unit_bad_sentence():
    hyp = "Teo S yb , oe uNb , R , T t , , t Tue Ar saln S , , 5istsi l , 5oe R ulO sae oR R"
    ref = ("Their tasks include changing a pump on the faulty stokehold .Likewise , two species "
           "that are very similar in morphology were distinguished using genetics .")
    result = outcome(C.corpus_bleu, [[ref.split()]], [hyp.split()])
    assert result.value == 7.850707993042515e-232 and UserWarning in result.warned


def test_unit_multiple_weights():
    refs, hyps = [R3, [REF_B]], [HYP1, HYP_B]
    weights = [(1, 0, 0, 0), (0.25,) * 4, (0, 0, 0, 0, 1)]
    expected = [0.9655172413793104, 0.5920778868801042, 0.19047619047619047]
    assert C.corpus_bleu(refs, hyps, weights) == expected
    assert [C.corpus_bleu(refs, hyps, w) for w in weights] == expected


def test_wmt15_eval_against_nltk_data():
    nltk_data = pytest.importorskip("nltk.data")
    try:
        ref_path = nltk_data.find("models/wmt15_eval/ref.ru")
        hyp_path = nltk_data.find("models/wmt15_eval/google.ru")
    except LookupError:
        pytest.skip("nltk_data models/wmt15_eval is not installed "
                    "(python -m nltk.downloader wmt15_eval)")
    with open(ref_path, encoding="utf8") as r, open(hyp_path, encoding="utf8") as h:
        refs, hyps = [[line.split()] for line in r], [line.split() for line in h]
    expected = [0.5384615384615384, 0.3991786166935928, 0.30354141085695724, 0.23168256941453305,
                0.1785212459886279, 0.13644944904648287, 0.10326103266708307, 0.07554559655610243,
                0.0494229240597074]
    for i, value in enumerate(expected, start=1):
        assert C.corpus_bleu(refs, hyps, (1 / i,) * i) == value
        assert C.corpus_bleu(refs, hyps, (1 / i,) * i, SF.method3) == value
    assert C.corpus_bleu(refs, hyps, smoothing_function=SF.method6) == 8.183691820319254


# --------------------------------------------------------------------------- §3.5 recommended

HYP2_BY_METHOD = [5.92086005993801e-155, 0.03703131191121491, 0.13111209575157431,
                  0.06963003305718092, 0.050586660655564, 0.13294741324283815, AssertionError,
                  0.14758356058214836]
AB_BY_METHOD = [1.491668146240062e-154, 0.316227766016838, 0.7071067811865476,
                0.5946035575013605, 0.2213885886251307, 0.3904229971285616, AssertionError,
                0.4358979683151974]


@pytest.mark.parametrize(("refs", "hyp", "expected"), [
    (R3, HYP2, HYP2_BY_METHOD), ([["a", "b"]], ["a", "b"], AB_BY_METHOD)])
def test_scores_by_method(refs, hyp, expected):
    for method, value in enumerate(expected):
        result = outcome(C.sentence_bleu, refs, hyp, (0.25,) * 4, getattr(SF, f"method{method}"))
        if isinstance(value, type):
            assert result.error is value, method
        else:
            assert result.value == value, method


@nltk_zero_order  # orders without a match: NLTK warns, and so does its drop-in
def test_nltk_github_issue_1838_cases():
    hyp = [1, 2, 3, 4]
    assert C.sentence_bleu([[5, 6, 8, 1]], hyp, (0.5, 0.5)) == 7.458340731200295e-155
    assert C.sentence_bleu([[5, 6, 1, 2]], hyp, (0.5, 0.5)) == 0.408248290463863
    assert C.sentence_bleu([[5, 6, 2, 3]], hyp, (0, 0.5)) == 0.5773502691896257
    assert C.sentence_bleu([[5, 6, 7, 3]], hyp, (0, 0.5)) == 1.491668146240062e-154
    zero = C.sentence_bleu([[5, 6, 8, 7]], hyp, (0, 0.5))
    assert zero == 0 and type(zero) is int


def test_nltk_github_issue_2341_cases():
    ref = "a a a d a a a".split()
    for hyp, value in ((["a"] * 7, 0.04864775372638283), (["a"] + ["b"] * 6, 0.012161938431595711)):
        assert C.corpus_bleu([[ref]], [hyp], (0, 0, 0, 1), SF.method4) == value


def test_multi_weight_consistency():
    hyp = "It is to insure the military forever hearing the activity guidebook that party direct"
    hyp = hyp.split()
    weights = [(1 / 2,) * 2, (1 / 3,) * 3, (1 / 4,) * 4]
    same = {
        0: [0.24042867054737016, 1.0369511339508526e-103, 6.80995604541296e-155],
        1: [0.24042867054737016, 0.07474515813385268, 0.0425920565367986],
        2: [0.2837523995635391, 0.17510473427368925, 0.14033551327725774],
        3: [0.24042867054737016, 0.12781242253943417, 0.08008590977659769],
        4: [0.24042867054737016, 0.10329183828064656, 0.05818292141027581],
        5: [0.39595986814746786, 0.2361261165530921, 0.1385511508966959],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method, values in same.items():
            fn = getattr(SF, f"method{method}")
            assert [C.sentence_bleu([REF1], hyp, w, fn) for w in weights] == values
            assert C.sentence_bleu([REF1], hyp, weights, fn) == values
    fn = SF.method7
    assert [C.sentence_bleu([REF1], hyp, w, fn) for w in weights] == [
        0.39595986814746786, 0.24584831380583852, 0.15288310810443495]
    assert C.sentence_bleu([REF1], hyp, weights, fn) == [
        0.4009230602779669, 0.24888345282114238, 0.15288310810443495]
    assert outcome(C.sentence_bleu, [REF1], hyp, weights[0], SF.method6).error is IndexError
    assert outcome(C.sentence_bleu, [REF1], hyp, weights, SF.method6).error is AssertionError


def test_method5_can_exceed_one_and_depends_on_other_weights():
    seven = list("abcdefg")
    assert C.sentence_bleu([seven], seven, smoothing_function=SF.method5) == 1.1167470964180197
    four = seven[:4]
    assert C.sentence_bleu([four], four, smoothing_function=SF.method5) == 1.010629663399238
    assert C.sentence_bleu([four], four, smoothing_function=SF.method7) == 1.010629663399238
    assert C.sentence_bleu([seven], seven, (0.5, 0.5), SF.method5) == 1.2171612389003692
    assert C.sentence_bleu([REF1], HYP1, (0.5, 0.5), SF.method5) == 0.6723894525224174
    multi = C.sentence_bleu([REF1], HYP1, [(0.5, 0.5), (0.25,) * 4], SF.method5)
    assert multi[0] == 0.7221945641294067


# --------------------------------------------------------------------------- §1.8 edge cases

LET_GO = (["let it go".split()], "let go it".split())


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: C.sentence_bleu([["left", "right"]], ["left", "right"]), 1.491668146240062e-154),
    (lambda: C.sentence_bleu(*LET_GO, auto_reweigh=True), 7.910967875272498e-206),
    (lambda: C.sentence_bleu(*LET_GO, weights=[0.25] * 4, auto_reweigh=True),
     1.821831989445342e-231),
    (lambda: C.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], auto_reweigh=True), 1.0),
    (lambda: C.corpus_bleu([[["a", "b", "c"]]] * 2, [["a", "b", "c"]] * 2, auto_reweigh=True),
     1.2213386697554703e-77),
    (lambda: C.sentence_bleu([list("abcd")], list("abcx"), smoothing_function=C.SmoothingFunction(
        epsilon=0).method1), 0.7071067811865476),
    (lambda: C.sentence_bleu([["a", "b"]], ["a"], (0.25,) * 4, SF.method4), 0.36787944117144233),
    (lambda: C.sentence_bleu([list("abc")], list("abc"), ()), 0),
    # weights are not normalised: p1 / p2 = (3/4) / (2/3) (the spec gives only the value)
    (lambda: C.sentence_bleu([list("abcd")], list("abcx"), (1, -1)), 1.125),
    (lambda: C.corpus_bleu([[list("abcd")], [["x", "y"]]], [list("abcd"), []]), 0.4056114983537769),
    (lambda: C.corpus_bleu([[list("abcde")], [["x", "y"]], [list("ab")]],
                           [list("abcde"), [], list("ab")]),
     0.5139287076841786),
])
def test_edge_case_values(call, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert identical(call(), expected)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: C.sentence_bleu([], []), ValueError),
    (lambda: C.sentence_bleu([], ["a"]), KeyError),
    (lambda: C.corpus_bleu([], []), ZeroDivisionError),
    (lambda: C.corpus_bleu([[["a"]]], []), AssertionError),
    (lambda: C.sentence_bleu(*LET_GO, weights=np.array([0.25] * 4), auto_reweigh=True), ValueError),
    (lambda: C.sentence_bleu([REF1], HYP1, (0.5, 0.5), SF.method6), IndexError),
    (lambda: C.SmoothingFunction.method1([C.Fraction(1, 2)]), TypeError),
])
def test_edge_case_errors(call, error):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error):
            call()


def test_no_unigram_match_is_int_zero_for_every_method():
    for method in range(8):
        fn = getattr(SF, f"method{method}")
        assert identical(C.sentence_bleu([NO_ALIGN], JLM, smoothing_function=fn), 0)
        assert identical(C.sentence_bleu([NO_ALIGN], JLM, [(0.5, 0.5), (1,)], fn), [0, 0])
        assert identical(C.sentence_bleu([NO_ALIGN], JLM, [(0.25,) * 4], fn), 0)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.11 keeps NLTK's unreduced pair")
def test_unreduced_fraction_compares_like_nltk_on_311():
    # NLTK's Fraction on 3.11 stores 0/7 unreduced, so it is not == 0; evalfw's matches that.
    assert (C.Fraction(0, 7) == 0) is False and not C.Fraction(0, 7)
