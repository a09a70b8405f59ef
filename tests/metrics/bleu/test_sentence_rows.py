"""The compiled rows (``evalfw.metrics.bleu._rows``: the kernel's ``bleu_rows``) equal the Python
reference (``engine.score_counts`` per row) bit for bit, for every built-in sacreBLEU smoothing,
effective order on and off, orders 1 to 6, every penalty rule, rows without any match or without
n-grams, empty hypotheses and counts up to and beyond 2**53; and sentence scores equal
sacreBLEU's own ``sentence_score`` on random text."""

from __future__ import annotations

import math
import random
import sys
import zlib
from typing import Any

import numpy as np
import pytest

from evalfw.metrics.bleu import _rows, engine
from evalfw.metrics.bleu._batch import BatchScorer
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.counting import kernel
from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.families.brevity import Closest, ClosestFirst, Shortest
from evalfw.metrics.bleu.families.sacrebleu import (
    LOG_ZERO,
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
    (Floor, {"value": 0}), (Floor, {"value": 1e-300}), (AddK, {}), (AddK, {"value": 2}),
    (AddK, {"value": 0}), (AddK, {"value": 10**9}),
]
PENALTIES = [Closest, ClosestFirst, Shortest]
compiled = pytest.mark.skipif(not hasattr(kernel.kernel(), "bleu_rows"),
                              reason="the kernel is built without the sacreBLEU formula")


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


def random_sums(rng: np.random.Generator, n: int, order: int, big: int) -> np.ndarray:
    """Summed rows as resampling gives them, and rows no counter gives (matches at a higher
    order only, totals rising with the order, empty rows), with counts up to ``big``."""
    scale = rng.choice([3, 60, big], size=(n, 1))
    totals = (rng.random((n, order)) * scale).astype(np.int64)
    totals *= rng.random((n, 1)) < 0.9
    totals = np.where(rng.random((n, 1)) < 0.7, -np.sort(-totals, axis=1), totals)
    matches = (rng.random((n, order)) * (totals + 1)).astype(np.int64)
    matches *= rng.random((n, order)) < 0.7
    matches *= rng.random((n, 1)) < 0.9
    hyp = np.maximum(totals[:, 0], (rng.random(n) * scale[:, 0]).astype(np.int64))
    hyp *= rng.random(n) < 0.95
    ref = (rng.random(n) * 2 * scale[:, 0]).astype(np.int64)
    sums = np.concatenate([hyp[:, None], ref[:, None], matches, totals], axis=1)
    return np.minimum(sums, 2**53 - 1)  # where the compiled formula applies


def reference_rows(spec: BleuSpec, sums: np.ndarray) -> list[Any]:
    n = spec.max_order
    return [engine.score_counts(spec, Counts(tuple(row[2:2 + n]), tuple(row[2 + n:]), row[0],
                                             row[1])) for row in sums.tolist()]


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
def test_sentence_scores_equal_the_reference_on_random_stats(smoother, eff) -> None:
    rng = random.Random(f"{smoother}-{eff}")
    for _trial in range(12):
        order = rng.randint(1, 6)
        spec = make_spec(smoother, eff, order, rng.choice(PENALTIES))
        assert _rows.applies(spec) == hasattr(kernel.kernel(), "bleu_rows")
        stats = random_stats(rng, rng.randint(1, 400), order + rng.choice([0, 0, 1]),
                             rng.randint(1, 3))
        generic = engine.sentence_scores_generic(spec, stats)
        assert_same(engine.sentence_scores(spec, stats), generic)
        values = engine.sentence_score_values(spec, stats)
        assert values.dtype == np.float64 and values.tolist() == [s.score for s in generic]


@compiled
@pytest.mark.parametrize("smoother", SMOOTHERS, ids=lambda s: f"{s[0].name}{s[1]}")
@pytest.mark.parametrize("eff", [False, True])
def test_compiled_rows_equal_the_reference_on_random_sums(smoother, eff) -> None:
    rng = np.random.default_rng(zlib.crc32(f"{smoother}-{eff}".encode()))
    for order in range(1, 7):
        spec = make_spec(smoother, eff, order)
        sums = random_sums(rng, 400, order, rng.choice([10**6, 2**40, 2**53 - 1]))
        rows = _rows.row_scores(spec, sums[:, 0], sums[:, 1], sums[:, 2:2 + order],
                                sums[:, 2 + order:])
        assert rows is not None
        want = reference_rows(spec, sums)
        assert rows.scores.tolist() == [w.score for w in want]
        assert rows.bp.tolist() == [w.bp for w in want]
        assert rows.precisions.tolist() == [list(w.precisions) for w in want]
        assert rows.matches.tolist() == [list(w.counts) for w in want]
        assert rows.totals.tolist() == [list(w.totals) for w in want]
        rows.scores[0] = 0.0  # the arrays belong to the caller


