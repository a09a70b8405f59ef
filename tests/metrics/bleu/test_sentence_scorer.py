"""The engine's one-segment path (:class:`evalfw.metrics.bleu.sentence.SentenceScorer`, what the
drop-in's per-call ``sentence_score`` uses) against the engine's own per-segment scores, for
every reference-length rule the kernel knows."""

from __future__ import annotations

import random

import pytest

from evalfw.host.host import PluginHost
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.sentence import SentenceScorer
from evalfw.metrics.bleu.spec import resolve_spec
from tests.support.kernels import BLEU, needs_kernel

WORDS = "the cat sat on a mat dog ran far away , .".split()


@needs_kernel(BLEU)  # the one-segment path counts with the kernel
@pytest.mark.parametrize("rule", ["closest", "closest-first", "shortest"])
def test_one_segment_equals_the_engines_sentence_scores(rule: str) -> None:
    spec = resolve_spec(PluginHost.create(autoload=False), preset="sacrebleu",
                        brevity_penalty=rule)
    scorer = SentenceScorer(spec)
    rng = random.Random(rule)

    def line() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))

    for _ in range(200):
        hyp, refs = line(), [line() for _ in range(rng.randint(1, 3))]
        counts = scorer.counts(hyp, refs)
        assert counts is not None, "the kernel path declined"
        index = engine.index_references(spec, [[r] for r in refs])
        stats = engine.segment_stats(spec, [hyp], index)
        expected = engine.sentence_scores_generic(spec, stats)[0]
        got = engine.score_counts(spec, counts, len(refs))
        assert (got.score, got.bp, got.ref_len) == (expected.score, expected.bp, expected.ref_len)
