"""The engine's ``nltk`` preset (text -> tokenizer ``none`` -> counter ``clipped`` total_floor 1
-> penalty ``closest``/nltk -> method0..7 -> mean ``nltk``) against the real NLTK, and the
registration of the NLTK and paper components through the ordinary plugin hooks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from evalfw import api
from evalfw.errors import EvalfwError
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.families.nltk import NltkMethod6Error
from tests.support.nltk_calls import identical, outcome

pytestmark = pytest.mark.parity

B = pytest.importorskip("nltk.translate.bleu_score")

ENGINE_CASES = 600  # corpus-level engine cases; each also scores every segment on its own

SMOOTHERS = [f"method{i}" for i in range(8)]
PAPER = [f"chen-cherry-{i}" for i in range(1, 8)] + ["plain"]


def test_components_are_registered(session_host):
    assert set(SMOOTHERS + PAPER) <= set(session_host.registry("smoothing").names())
    assert {"nltk", "geometric"} <= set(session_host.registry("mean").names())
    for name in SMOOTHERS + PAPER:
        assert session_host.registry("smoothing").create(name).scale == 1


def _line(rng: random.Random, vocab: list[str]) -> str:
    length = rng.choice([0, 1, 2, 3, 4, rng.randint(0, 14)])
    return " ".join(rng.choice(vocab) for _ in range(length))


def _case(rng: random.Random) -> tuple[list[str], list[list[str | None]]]:
    vocab = [f"w{i}" for i in range(rng.choice([2, 3, 5, 10]))]
    segments, width = rng.randint(1, 5), rng.randint(1, 3)
    hyps = [_line(rng, vocab) for _ in range(segments)]
    streams: list[list[str | None]] = [[_line(rng, vocab) for _ in range(segments)]]
    for _ in range(width - 1):  # extra references may be missing for some segments
        streams.append([_line(rng, vocab) if rng.random() < 0.7 else None for _ in range(segments)])
    return hyps, streams


def _engine_matches(ours: Any, theirs: Any, multi: bool) -> bool:
    if theirs.error is not None:  # method6's restrictions become a user-facing error
        return ours.error is NltkMethod6Error and theirs.error in (AssertionError, IndexError)
    if ours.error is not None or ours.warned != theirs.warned:
        return False
    got = list(ours.value.scores) if multi else ours.value.score
    return identical(got, theirs.value)


def test_nltk_preset_matches_nltk(session_host):
    rng = random.Random("engine")
    for case in range(ENGINE_CASES):
        hyps, streams = _case(rng)
        method = rng.randrange(8)
        weights = rng.choice([None, (0.25,) * 4, (0.5, 0.5), (1.0,), (0.2,) * 5,
                              [(0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4]])
        reweigh = rng.random() < 0.3
        options: dict[str, Any] = {"preset": "nltk", "smoothing": SMOOTHERS[method],
                                   "auto_reweigh": reweigh}
        if weights is not None:
            options["weights"] = weights
        multi = isinstance(weights, list)
        nltk_refs = [[s[i].split() for s in streams if s[i] is not None] for i in range(len(hyps))]
        nltk_hyps = [h.split() for h in hyps]
        fn = getattr(B.SmoothingFunction(), f"method{method}")
        nltk_weights = (0.25,) * 4 if weights is None else weights
        theirs = outcome(B.corpus_bleu, nltk_refs, nltk_hyps, nltk_weights, fn, reweigh)
        ours = outcome(api.corpus_bleu, hyps, streams, host=session_host, **options)
        assert _engine_matches(ours, theirs, multi), (case, hyps, streams, options, ours, theirs)
        # sentence scores: every segment alone, as nltk.sentence_bleu scores it
        batch = outcome(api.sentence_scores, hyps, streams, host=session_host, **options)
        each = [outcome(B.sentence_bleu, r, h, nltk_weights, fn, reweigh)
                for r, h in zip(nltk_refs, nltk_hyps)]
        failed = [i for i, t in enumerate(each) if t.error is not None]
        if failed:  # the batch stops at the first segment NLTK cannot score
            assert batch.error is NltkMethod6Error, (case, failed, batch)
            continue
        assert batch.error is None and batch.warned == sum((t.warned for t in each), ())
        for score, theirs in zip(batch.value, each):
            got = list(score.scores) if multi else score.score
            assert identical(got, theirs.value), (case, hyps, streams, options)


def test_method6_error_is_a_user_error():
    from evalfw.metrics.bleu.families.nltk import Method6

    counts = Counts((3, 1, 0, 0), (3, 2, 1, 1), 3, 9, 1, (3,), (3,), 3)
    with pytest.raises(EvalfwError, match="trigram"):
        Method6().smooth(counts)
    with pytest.raises(EvalfwError, match="max_order"):
        Method6().smooth(Counts((3, 1), (3, 2), 3, 9, 1, (3,), (3,), 3))


def test_nltk_smoothers_reject_zero_totals():
    from evalfw.metrics.bleu.families.nltk import Method3

    with pytest.raises(EvalfwError, match="total_floor"):
        Method3().smooth(Counts((1, 0), (1, 0), 1, 1))
