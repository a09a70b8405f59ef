"""evalfw's TER equals sacreBLEU 2.6.0's bit for bit on random Unicode-heavy corpora.

Every option combination (normalized, no_punct, asian_support, case_sensitive) is run at
corpus and sentence level, with 1 to 4 reference streams (some with missing references),
through the drop-in API; ``repr`` of every score, ``num_edits``, ``ref_length``, ``str`` and
the signature must be equal, and so must the per-segment statistics, from the compiled kernel
and from the Python fallback alike. Random word sequences over tiny vocabularies exercise the
shift search (many equal words, the 1000-candidate cap), and the reference cases of the
sacreBLEU notes pin the beam, the shift quirks and the double reference normalisation.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from sacrebleu.metrics import TER as SacreTER

from evalfw.compat import _ter as compat
from evalfw.metrics.ter import core
from tests.support import corpora as corpus_support
from tests.support.kernels import TER, native_or_python

pytestmark = pytest.mark.parity

PIECES = [
    "the", "The", "cat", "CAT", "sat", "on", "mat", "ΣΑΣ", "σας", "Straße", "İstanbul",
    "naïve", "café", "cafe\u0301", "北京", "欢迎", "你好", "我喜欢猫", "。", "，", "、", "「引用」",
    "（注）", "！", "？", "日本語", "です", "ひらがな", "カタカナ", "ｶﾀｶﾅ", "・", "㈱", "\u3300",
    "\uf900", "\ufe30", "\u2e80", "\u31c0", "한국어", "１２３", "😀", "👍🏽", "x\u0301", "\u200b",
    "a\u00a0b", "—", "(hi)", "hello!!", '"quoted"', "end.)", "-a-", "..", "don't", "Bob's",
    "Bob's.", "'s", "¿qué?", "«word»", ".", ",", "!", "?", "'", "&quot;", "&amp;", "&lt;b&gt;",
    "3.14", "1,000", "10-20", "e.g.,", "U.S.", "$5", "#tag", "@user", "50%", "~", "a", "b",
]

OPTIONS = [
    dict(normalized=n, no_punct=p, asian_support=a, case_sensitive=c)
    for n, p, a, c in itertools.product([False, True], repeat=4)
]


def _ids(options: dict) -> str:
    return "-".join(k for k, v in options.items() if v) or "default"


def corpus(seed: int, segments: int = 25) -> tuple[list[str], list[list[str | None]]]:
    hyps, refs = corpus_support.corpus(seed, PIECES, segments)
    # hypotheses that move whole runs of a reference's words, so shifts pay
    rng = random.Random(seed)
    for i in range(2, segments, 5):
        words = (refs[0][i] or "").split()
        cut, cut2 = sorted(rng.sample(range(len(words) + 1), 2)) if len(words) > 1 else (0, 0)
        hyps[i] = " ".join(words[cut2:] + words[cut:cut2] + words[:cut])
    return hyps, refs


def _same(ours, theirs) -> None:
    assert repr(ours.score) == repr(theirs.score)
    assert (ours.num_edits, repr(ours.ref_length)) == (theirs.num_edits, repr(theirs.ref_length))
    assert str(ours) == str(theirs) and ours.name == theirs.name


@pytest.mark.parametrize("options", OPTIONS, ids=_ids)
def test_corpus_and_sentence_equal_sacrebleu(options):
    hyps, refs = corpus(OPTIONS.index(options))
    ours, theirs = compat.TER(**options), SacreTER(**options)
    _same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())
    assert ours.get_signature().format(short=True) == theirs.get_signature().format(short=True)
    for i in range(0, len(hyps), 2):
        seg_refs = [r[i] for r in refs if r[i] is not None]
        _same(ours.sentence_score(hyps[i], seg_refs), theirs.sentence_score(hyps[i], seg_refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())


@pytest.mark.parametrize("options", OPTIONS, ids=_ids)
def test_statistics_equal_sacrebleu_native_and_python(options, monkeypatch):
    hyps, refs = corpus(1000 + OPTIONS.index(options), segments=40)
    expected = np.array(SacreTER(**options)._extract_corpus_statistics(hyps, refs),
                        dtype=np.float64)
    metric = compat.TER(**options)._metric
    if core.kernel() is not None:  # else the run without kernels: the fallback alone
        assert (metric.segment_statistics(hyps, refs) == expected).all()
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert core.kernel() is None
    assert (metric.segment_statistics(hyps, refs) == expected).all()


def _word_pairs(seed: int, pairs: int, longest: int) -> tuple[list[str], list[str]]:
    """Random sequences over 2 to 10 word types: long common runs, many equal targets."""
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(pairs):
        vocab = [f"w{k}" for k in range(rng.randint(2, 10))]
        hyps.append(" ".join(rng.choice(vocab) for _ in range(rng.randint(0, longest))))
        refs.append(" ".join(rng.choice(vocab) for _ in range(rng.randint(0, longest))))
    return hyps, refs


@pytest.fixture(scope="module")
def word_sequences():
    hyps, refs = _word_pairs(7, 120, 36)
    expected = SacreTER()._extract_corpus_statistics(hyps, [refs])
    return hyps, refs, [[float(e), r] for e, r in expected]


@native_or_python(TER)
def test_random_word_sequences_equal_sacrebleu(word_sequences, native, monkeypatch):
    hyps, refs, expected = word_sequences
    if not native:
        monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert compat.TER()._metric.segment_statistics(hyps, [refs]).tolist() == expected


def test_reference_cache_and_helpers_equal_sacrebleu():
    import sacrebleu

    hyps, refs = corpus(77)
    ours = compat.TER(normalized=True, references=refs)
    theirs = SacreTER(normalized=True, references=refs)
    _same(ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None))
    assert str(ours.get_signature()) == str(theirs.get_signature())
    _same(compat.corpus_ter(hyps, refs[:1], no_punct=True, asian_support=True),
          sacrebleu.corpus_ter(hyps, refs[:1], no_punct=True, asian_support=True))
    _same(compat.sentence_ter(hyps[1], [refs[0][1]], case_sensitive=True),
          sacrebleu.sentence_ter(hyps[1], [refs[0][1]], case_sensitive=True))


T13_HYP = " ".join([f"x{k}" for k in range(37)] + [f"w{k}" for k in range(23)])
T14_HYP = "a b b a a b a b a a b a b b b b a b a a b b a b a a b b b a a a a a a"
T14_REF = "a a a a b a a b b a b a a a b b b b b b b b b b a b a a a b a a a a b b b a b"


@pytest.mark.parametrize("options,hyp,refs,score", [
    ({}, "the cat sat on the mat", ["on the mat the cat sat"], 16.666666666666664),
    ({}, "", ["a b c"], 100.0),                      # empty hypothesis
    ({}, "a b", [""], 100.0),                        # empty reference
    ({}, "", [""], 0.0),
    ({}, "Same words here", ["Same words here"], 0.0),
    ({}, "A B C", ["a b c"], 0.0),
    ({"case_sensitive": True}, "A B C", ["a b c"], 100.0),
    ({}, "a b c", ["a b c d", "x"], 40.0),           # the average length of all references
    ({}, "!!!", ["..."], 100.0),
    ({"no_punct": True}, "!!!", ["..."], 0.0),
    ({"asian_support": True}, "我喜欢猫。", ["我喜欢狗。"], 100.0),
    ({"normalized": True, "asian_support": True}, "我喜欢猫。", ["我喜欢狗。"], 20.0),
    ({"normalized": True}, "It is Bob's.", ["It is Bob's."], 40.0),  # references twice
    ({"normalized": True, "no_punct": True}, "It is Bob's.", ["It is Bob's."], 50.0),
    ({}, "a b c d e f", ["d e f a b c"], 16.666666666666664),
    ({}, T13_HYP, [" ".join(f"w{k}" for k in range(43))], 93.02325581395348),  # the beam
    ({}, T14_HYP, [T14_REF], 28.205128205128204),  # the 1000-candidate cap
    ({}, "a b c d e f g", ["a d b c e f g"], 14.285714285714285),  # target inside the span
])
@native_or_python(TER)
def test_edge_cases(options, hyp, refs, score, native, monkeypatch):
    if not native:
        monkeypatch.setenv("EVALFW_NATIVE", "0")
    ours = compat.TER(**options).sentence_score(hyp, refs)
    _same(ours, SacreTER(**options).sentence_score(hyp, refs))
    assert ours.score == score


def test_bootstrap_interval_equals_sacrebleu(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    hyps, refs = corpus(5, segments=60)
    ours, theirs = compat.TER(), SacreTER()
    a = ours.corpus_score(hyps, refs, n_bootstrap=300)
    b = theirs.corpus_score(hyps, refs, n_bootstrap=300)
    assert repr(a._mean) == repr(b._mean) and repr(a._ci) == repr(b._ci)
    assert str(a) == str(b)
    assert str(ours.get_signature()) == str(theirs.get_signature())
    assert "|bs:300|seed:7|" in str(ours.get_signature())
