"""The drop-in BLEU's bootstrap (``-ci`` and ``--paired-bs``, drawn by
:mod:`evalfw.analysis.sacrebleu_mode`) against sacreBLEU 2.6.0's own ``_bootstrap_resample``,
``corpus_score(n_bootstrap=...)`` and ``PairedTest``: random statistics and corpora, every
smoothing with and without a value, effective order, several seeds. sacreBLEU's float32
arithmetic follows numpy 2's promotion rules, which these bit-for-bit tests need."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest, _bootstrap_resample

from evalfw.analysis.resampling import columns
from evalfw.analysis.sacrebleu_mode import bootstrap_scores
from evalfw.compat.sacrebleu import BLEU
from tests.support.pythons import needs_nep50

pytestmark = pytest.mark.parity

VOCAB = "the cat sat on a mat , . ! ? dog ran far away 3.5 1,000 € 你好 世界".split()


def _options(rng: random.Random) -> dict:
    method = rng.choice(["exp", "floor", "add-k", "none"])
    return {"smooth_method": method, "effective_order": rng.random() < 0.3,
            "smooth_value": rng.choice([None, 0.3, 2]) if method in ("floor", "add-k") else None}


def _random_rows(rng: random.Random) -> list[list[int]]:
    """sacreBLEU statistics rows with zeros (empty lines, no match at some order) and long
    segments (totals beyond float32's exact integers)."""
    rows = []
    scale = rng.choice([3, 30, 300_000])
    for _ in range(rng.randint(1, 60)):
        n = rng.choice([0, rng.randint(0, scale)])
        totals = [max(n - k, 0) for k in range(4)]
        correct = [rng.randint(0, t) if rng.random() < 0.8 else 0 for t in totals]
        rows.append([n, rng.randint(0, scale + 3), *correct, *totals])
    return rows


@needs_nep50
def test_resampled_scores_equal_sacrebleus_bootstrap_resample(monkeypatch) -> None:
    rng = random.Random(20261127)
    for case in range(150):
        options = _options(rng)
        rows = _random_rows(rng)
        seed = rng.choice([12345, 0, 7, rng.getrandbits(40)])
        n = rng.randint(1, 120)
        monkeypatch.setenv("SACREBLEU_SEED", str(seed))
        _, theirs = _bootstrap_resample(rows, SacreBLEU(**options), n)
        metric = BLEU(**options)._metric
        (ours,) = bootstrap_scores(metric, [columns(metric, np.asarray(rows, dtype=np.int64))],
                                   n, seed)
        assert ours.tolist() == [s.score for s in theirs], (case, options, seed)


def _corpus(rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    lines = rng.randint(2, 40)

    def line() -> str:
        return " ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 14)))

    refs = [[line() for _ in range(lines)] for _ in range(rng.randint(1, 3))]
    systems = [[line() if rng.random() < 0.5 else refs[0][i] for i in range(lines)]
               for _ in range(rng.randint(2, 4))]
    return refs, systems


@needs_nep50
def test_confidence_equals_sacrebleus_corpus_score(monkeypatch) -> None:
    rng = random.Random(5)
    for case in range(60):
        options = {**_options(rng), "tokenize": rng.choice(["13a", "intl", "char"]),
                   "lowercase": rng.random() < 0.3}
        refs, systems = _corpus(rng)
        monkeypatch.setenv("SACREBLEU_SEED", rng.choice(["12345", "0", "007", "none"]))
        n = rng.randint(2, 150)
        ours = BLEU(references=refs, force=True, **options)
        got = ours.corpus_score(systems[0], None, n_bootstrap=n)
        theirs = SacreBLEU(references=refs, **options)
        expected = theirs.corpus_score(systems[0], None, n_bootstrap=n)
        assert ours.get_signature().format() == theirs.get_signature().format()
        assert got.score == expected.score
        if ours.seed != "none":  # unseeded: both draw fresh indices
            assert (got._mean, got._ci) == (expected._mean, expected._ci), (case, options)
            assert str(got) == str(expected)


@needs_nep50
def test_paired_bootstrap_equals_sacrebleus_paired_test(monkeypatch) -> None:
    from evalfw.compat.sacrebleu._paired import paired_test

    rng = random.Random(6)
    for case in range(40):
        options = _options(rng)
        refs, systems = _corpus(rng)
        named = [(f"s{i}", s) for i, s in enumerate(systems)]
        seed = rng.choice(["12345", "7", "31337"])
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        n = rng.randint(1, 120)
        ours = BLEU(references=refs, force=True, **options)
        signatures, ours_columns = paired_test(named, {"BLEU": ours}, "bs", n, 1)
        sigs, scores = PairedTest(named, {"BLEU": SacreBLEU(references=refs, **options)},
                                  None, test_type="bs", n_samples=n)()
        got = [(c.score, c.p_value, c.mean, c.ci) for c in ours_columns["BLEU"]]
        assert got == [(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]], \
            (case, options, seed)
        assert signatures["BLEU"].format() == sigs["BLEU"].format()
