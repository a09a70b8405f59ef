"""``BLEU().sentence_score`` called once per segment (the per-call path of
:mod:`evalfw.metrics.bleu.sentence`) equals sacreBLEU 2.6.0 on random Unicode text, for every
tokenizer, smoothing, effective order, order and casing, with one to three references; where
the path declines, the general path gives the same."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from evalfw.compat.sacrebleu import BLEU
from evalfw.metrics.bleu import sentence as _sentence
from evalfw.metrics.bleu.counting import kernel

pytestmark = pytest.mark.parity

ALPHABET = ("the cat sat on a mat , . ! ? ' \" ( ) - 3.5 1,000 € Ünïcödé 你好世界 。 ，"
            " ｱｲｳ カタカナ Ｆｕｌｌ 😀 \u00a0 \u3000 \t e.g. U.S.A. don't &amp; &quot;").split(" ")


def line(rng: random.Random) -> str:
    return " ".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 25)))


def test_equals_sacrebleu_per_call() -> None:
    rng = random.Random(20261125)
    calls = 0
    for _ in range(60):
        options = {"tokenize": rng.choice(["13a", "intl", "zh", "char", "none"]),
                   "smooth_method": rng.choice(["exp", "floor", "add-k", "none"]),
                   "effective_order": rng.random() < 0.7, "lowercase": rng.random() < 0.3,
                   "max_ngram_order": rng.randint(1, 5)}
        ours, theirs = BLEU(**options), SacreBLEU(**options)
        for _ in range(40):
            refs = [line(rng) for _ in range(rng.randint(1, 3))]
            hyp = rng.choice([line(rng), refs[0], refs[0].upper()])
            a, b = ours.sentence_score(hyp, refs), theirs.sentence_score(hyp, refs)
            assert (a.score, a.counts, a.totals, a.precisions, a.bp, a.sys_len, a.ref_len) == \
                (b.score, b.counts, b.totals, b.precisions, b.bp, b.sys_len, b.ref_len), \
                (options, hyp, refs)
            assert str(a) == str(b) and a.prec_str == b.prec_str
            calls += 1
        assert ours.get_signature().format() == theirs.get_signature().format()
    assert calls == 2400


@pytest.mark.skipif(kernel.kernel() is None, reason="the compiled kernel is not built")
def test_the_per_call_path_is_taken_and_declines_where_it_must(monkeypatch) -> None:
    bleu = BLEU(effective_order=True)
    bleu.sentence_score("a b", ["a b"])
    one = bleu._sentences
    assert one is not None and one.counts("a b c", ["a b c"]) is not None
    assert one.counts("a b", [None, "a"]) is not None
    assert one.fields("a b", [None, "a"])[-1] == 1  # the references counted
    assert one.counts("a", [None]) is None  # no reference: the general path's error
    long = " ".join(str(i) for i in range(5000))  # beyond the kernel's sentence size: indexed
    assert one.counts(long, [long]).matches == (5000, 4999, 4998, 4997)
    one._index = None
    assert one.counts(long + " x", [long]) is None  # without an index: declined
    assert bleu.sentence_score(long, [long]).score == SacreBLEU(
        effective_order=True).sentence_score(long, [long]).score


def test_the_general_path_gives_the_same_numbers(monkeypatch) -> None:
    rng = random.Random(7)
    pairs = [(line(rng), [line(rng), line(rng)]) for _ in range(200)]
    fast = [BLEU(tokenize="zh", effective_order=True).sentence_score(h, r) for h, r in pairs]
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    slow = BLEU(tokenize="zh", effective_order=True)
    got = [slow.sentence_score(h, r) for h, r in pairs]
    assert slow._sentences is not None and slow._sentences._count is None
    assert [(a.score, a.counts, a.ref_len) for a in fast] == \
        [(b.score, b.counts, b.ref_len) for b in got]


def test_the_token_cache_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(_sentence, "CACHE_LINES", 10)
    bleu = BLEU()
    for i in range(30):
        bleu.sentence_score(f"a b {i}", [f"a b {i + 1}"])
    assert bleu._sentences is not None and len(bleu._sentences._tokens) <= 10
