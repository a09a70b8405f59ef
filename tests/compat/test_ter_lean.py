"""The drop-in command line's lean TER (``evalfw.compat._ter_lean``) equals sacreBLEU 2.6.0:
corpus and sentence scores, edits, reference lengths and signatures on random text with every
option and one to three references; it imports no numpy, and declines where ``TER`` is
needed."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from sacrebleu.metrics import TER as SacreTER

from evalfw.compat._ter_lean import lean_ter

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
        ours = lean_ter(refs, options)
        assert ours is not None
        theirs = SacreTER(**options, references=refs)
        assert fields(ours.corpus_score(hyps)) == fields(theirs.corpus_score(hyps, None))
        assert ours.get_signature().format() == theirs.get_signature().format()
        for got, hyp, *rs in zip(ours.sentence_scores(hyps), hyps, *refs):
            assert fields(got) == fields(theirs.sentence_score(hyp, rs)), (options, hyp, rs)


def test_declines_where_ter_is_needed_and_imports_no_numpy() -> None:
    plain = dict.fromkeys(OPTIONS, False)
    assert lean_ter([["a", None]], plain) is None
    assert lean_ter([["a"]], {**plain, "normalized": 1}) is None
    code = ("import sys; from evalfw.compat._ter_lean import lean_ter; "
            f"t = lean_ter([['a b c']], {plain!r}); t.corpus_score(['a b']); "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "False", out.stderr
