"""The vectorized sentence-score path (``evalfw.metrics.bleu._rows``) equals ``score_counts`` per segment
bit for bit, for every built-in sacreBLEU smoothing, effective order, max order and penalty
rule; and equals sacreBLEU's own ``sentence_score`` on random text."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from evalfw.metrics.bleu import _rows as fast
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.families.brevity import Closest, ClosestFirst, Shortest
from evalfw.metrics.bleu.families.sacrebleu import (
    AddK,
    Exp,
    Floor,
    NoSmoothing,
    SacreMean,
)
from evalfw.metrics.bleu.presets import SacreBleuPreset
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import SegmentStats
from evalfw.tokenizers.base import Tokenizer

pytestmark = pytest.mark.parity

SMOOTHERS: list[tuple[type, dict[str, Any]]] = [
    (Exp, {}), (NoSmoothing, {}), (Floor, {}), (Floor, {"value": 0.5}), (Floor, {"value": 2}),
    (Floor, {"value": 0}), (AddK, {}), (AddK, {"value": 2}), (AddK, {"value": 0}),
]
PENALTIES = [Closest, ClosestFirst, Shortest]


class Split(Tokenizer):
    name = "test-split"

    def tokenize(self, lines):
        return [s.split() for s in lines]


def make_spec(smoother: tuple[type, dict[str, Any]], eff: bool, order: int,
              penalty: type = Closest) -> BleuSpec:
    cls, opts = smoother
    return BleuSpec(preset=SacreBleuPreset(), tokenizer=Split(), counter=Clipped(),
                    brevity_penalty=penalty(), smoothing=cls(**opts),
                    mean=SacreMean(effective_order=eff), max_order=order, lowercase=False,
                    weights=None)


def random_stats(rng: random.Random, n: int, order: int, refs: int) -> SegmentStats:
    hyp_len = np.array([rng.choice([0, 1, 2, 3, rng.randint(0, 40)]) for _ in range(n)])
    totals = np.maximum(hyp_len[:, None] - np.arange(order)[None, :], 0)
    matches = np.zeros_like(totals)
    for i in range(n):
        style = rng.random()
        for j in range(order):
            if style < 0.15:
                matches[i, j] = 0  # no match at all
            elif style < 0.3:
                matches[i, j] = totals[i, j]  # perfect
            else:
                matches[i, j] = rng.randint(0, int(totals[i, j])) if rng.random() < 0.7 else 0
    ref_lens = np.array([[rng.choice([-1, 0, rng.randint(0, 45)]) for _ in range(refs)]
                         for _ in range(n)])
    ref_lens[:, 0] = np.abs(ref_lens[:, 0])  # at least one reference per segment
    return SegmentStats(hyp_len, ref_lens, matches, totals)


def assert_same(ours, generic) -> None:
    assert len(ours) == len(generic)
    for a, b in zip(ours, generic):
        assert a == b
        for field in ("score", "bp", "hyp_len", "ref_len"):
            assert type(getattr(a, field)) is type(getattr(b, field)), field
        assert [type(x) for x in a.counts] == [type(x) for x in b.counts]
        assert [type(x) for x in a.precisions] == [type(x) for x in b.precisions]
        assert a.to_json() == b.to_json() and str(a) == str(b)
        assert a.extra == b.extra and a.extra is not b.extra


@pytest.mark.parametrize("smoother", SMOOTHERS, ids=lambda s: f"{s[0].name}{s[1]}")
@pytest.mark.parametrize("eff", [False, True])
def test_fast_equals_generic_on_random_stats(smoother, eff) -> None:
    rng = random.Random(f"{smoother}-{eff}")
    for _trial in range(12):
        order = rng.randint(1, 6)
        spec = make_spec(smoother, eff, order, rng.choice(PENALTIES))
        assert fast.supports(spec)
        stats = random_stats(rng, rng.randint(1, 400), order + rng.choice([0, 0, 1]),
                             rng.randint(1, 3))
        generic = engine.sentence_scores_generic(spec, stats)
        assert_same(engine.sentence_scores(spec, stats), generic)
        values = engine.sentence_score_values(spec, stats)
        assert values.dtype == np.float64 and values.tolist() == [s.score for s in generic]


def test_exotic_cases_take_the_generic_path() -> None:
    spec = make_spec((AddK, {"value": 1.5}), True, 4)
    assert not fast.supports(spec)
    weighted = BleuSpec(**{**spec.__dict__, "smoothing": Exp(), "weights": ((0.5, 0.5, 0, 0),)})
    assert not fast.supports(weighted)
    nltk_bp = BleuSpec(**{**spec.__dict__, "smoothing": Exp(),
                          "brevity_penalty": Closest(formula="nltk")})
    assert not fast.supports(nltk_bp)


def test_logs_and_exps_match_the_math_module_on_many_values() -> None:
    # The fast path never uses numpy's log/exp; this checks its sum/divide steps against a
    # plain-Python recomputation on a million precisions (250k rows of 4).
    rng = np.random.default_rng(5)
    t = rng.integers(1, 200, size=(250_000, 4))
    c = np.minimum(rng.integers(0, 200, t.shape), t)
    prec = 100.0 * c / t
    spec = make_spec((Floor, {}), False, 4)
    stats = SegmentStats(t[:, 0], t[:, :1], c, t)
    ours = spec.mean.combine_rows(prec, t, c.any(axis=1), np.ones(len(t)), None)
    for row, p in zip(ours.tolist(), prec.tolist()):
        if not any(p):
            continue
        logs = [math.log(x) if x > 0 else -9999999999 for x in p]
        assert row == math.exp(sum(logs) / 4)
    assert len(stats) == len(t)


def test_against_sacrebleu_sentence_score() -> None:
    from sacrebleu.metrics import BLEU

    rng = random.Random(42)
    words = ["a", "b", "c", "d", "the", "cat", "ß", "中", "😀"]
    for smooth, value in [("exp", None), ("floor", 0.1), ("add-k", 1), ("none", None)]:
        for eff in (True, False):
            hyps, refs = [], [[], []]
            for _ in range(150):
                r1 = [rng.choice(words) for _ in range(rng.randint(0, 12))]
                r2 = [rng.choice(words) for _ in range(rng.randint(0, 12))]
                h = list(r1)
                for _ in range(rng.randint(0, 3)):
                    if h:
                        h[rng.randrange(len(h))] = rng.choice(words)
                hyps.append(" ".join(h[: rng.randint(0, len(h) + 1)]))
                refs[0].append(" ".join(r1))
                refs[1].append(" ".join(r2))
            cls = {"exp": Exp, "floor": Floor, "add-k": AddK, "none": NoSmoothing}[smooth]
            spec = make_spec((cls, {} if value is None else {"value": value}), eff, 4)
            counter = spec.counter
            index = counter.index_references([[s.split() for s in r] for r in refs], 4)
            stats = counter.count([h.split() for h in hyps], index)
            ours = engine.sentence_scores(spec, stats)
            bleu = BLEU(tokenize="none", smooth_method=smooth, smooth_value=value,
                        effective_order=eff)
            for i, h in enumerate(hyps):
                theirs = bleu.sentence_score(h, [refs[0][i], refs[1][i]])
                assert ours[i].score == theirs.score, (smooth, eff, i)
                assert list(ours[i].precisions) == theirs.precisions
                assert ours[i].bp == theirs.bp