@compiled
@pytest.mark.skipif(sys.version_info < (3, 12), reason="sum() compensates from Python 3.12 on")
def test_the_rows_reach_scores_where_the_compensated_sum_matters() -> None:
    """On Python >= 3.12 the built-in sum of the logs differs from a plain left-to-right sum on
    some random rows: there the compiled formula must have summed as the built-in does."""
    rng = np.random.default_rng(3)
    spec = make_spec((NoSmoothing, {}), False, 4)
    sums = random_sums(rng, 20000, 4, 2**40)
    rows = _rows.row_scores(spec, sums[:, 0], sums[:, 1], sums[:, 2:6], sums[:, 6:])
    assert rows is not None
    differ = 0
    for row, prec in zip(sums.tolist(), rows.precisions.tolist()):
        if any(row[2:6]):
            logs = [math.log(p) if p else LOG_ZERO for p in prec]
            plain = 0.0
            for lg in logs:
                plain += lg
            differ += plain != sum(logs)
    assert differ > 0
    assert rows.scores.tolist() == [w.score for w in reference_rows(spec, sums)]


@compiled
def test_counts_from_2_to_the_53_are_left_to_the_reference() -> None:
    spec = make_spec((Exp, {}), False, 2)
    scorer = BatchScorer(spec)
    for big in ([2**53, 1, 5, 3, 7, 3], [9, -2**53, 5, 3, 7, 3], [9, 1, 5, 3, 2**53, 3],
                [2**62, 2**62 - 1, 2**61, 2**60, 2**62, 2**61], [9, 1, -1, 3, 7, 3]):
        sums = np.array([big, [9, 1, 5, 3, 7, 3]], dtype=np.int64)
        assert _rows.row_scores(spec, sums[:, 0], sums[:, 1], sums[:, 2:4], sums[:, 4:]) is None
        if min(big) >= 0:
            want = [w.score for w in reference_rows(spec, sums)]
            assert scorer.scores(sums).tolist() == want
    huge_k = make_spec((AddK, {"value": 2**53}), False, 2)
    assert _rows.compiled_formula(huge_k) is None
    assert _rows.compiled_formula(make_spec((Floor, {"value": 2**53}), False, 2)) is None


def test_exotic_cases_take_the_reference_path() -> None:
    spec = make_spec((AddK, {"value": 1.5}), True, 4)
    assert _rows.compiled_formula(spec) is None
    weighted = BleuSpec(**{**spec.__dict__, "smoothing": Exp(), "weights": ((0.5, 0.5, 0, 0),)})
    assert _rows.compiled_formula(weighted) is None
    nltk_bp = BleuSpec(**{**spec.__dict__, "smoothing": Exp(),
                          "brevity_penalty": Closest(formula="nltk")})
    assert _rows.compiled_formula(nltk_bp) is None

    class MyExp(Exp):
        pass

    class MyMean(SacreMean):
        pass

    class MyClosest(Closest):
        pass

    plain = make_spec((Exp, {}), False, 4)
    built = hasattr(kernel.kernel(), "bleu_rows")
    assert _rows.compiled_formula(plain) == ((False, 3, 0.0, 0) if built else None)
    for field, value in (("smoothing", MyExp()), ("mean", MyMean()),
                         ("brevity_penalty", MyClosest())):
        assert _rows.compiled_formula(BleuSpec(**{**plain.__dict__, field: value})) is None


def test_without_the_kernel_rows_are_scored_by_the_reference(monkeypatch) -> None:
    monkeypatch.setattr(kernel, "kernel", lambda: None)
    rng = random.Random(9)
    spec = make_spec((Floor, {}), True, 4)
    assert not _rows.applies(spec)
    stats = random_stats(rng, 50, 4, 2)
    assert _rows.row_scores(spec, stats.hyp_len, stats.hyp_len, stats.matches,
                            stats.totals) is None
    assert_same(engine.sentence_scores(spec, stats), engine.sentence_scores_generic(spec, stats))


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
