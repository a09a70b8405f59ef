"""Property-based tests (hypothesis) of corpus BLEU and the compat layers on arbitrary text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

import evalfw
from evalfw.compat import sacrebleu as compat

pytestmark = pytest.mark.parity

# Words from a small alphabet (so n-grams match) mixed with arbitrary Unicode.
WORD = st.one_of(
    st.sampled_from(["a", "b", "c", "the", "Cat", "猫", "ß", "ΟΔΟΣ", ".", ",", "1.5"]),
    st.text(min_size=1, max_size=6),
)
SENT = st.lists(WORD, max_size=12).map(" ".join)
#: words that stay one whitespace-separated word, so a segment of 4 of them has >= 4 tokens
SOLID = WORD.filter(lambda w: w.split() == [w])
PROFILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def corpora(draw, min_segments=1):
    n = draw(st.integers(min_segments, 8))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(SENT, min_size=n, max_size=n))
    refs = [draw(st.lists(SENT, min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


@PROFILE
@given(corpora(), st.randoms(use_true_random=False))
def test_invariant_under_reordering_segments(corpus, rnd):
    hyps, refs = corpus
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    a = evalfw.corpus_bleu(hyps, refs)
    b = evalfw.corpus_bleu([hyps[i] for i in order], [[r[i] for i in order] for r in refs])
    assert a.score == b.score
    assert (a.counts, a.totals, a.hyp_len, a.ref_len) == (b.counts, b.totals, b.hyp_len, b.ref_len)


@PROFILE
@given(corpora(), st.integers(2, 4), st.sampled_from(["none", "exp"]))
def test_invariant_under_repeating_the_corpus(corpus, times, smooth):
    hyps, refs = corpus
    a = evalfw.corpus_bleu(hyps, refs, smoothing=smooth)
    b = evalfw.corpus_bleu(hyps * times, [r * times for r in refs], smoothing=smooth)
    assert [c * times for c in a.counts] == list(b.counts)
    assert [t * times for t in a.totals] == list(b.totals)
    # Repetition scales every count, and BLEU depends on ratios of counts only, so the score is
    # the same to the bit -- unless a smoothing adds a constant to a zero-match order (exp gives
    # 1/(2^k * total), which the repetition changes): that is the definition, not an error.
    if smooth == "none" or all(a.counts):
        assert a.score == b.score


@PROFILE
@given(st.lists(st.lists(SOLID, min_size=4, max_size=10).map(" ".join), min_size=1, max_size=6))
def test_identical_hypothesis_scores_100(segments):
    res = evalfw.corpus_bleu(segments, [segments])
    # sacreBLEU's own arithmetic gives 100.00000000000004 for a perfect match (its #275)
    assert round(res.score, 10) == 100.0
    assert res.score == SacreBLEU().corpus_score(segments, [segments]).score


@PROFILE
@given(corpora(), st.sampled_from(["none", "floor", "add-k", "exp"]), st.booleans())
def test_scores_within_0_and_100(corpus, smooth, eff):
    hyps, refs = corpus
    res = evalfw.corpus_bleu(hyps, refs, smoothing=smooth, effective_order=eff)
    assert 0.0 <= res.score <= 100.00000000000004


@PROFILE
@given(corpora(), st.sampled_from(["none", "13a", "intl", "zh", "char"]),
       st.sampled_from(["none", "floor", "add-k", "exp"]), st.booleans(), st.booleans(),
       st.integers(1, 5))
def test_compat_sacrebleu_equals_sacrebleu_on_arbitrary_unicode(corpus, tok, smooth, eff, lc, order):
    hyps, refs = corpus
    kw = dict(tokenize=tok, smooth_method=smooth, effective_order=eff, lowercase=lc,
              max_ngram_order=order)
    ours = compat.BLEU(**kw).corpus_score(hyps, refs)
    theirs = SacreBLEU(**kw).corpus_score(hyps, refs)
    assert (ours.score, list(ours.counts), list(ours.totals), ours.bp) == \
        (theirs.score, list(theirs.counts), list(theirs.totals), theirs.bp)
    assert str(ours) == str(theirs)


@PROFILE
@given(st.lists(st.lists(WORD, max_size=10), min_size=1, max_size=5),
       st.integers(1, 3), st.integers(0, 7), st.data())
def test_compat_nltk_equals_nltk_on_arbitrary_unicode(hyps, k, method, data):
    import warnings

    from nltk.translate import bleu_score as real

    from evalfw.compat import nltk as ours

    refs = [[data.draw(st.lists(WORD, max_size=10)) for _ in range(k)] for _ in hyps]
    if not any(hyps):  # NLTK divides by zero on an all-empty corpus of one token-less sentence
        hyps[0] = ["a"]
    results = []
    for mod in (real, ours):
        sf = getattr(mod.SmoothingFunction(), f"method{method}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = mod.corpus_bleu(refs, hyps, smoothing_function=sf)
            except Exception as exc:  # NLTK raises on some inputs (method6); so must we
                value = type(exc)
        results.append((value, type(value), [w.category for w in caught]))
    assert results[0] == results[1]
