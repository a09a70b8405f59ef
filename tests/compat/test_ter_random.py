"""The drop-in ``TER`` (as the drop-in command line builds it: references given once) equals
sacreBLEU 2.6.0: corpus and sentence scores, edits, reference lengths and signatures on random
text with every option and one to three references."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import TER as SacreTER

from evalfw.compat.sacrebleu import TER

pytestmark = pytest.mark.parity

WORDS = "the cat sat on a mat , . ! ? Über 你好 U.S. don't THE Cat 3.5 - ( )".split(" ")
OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def line(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 15)))


def fields(score) -> tuple:
    return score.score, score.num_edits, score.ref_length, str(score)


def test_corpus_and_sentence_scores_equal_sacrebleu() -> None:
    rng = random.Random(20261127)
    for _ in range(30):
        options = {k: rng.random() < 0.3 for k in OPTIONS}
        lines = rng.randint(1, 20)
        refs = [[line(rng) for _ in range(lines)] for _ in range(rng.randint(1, 3))]
        hyps = [rng.choice([line(rng), refs[0][i]]) for i in range(lines)]
        ours = TER(**options, references=refs)
        theirs = SacreTER(**options, references=refs)
        assert fields(ours.corpus_score(hyps, None)) == fields(theirs.corpus_score(hyps, None))
        assert ours.get_signature().format() == theirs.get_signature().format()
        for hyp, *rs in zip(hyps, *refs):
            got = ours.sentence_score(hyp, rs)
            assert fields(got) == fields(theirs.sentence_score(hyp, rs)), (options, hyp, rs)
