"""The drop-in ``CHRF`` (as the drop-in command line builds it: references given once) equals
sacreBLEU 2.6.0: corpus and sentence scores and signatures on random Unicode text for chrF and
chrF++, every option, one to three references."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from evalfw.compat.sacrebleu import CHRF

pytestmark = pytest.mark.parity

ALPHABET = ("the cat sat on a mat , . ! ? ' \" ( ) - 3.5 Ünïcödé 你好世界 。 ， 😀 \u00a0 \t "
            "don't THE Cat").split(" ")


def line(rng: random.Random) -> str:
    return " ".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 20)))


def test_corpus_and_sentence_scores_equal_sacrebleu() -> None:
    rng = random.Random(20261127)
    for _ in range(30):
        options = {"char_order": rng.choice([6, 1, 3]), "word_order": rng.choice([0, 2, 1]),
                   "beta": rng.choice([2, 1, 3]), "lowercase": rng.random() < 0.3,
                   "whitespace": rng.random() < 0.3, "eps_smoothing": rng.random() < 0.3}
        lines = rng.randint(1, 25)
        refs = [[line(rng) for _ in range(lines)] for _ in range(rng.randint(1, 3))]
        hyps = [rng.choice([line(rng), refs[0][i]]) for i in range(lines)]
        ours = CHRF(**options, references=refs)
        theirs = SacreCHRF(**options, references=refs)
        a, b = ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None)
        assert (a.score, str(a)) == (b.score, str(b)), (options, hyps, refs)
        assert ours.get_signature().format() == theirs.get_signature().format()
        for hyp, *rs in zip(hyps, *refs):
            got, want = ours.sentence_score(hyp, rs), theirs.sentence_score(hyp, rs)
            assert (got.score, str(got)) == (want.score, str(want)), (options, hyp, rs)
