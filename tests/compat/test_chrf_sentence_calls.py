"""``CHRF().sentence_score`` called once per segment (the per-call path of
:mod:`evalfw.metrics.chrf.sentence`) equals sacreBLEU 2.6.0 on random Unicode text, for random
orders, betas (integer and fractional), casing, whitespace and smoothing, with one to three
references and segments repeated (answered from the cache); the cache is shared only by equal
options of equal types, is bounded, and the general path gives the same numbers."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from evalfw.compat.sacrebleu import CHRF
from evalfw.metrics.chrf import core
from evalfw.metrics.chrf import sentence as _chrf_sentence
from evalfw.metrics.chrf.metric import Chrf

pytestmark = pytest.mark.parity

PIECES = ("the cat sat on a mat , . ! ? ' \" ( ) - 3.5 1,000 € Ünïcödé ΣΑΣ σας Straße İstanbul"
          " 你好世界 。 ， ｱｲｳ Ｆｕｌｌ 😀 \u00a0 \u3000 \t e.g. don't hello!! «word» end.)"
          ).split(" ")


def line(rng: random.Random) -> str:
    return " ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 20)))


def random_options(rng: random.Random) -> dict:
    char_order, word_order = rng.choice([(6, 0), (6, 2), (1, 0), (0, 1), (3, 3), (9, 1)])
    return {"char_order": char_order, "word_order": word_order,
            "beta": rng.choice([2, 1, 3, 0, 0.5, 1.7, 2.0, 0.1]),
            "lowercase": rng.random() < 0.3, "whitespace": rng.random() < 0.3,
            "eps_smoothing": rng.random() < 0.3}


@pytest.mark.skipif(core.kernel() is None, reason="the compiled chrF kernel is not built")
def test_equals_sacrebleu_per_call() -> None:
    rng = random.Random(20261127)
    calls = 0
    for _ in range(50):
        options = random_options(rng)
        ours, theirs = CHRF(**options), SacreCHRF(**options)
        segments = []
        for _ in range(30):
            refs = [line(rng) for _ in range(rng.randint(1, 3))]
            hyp = rng.choice([line(rng), refs[0], refs[-1].upper(), ""])
            segments.append((hyp, refs))
        for hyp, refs in segments + rng.sample(segments, 10):  # some twice: from the cache
            a, b = ours.sentence_score(hyp, refs), theirs.sentence_score(hyp, refs)
            assert repr(a.score) == repr(b.score), (options, hyp, refs)
            assert str(a) == str(b) and a.name == b.name
            calls += 1
        assert ours.get_signature().format() == theirs.get_signature().format()
    assert calls == 2000


@pytest.mark.skipif(core.kernel() is None, reason="the compiled chrF kernel is not built")
def test_the_kernel_score_equals_the_python_formula() -> None:
    """The C F-score on many rows (fractional betas, both smoothing modes), against
    ``core.f_score`` of the rows the metric chooses."""
    native = core.kernel()
    rng = random.Random(5)
    for _ in range(400):
        options = random_options(rng)
        config = core.ChrfConfig(**{**options, "lowercase": False})
        refs = [line(rng) for _ in range(rng.randint(1, 3))]
        hyp = line(rng)
        rows = Chrf(**config._asdict()).segment_statistics([hyp], [[r] for r in refs])
        expected = core.f_score(rows[0].tolist(), config)
        got = native.sentence(hyp, refs, config.char_order, config.word_order,
                              config.whitespace, float(config.beta ** 2),
                              config.eps_smoothing)
        assert repr(got) == repr(expected), (options, hyp, refs)


def test_the_general_path_gives_the_same_numbers(monkeypatch) -> None:
    rng = random.Random(11)
    pairs = [(line(rng), [line(rng), line(rng)]) for _ in range(150)]
    fast = [CHRF(word_order=2).sentence_score(h, r).score for h, r in pairs]
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    monkeypatch.setattr(_chrf_sentence, "_SEEN", {})  # nothing computed before is reused
    slow = CHRF(word_order=2)
    assert [slow.sentence_score(h, r).score for h, r in pairs] == fast


def test_missing_references_take_the_general_path() -> None:
    ours, theirs = CHRF(), SacreCHRF()
    for refs in (["a cat", None], ["a cat", None, "the mat"]):
        a, b = ours.sentence_score("the cat", refs), theirs.sentence_score("the cat", refs)
        assert repr(a.score) == repr(b.score)
        assert ours.get_signature().format() == theirs.get_signature().format()
    with pytest.raises(TypeError):
        ours.sentence_score("the cat", ["a", ["unhashable"]])


def test_a_cache_is_shared_only_by_the_same_options(monkeypatch: pytest.MonkeyPatch) -> None:
    # an empty table of caches: earlier tests of this process may have filled it, and a full
    # table is emptied when the next new set of options comes
    monkeypatch.setattr(_chrf_sentence, "_SEEN", {})
    plain, lower = CHRF(), CHRF(lowercase=True)
    assert plain._one.seen is CHRF(beta=2, char_order=6)._one.seen
    assert plain._one.seen is not CHRF(beta=2.0)._one.seen  # equal, but of another type
    assert plain._one.seen is not lower._one.seen
    assert plain._one.seen is not CHRF(whitespace=True)._one.seen
    hyp, refs = "The Cat", ["the cat"]
    assert plain.sentence_score(hyp, refs).score < 100
    assert lower.sentence_score(hyp, refs).score == 100  # not the cached mixed-case score
    assert plain.sentence_score(hyp, refs).score < 100


def test_the_caches_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(_chrf_sentence, "CACHE_SEGMENTS", 10)
    monkeypatch.setattr(_chrf_sentence, "CACHE_CONFIGS", 3)
    monkeypatch.setattr(_chrf_sentence, "_SEEN", {})
    chrf = CHRF()
    for i in range(30):
        chrf.sentence_score(f"line {i}", ["line"])
        assert len(chrf._one.seen) <= 10
    for order in range(1, 8):
        CHRF(char_order=order)
        assert len(_chrf_sentence._SEEN) <= 3
    assert repr(chrf.sentence_score("line 3", ["line"]).score) == \
        repr(SacreCHRF().sentence_score("line 3", ["line"]).score)


def test_refused_options_are_reported_at_construction() -> None:
    with pytest.raises(Exception, match="char_order"):
        CHRF(char_order=0, word_order=0)
