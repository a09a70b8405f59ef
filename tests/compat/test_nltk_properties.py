"""Property test: for arbitrary Unicode token lists, evalfw.compat.nltk and NLTK agree exactly
(value, type, warnings, exception type) for every smoothing method and weight shape."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalfw.compat import nltk as C
from tests.support.nltk_calls import outcome, same_outcome

pytestmark = pytest.mark.parity

B = pytest.importorskip("nltk.translate.bleu_score")

# A few fixed tokens (so that n-grams match) mixed with arbitrary text: combining marks,
# right-to-left script, emoji, whitespace, the empty token, case variants.
FIXED = ["a", "A", "é", "é", "ß", "ss", "שלום", "🙂", "\u200b", " ", "", "日本", "ǅ"]
TOKEN = st.one_of(st.sampled_from(FIXED), st.text(max_size=3))
SENTENCE = st.lists(TOKEN, max_size=9)
WEIGHTS = st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1.0,), (1 / 3,) * 3, (0.2,) * 5,
                           [(0.5, 0.5), (0.25,) * 4], [0.25] * 4])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    refs=st.lists(st.lists(SENTENCE, min_size=1, max_size=3), min_size=1, max_size=3),
    hyps_seed=st.lists(SENTENCE, min_size=3, max_size=3),
    method=st.sampled_from([None, 0, 1, 2, 3, 4, 5, 6, 7]),
    weights=WEIGHTS,
    auto_reweigh=st.booleans(),
)
def test_unicode_tokens_match_nltk(refs, hyps_seed, method, weights, auto_reweigh):
    hyps = hyps_seed[: len(refs)]
    ours_fn = None if method is None else getattr(C.SmoothingFunction(), f"method{method}")
    theirs_fn = None if method is None else getattr(B.SmoothingFunction(), f"method{method}")
    ours = outcome(C.corpus_bleu, refs, hyps, weights, ours_fn, auto_reweigh)
    theirs = outcome(B.corpus_bleu, refs, hyps, weights, theirs_fn, auto_reweigh)
    assert same_outcome(ours, theirs), (ours, theirs)
    ours = outcome(C.sentence_bleu, refs[0], hyps[0], weights, ours_fn, auto_reweigh)
    theirs = outcome(B.sentence_bleu, refs[0], hyps[0], weights, theirs_fn, auto_reweigh)
    assert same_outcome(ours, theirs), (ours, theirs)
