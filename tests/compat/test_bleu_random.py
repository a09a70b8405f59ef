"""The drop-in ``BLEU`` (as the drop-in command line builds it: references given once) equals
sacreBLEU 2.6.0: corpus scores and sentence scores on random Unicode text for every built-in
tokenizer with the joined lane, every smoothing (with and without a value), casing and one to
three references; ``compute_bleu`` alone on random counts."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from evalfw.compat.sacrebleu import BLEU
from evalfw.metrics.bleu.counting import kernel

pytestmark = [pytest.mark.parity,
              pytest.mark.skipif(kernel.kernel() is None, reason="no compiled kernel")]

ALPHABET = ("the cat sat on a mat , . ! ? ' \" ( ) - 3.5 1,000 € Ünïcödé 你好世界 。 ，"
            " ｱｲｳ Ｆｕｌｌ 😀 \u00a0 \t e.g. U.S.A. don't &amp; &quot; <skipped>").split(" ")


def line(rng: random.Random) -> str:
    return " ".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 25)))


def fields(score) -> tuple:
    return (score.score, score.counts, score.totals, score.precisions, score.bp,
            score.sys_len, score.ref_len, str(score))


def test_corpus_and_sentence_scores_equal_sacrebleu() -> None:
    rng = random.Random(20261127)
    for _ in range(40):
        method = rng.choice(["exp", "floor", "add-k", "none"])
        options = {"tokenize": rng.choice(["13a", "intl", "zh", "char", "none"]),
                   "smooth_method": method, "lowercase": rng.random() < 0.3,
                   "smooth_value": rng.choice([None, 0.3, 2]) if method in ("floor", "add-k")
                   else None, "force": rng.random() < 0.5,
                   "effective_order": rng.random() < 0.5}
        lines = rng.randint(1, 30)
        refs = [[line(rng) for _ in range(lines)] for _ in range(rng.randint(1, 3))]
        hyps = [rng.choice([line(rng), refs[0][i]]) for i in range(lines)]
        ours = BLEU(**options, references=refs)
        theirs = SacreBLEU(**options, references=refs)
        assert fields(ours.corpus_score(hyps, None)) == fields(theirs.corpus_score(hyps, None)), \
            (options, hyps, refs)
        assert ours.get_signature().format() == theirs.get_signature().format()
        for hyp, *rs in zip(hyps, *refs):
            got = ours.sentence_score(hyp, rs)
            assert fields(got) == fields(theirs.sentence_score(hyp, rs)), (options, hyp, rs)


def test_compute_bleu_equals_sacrebleu_on_random_counts() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        order = rng.randint(1, 5)
        total = [rng.choice([0, rng.randint(0, 60)]) for _ in range(order)]
        correct = [rng.randint(0, t) for t in total]
        sys_len, ref_len = rng.randint(0, 60), rng.randint(0, 60)
        method = rng.choice(["exp", "floor", "add-k", "none"])
        value = rng.choice([None, 0.5, 3]) if method in ("floor", "add-k") else None
        eff = rng.random() < 0.5
        a = BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, method, value, eff,
                              order)
        b = SacreBLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, method, value,
                                   eff, order)
        assert fields(a) == fields(b)
