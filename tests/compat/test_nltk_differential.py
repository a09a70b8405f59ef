"""Randomized differential tests: evalfw.compat.nltk against the real nltk.translate.bleu_score.

Every case compares value AND type (int 0 vs float, list vs scalar), the warnings issued
(count and category) and the exception type. Inputs use small vocabularies so that n-grams
match, short and empty hypotheses, 1-3 references (varying per segment), 1-5 segment corpora,
BLEU-1..5, weight lists, numpy weights, auto_reweigh, all 8 methods with random parameters.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from evalfw.compat import nltk as C
from tests.support.nltk_calls import identical, outcome, same_outcome

pytestmark = pytest.mark.parity

B = pytest.importorskip("nltk.translate.bleu_score")

CASES_PER_METHOD = 750  # x 9 smoothing choices (None, method0..7) = 6750 corpus/sentence cases
DIRECT_CASES = 2000  # SmoothingFunction methods called directly on p_n lists
HELPER_CASES = 1500  # modified_precision / closest_ref_length / brevity_penalty

WEIGHTS: list[Any] = [
    (0.25,) * 4, (1.0,), (0.5, 0.5), (1 / 3,) * 3, (0.2,) * 5, (0.1, 0.3, 0.5, 0.1),
    (1, 0, 0, 0), (0, 0, 0, 1), (0, 0.5), (1, -1), (), [0.25] * 4, [(0.25,) * 4],
    [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4], [(1.0,), (0.2,) * 5], [(0.5, 0.5), (0.25,) * 4],
    np.array([0.25] * 4), np.array([0.5, 0.5]), [[0.5, 0.5], [0.25] * 4],
]


def tokens(rng: random.Random, vocab: list[Any], longest: int) -> list[Any]:
    length = rng.choice([0, 1, 2, 3, 4, rng.randint(0, longest)])
    return [rng.choice(vocab) for _ in range(length)]


def corpus(rng: random.Random) -> tuple[list[list[list[Any]]], list[list[Any]]]:
    size = rng.choice([2, 3, 4, 6, 10, 40])
    vocab: list[Any] = list(range(size)) if rng.random() < 0.2 else [f"w{i}" for i in range(size)]
    segments = rng.randint(1, 5)
    hyps = [tokens(rng, vocab, 14) for _ in range(segments)]
    refs = [[tokens(rng, vocab, 14) for _ in range(rng.randint(1, 3))] for _ in range(segments)]
    return refs, hyps


def smoothing_pair(rng: random.Random, method: int | None) -> tuple[Any, Any]:
    if method is None:
        return None, None
    params = {"epsilon": rng.choice([0.1, 0, 0.5, 1]), "alpha": rng.choice([5, 1, 0.5, 3]),
              "k": rng.choice([5, 1, 2.5, 10])}
    ours, theirs = C.SmoothingFunction(**params), B.SmoothingFunction(**params)
    return getattr(ours, f"method{method}"), getattr(theirs, f"method{method}")


@pytest.mark.parametrize("method", [None, 0, 1, 2, 3, 4, 5, 6, 7])
def test_corpus_and_sentence_bleu_match_nltk(method):
    rng = random.Random(f"bleu-{method}")
    mismatches = []
    for case in range(CASES_PER_METHOD):
        refs, hyps = corpus(rng)
        weights = rng.choice(WEIGHTS)
        ours_fn, theirs_fn = smoothing_pair(rng, method)
        kwargs = {"auto_reweigh": rng.random() < 0.3}
        if rng.random() < 0.5:
            args_ours: tuple = (refs, hyps, weights, ours_fn)
            args_theirs: tuple = (refs, hyps, weights, theirs_fn)
            ours, theirs = outcome(C.corpus_bleu, *args_ours, **kwargs), \
                outcome(B.corpus_bleu, *args_theirs, **kwargs)
        else:
            ours = outcome(C.sentence_bleu, refs[0], hyps[0], weights, ours_fn, **kwargs)
            theirs = outcome(B.sentence_bleu, refs[0], hyps[0], weights, theirs_fn, **kwargs)
        if not same_outcome(ours, theirs):
            mismatches.append((case, refs, hyps, weights, ours, theirs))
    assert not mismatches, mismatches[:3]


def test_direct_smoothing_calls_match_nltk():
    """Methods called on p_n lists (as NLTK users do): same elements (value and type), same
    in-place mutation of the input list, same warnings and exceptions."""
    rng = random.Random("direct")
    mismatches = []
    for case in range(DIRECT_CASES):
        refs, hyps = corpus(rng)
        ref, hyp = refs[0], hyps[0]
        order = rng.randint(1, 6)
        method = rng.randint(0, 7)
        ours_fn, theirs_fn = smoothing_pair(rng, method)
        hyp_len = rng.choice([None, 0, len(hyp), len(hyp) + 7])
        p_ours = [C.modified_precision(ref, hyp, n) for n in range(1, order + 1)]
        p_theirs = [B.modified_precision(ref, hyp, n) for n in range(1, order + 1)]
        ours = outcome(ours_fn, p_ours, ref, hyp, hyp_len)
        theirs = outcome(theirs_fn, p_theirs, ref, hyp, hyp_len)
        same = ours.error is theirs.error and ours.warned == theirs.warned
        if same and ours.error is None:
            same = ((ours.value is p_ours) == (theirs.value is p_theirs)
                    and _same_precisions(ours.value, theirs.value))
        if same:
            same = _same_precisions(p_ours, p_theirs)  # the input list, possibly mutated
        if not same:
            mismatches.append((case, method, ref, hyp, ours, theirs))
    assert not mismatches, mismatches[:3]


def _same_precisions(ours: list[Any], theirs: list[Any]) -> bool:
    if len(ours) != len(theirs):
        return False
    for a, b in zip(ours, theirs):
        if isinstance(b, B.Fraction):  # NLTK's raw-count Fraction <-> evalfw's RawFraction
            raw = (b.numerator, b.denominator)
            if not (isinstance(a, C.Fraction) and (a.numerator, a.denominator) == raw):
                return False
        elif not identical(a, b):  # float vs float, or reduced Fraction results of arithmetic
            return False
    return True


def test_helpers_match_nltk():
    rng = random.Random("helpers")
    for _ in range(HELPER_CASES):
        refs, hyps = corpus(rng)
        ref, hyp = refs[0], hyps[0]
        n = rng.randint(1, 6)
        ours, theirs = outcome(C.modified_precision, ref, hyp, n), \
            outcome(B.modified_precision, ref, hyp, n)
        assert ours.error is theirs.error
        if ours.error is None:
            assert (ours.value.numerator, ours.value.denominator) == \
                (theirs.value.numerator, theirs.value.denominator)
            assert float(ours.value) == float(theirs.value)
            assert (ours.value == 0) is (theirs.value == 0)  # the unreduced-pair quirk too
        length = rng.randint(0, 16)
        assert identical(C.closest_ref_length(ref, length), B.closest_ref_length(ref, length))
        r = rng.randint(0, 16)
        assert identical(C.brevity_penalty(r, length), B.brevity_penalty(r, length))


def test_empty_reference_lists_raise_like_nltk():
    cases = [([], []), ([], ["a"]), ([[]], []), ([[]], ["a"])]
    for refs, hyp in cases:
        for weights in ((0.25,) * 4, ()):
            ours = outcome(C.sentence_bleu, refs, hyp, weights)
            theirs = outcome(B.sentence_bleu, refs, hyp, weights)
            assert same_outcome(ours, theirs), (refs, hyp, weights, ours, theirs)
        assert outcome(C.modified_precision, refs, hyp, 1).error is \
            outcome(B.modified_precision, refs, hyp, 1).error
    ours = outcome(C.corpus_bleu, [[["a"]], []], [["a"], ["b"]])
    theirs = outcome(B.corpus_bleu, [[["a"]], []], [["a"], ["b"]])
    assert same_outcome(ours, theirs)


def test_custom_smoothing_function_gets_nltks_arguments():
    """A user's own function is called once, with the raw-count corpus precisions, the last
    segment's references and hypothesis and the corpus hypothesis length."""
    rng = random.Random("custom")
    for _ in range(300):
        refs, hyps = corpus(rng)
        calls: dict[str, list[Any]] = {"ours": [], "theirs": []}

        def spy(key: str, calls: dict[str, list[Any]] = calls):
            def fn(p_n, references, hypothesis, hyp_len):
                calls[key].append(([(p.numerator, p.denominator) for p in p_n], references,
                                   hypothesis, hyp_len))
                return [float(p) + 0.01 for p in p_n]
            return fn

        weights = rng.choice(WEIGHTS[:10])
        ours = outcome(C.corpus_bleu, refs, hyps, weights, spy("ours"))
        theirs = outcome(B.corpus_bleu, refs, hyps, weights, spy("theirs"))
        assert same_outcome(ours, theirs)
        assert calls["ours"] == calls["theirs"]
        if calls["ours"]:
            assert calls["ours"][0][1] is refs[-1] and calls["ours"][0][2] is hyps[-1]


def test_strings_are_character_sequences_as_in_nltk():
    ours = C.sentence_bleu(["the cat sat"], "the cat", (0.25,) * 4, C.SmoothingFunction().method1)
    theirs = B.sentence_bleu(["the cat sat"], "the cat", (0.25,) * 4, B.SmoothingFunction().method1)
    assert identical(ours, theirs)
