"""evalfw's chrF equals sacreBLEU 2.6.0's bit for bit on random Unicode-heavy corpora.

Every option combination (orders, beta, lowercase, whitespace, eps smoothing) is run at corpus
and sentence level, with 1 to 4 reference streams (some with missing references), through the
drop-in API; ``repr`` of every score, ``str`` and the signature must be equal, and so must the
per-segment statistics, from the compiled kernel and from the Python fallback alike.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from evalfw.compat import _chrf as compat
from evalfw.metrics.chrf import core
from tests.support import corpora as corpus_support

pytestmark = pytest.mark.parity

PIECES = [
    "the", "The", "cat", "CAT", "ΣΑΣ", "σας", "Straße", "İstanbul", "naïve", "café", "cafe\u0301",
    "北京", "欢迎", "你好", "。", "，", "日本語", "です", "カタカナ", "한국어", "１２３", "😀", "👍🏽",
    "x\u0301", "\u200b", "\ufeff", "a\u00a0b", "—", "(hi)", "hello!!", '"quoted"', "end.)", "-a-",
    "..", "don't", "¿qué?", "«word»", ".", ",", "!", "?", "'", "ab", "abc", "aab", "e.g.",
]


def corpus(seed: int, segments: int = 25) -> tuple[list[str], list[list[str | None]]]:
    return corpus_support.corpus(seed, PIECES, segments)


OPTIONS = [
    dict(char_order=nc, word_order=nw, beta=beta, lowercase=lc, whitespace=ws, eps_smoothing=eps)
    for (nc, nw), beta, lc, ws, eps in itertools.product(
        [(6, 0), (6, 2), (2, 1), (0, 2), (4, 3)], [2, 1, 3], [False, True], [False, True],
        [False, True])
]


def _same(ours, theirs) -> None:
    assert repr(ours.score) == repr(theirs.score)
    assert str(ours) == str(theirs)
    assert ours.name == theirs.name
    assert (ours.char_order, ours.word_order, ours.beta) == \
        (theirs.char_order, theirs.word_order, theirs.beta)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_corpus_and_sentence_equal_sacrebleu(options):
    seed = OPTIONS.index(options)
    hyps, refs = corpus(seed)
    ours, theirs = compat.CHRF(**options), SacreCHRF(**options)
    _same(ours.corpus_score(hyps, refs), theirs.corpus_score(hyps, refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())
    assert ours.get_signature().format(short=True) == theirs.get_signature().format(short=True)
    for i in range(0, len(hyps), 3):
        seg_refs = [r[i] for r in refs if r[i] is not None]
        _same(ours.sentence_score(hyps[i], seg_refs), theirs.sentence_score(hyps[i], seg_refs))
    assert str(ours.get_signature()) == str(theirs.get_signature())


@pytest.mark.parametrize("options", OPTIONS[::3], ids=lambda o: "-".join(str(v) for v in o.values()))
def test_statistics_equal_sacrebleu_native_and_python(options, monkeypatch):
    hyps, refs = corpus(1000 + OPTIONS.index(options), segments=40)
    expected = np.array(SacreCHRF(**options)._extract_corpus_statistics(hyps, refs))
    metric = compat.CHRF(**options)._metric
    assert (metric.segment_statistics(hyps, refs) == expected).all()
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert core.kernel() is None
    assert (metric.segment_statistics(hyps, refs) == expected).all()


def test_reference_cache_and_helpers_equal_sacrebleu():
    import sacrebleu

    hyps, refs = corpus(77)
    refs = refs[:1]
    ours, theirs = compat.CHRF(word_order=2, references=refs), \
        SacreCHRF(word_order=2, references=refs)
    _same(ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None))
    _same(compat.corpus_chrf(hyps, refs, remove_whitespace=False),
          sacrebleu.corpus_chrf(hyps, refs, remove_whitespace=False))
    _same(compat.sentence_chrf(hyps[1], [refs[0][1]], word_order=2, beta=1),
          sacrebleu.sentence_chrf(hyps[1], [refs[0][1]], word_order=2, beta=1))


@pytest.mark.parametrize("hyp,refs", [
    ("ac bb", ["bcc", "aac a"]),           # ties go to the earliest reference
    ("cac bbac bca", ["bacc", "abcb bbca"]),  # the choice depends on the smoothing mode
    ("abcdefg", ["abc"]),                  # hypothesis n-grams without reference n-grams vanish
    ("", [""]), ("ab", ["ab"]), ("a", ["abcdefgh"]), ("İ ΣΑΣ", ["i̇ σας"]),
])
@pytest.mark.parametrize("eps", [False, True])
def test_edge_cases(hyp, refs, eps):
    for lc in (False, True):
        _same(compat.CHRF(eps_smoothing=eps, lowercase=lc, word_order=2).sentence_score(hyp, refs),
              SacreCHRF(eps_smoothing=eps, lowercase=lc, word_order=2).sentence_score(hyp, refs))


def test_bootstrap_interval_equals_sacrebleu(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    hyps, refs = corpus(5, segments=60)
    refs = refs[:1]
    ours = compat.CHRF().corpus_score(hyps, refs, n_bootstrap=300)
    theirs = SacreCHRF().corpus_score(hyps, refs, n_bootstrap=300)
    assert repr(ours._mean) == repr(theirs._mean) and repr(ours._ci) == repr(theirs._ci)
    assert str(ours) == str(theirs)
