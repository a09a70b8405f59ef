"""Shared helpers of the significance and bucket tests (not a test module itself).

They build a plugin host and specs, synthetic per-segment statistics, and convert sacreBLEU's
own per-segment statistics vectors into :class:`SegmentStats`, so that the statistics code is
tested in isolation from tokenization.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import numpy as np

from evalfw.host.host import BUILTIN_PLUGINS, PluginHost
from evalfw.metrics.bleu.metric import Bleu
from evalfw.metrics.bleu.spec import BleuSpec, resolve_spec
from evalfw.metrics.bleu.stats import SegmentStats
from evalfw.plugin import hookimpl
from evalfw.tokenizers.base import Tokenizer
from tests.support.shared_data import SHARED as _SHARED_DIR

SHARED = _SHARED_DIR
WMT22 = SHARED / "data" / "wmt22"


class _Split(Tokenizer):
    """Stand-in used only while the built-in tokenizers module is missing (statistics tests
    never tokenize; resolve_spec still needs the preset's tokenizer to exist)."""

    name = "13a"

    def tokenize(self, lines: Any) -> list[list[str]]:
        return [s.split() for s in lines]


class _StandIn:
    @staticmethod
    @hookimpl
    def evalfw_register_tokenizers() -> list[type[Tokenizer]]:
        return [_Split]


@functools.cache
def host() -> PluginHost:
    try:
        return PluginHost.create(autoload=False)
    except ModuleNotFoundError:
        mods = []
        for name in BUILTIN_PLUGINS:
            try:
                mods.append(importlib.import_module(name))
            except ModuleNotFoundError:
                pass
        return PluginHost.create(autoload=False, builtins=False, extra_plugins=[*mods, _StandIn])


def spec(**options: Any) -> BleuSpec:
    return resolve_spec(host(), options)


def metric(**options: Any) -> Bleu:
    """The BLEU metric with these options (the analyses take a metric)."""
    return Bleu.create(options, host=host())


def rows(metric: Bleu, stats: Any) -> Any:
    """Statistics rows of ``metric`` from BLEU counts (one SegmentStats, or a dict of them)."""
    if isinstance(stats, dict):
        return {name: metric.rows(st) for name, st in stats.items()}
    return metric.rows(stats)


def random_stats(rng: np.random.Generator, n: int, order: int = 4, refs: int = 1,
                 mean_len: float = 20.0, quality: float = 0.6) -> SegmentStats:
    """Plausible per-segment statistics: matches <= totals, totals = max(0, len - k)."""
    hyp_len = rng.poisson(mean_len, n).astype(np.int64)
    ref_lens = np.maximum(0, hyp_len[:, None] + rng.integers(-4, 5, (n, refs)))
    totals = np.maximum(0, hyp_len[:, None] - np.arange(order)[None, :])
    q = np.clip(rng.normal(quality, 0.2, n), 0, 1)[:, None] ** (1 + np.arange(order))[None, :]
    matches = rng.binomial(totals, q)
    return SegmentStats(hyp_len, ref_lens, matches, totals)


def from_sacrebleu_vectors(vectors: Any, order: int = 4) -> SegmentStats:
    """sacreBLEU's per-segment vector [hyp_len, ref_len, matches..., totals...] -> SegmentStats
    (the chosen reference length becomes the only reference)."""
    arr = np.asarray(vectors, dtype=np.int64).reshape(-1, 2 + 2 * order)
    return SegmentStats(arr[:, 0], arr[:, 1:2], arr[:, 2:2 + order], arr[:, 2 + order:])


def to_sacrebleu_vectors(stats: SegmentStats, ref_len: np.ndarray, order: int = 4) -> list[list[int]]:
    arr = np.concatenate([stats.hyp_len[:, None], ref_len[:, None], stats.matches[:, :order],
                          stats.totals[:, :order]], axis=1)
    return arr.tolist()


# --------------------------------------------------------------- sacreBLEU oracle helpers


def sacre_stats(metric: Any, hyps: list[str]) -> np.ndarray:
    """sacreBLEU's own per-segment statistics of ``hyps`` (against its cached references):
    [hyp_len, ref_len, matches..., totals...] per segment, which is also evalfw's BLEU
    statistics row."""
    return np.asarray(metric._extract_corpus_statistics(hyps, None), dtype=np.int64)


def spec_for(metric: Any) -> BleuSpec:
    """The evalfw spec of a sacreBLEU ``BLEU`` object's options."""
    return spec(smoothing=metric.smooth_method, smooth_value=metric.smooth_value,
                effective_order=metric.effective_order, max_order=metric.max_ngram_order)


def metric_for(sacre: Any) -> Bleu:
    """The evalfw BLEU metric of a sacreBLEU ``BLEU`` object's options."""
    return Bleu(spec_for(sacre))


def sacre_paired(named: list[tuple[str, list[str]]], refs: list[list[str]], kind: str, n: int,
                 **bleu: Any) -> tuple[str, list[Any]]:
    """sacreBLEU's PairedTest: (signature text, Result per system, baseline first)."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    sigs, scores = PairedTest(named, {"BLEU": BLEU(references=refs, **bleu)}, None,
                              test_type=kind, n_samples=n)()
    return sigs["BLEU"].format(), scores["BLEU"]


def check_paired(named: list[tuple[str, list[str]]], refs: list[list[str]], kind: str, n: int,
                 **bleu: Any) -> Any:
    """Run both implementations; every number must be identical."""
    from sacrebleu.metrics import BLEU

    from evalfw.analysis import significance as sig
    from evalfw.compat.sacrebleu import _text as st

    sig_text, ref_results = sacre_paired(named, refs, kind, n, **bleu)
    metric = BLEU(references=refs, **bleu)
    ours = metric_for(metric)
    stats = {name: sacre_stats(metric, hyps) for name, hyps in named}
    outcome = sig.paired_analysis(stats, named[0][0], ours,
                                  "bootstrap" if kind == "bs" else "ar", n, mode="sacrebleu")
    base = ref_results[0]
    if kind == "bs":
        assert (outcome.baseline.score, outcome.baseline.mean, outcome.baseline.ci) == \
            (base.score, base.mean, base.ci)
    for ours, theirs in zip(outcome.comparisons, ref_results[1:], strict=True):
        assert ours.score == theirs.score
        assert ours.p_value == theirs.p_value, (ours.system, ours.p_value, theirs.p_value)
        assert (ours.mean, ours.ci) == (theirs.mean, theirs.ci)
    method = "bootstrap" if kind == "bs" else "ar"
    assert st.paired_signature(metric.get_signature().format(), method, n, outcome.seed) \
        == sig_text
    return outcome


def assert_resampled_scores_equal(ours: Any, stats: list[np.ndarray], sacre: Any,
                                  segments: int, samples: int, seed: int) -> None:
    """sacrebleu-mode resampled scores (``ours``: one row per system) equal sacreBLEU's: the
    same index draws, its float32 statistics summed and scored by its own metric ``sacre``."""
    idx = np.random.default_rng(seed).choice(segments, size=(samples, segments), replace=True)
    for k, rows in enumerate(stats):
        stats32 = rows.astype(np.float32)
        expected = [float(sacre._compute_score_from_stats(s.sum(0)).score) for s in stats32[idx]]
        assert ours[k].tolist() == expected


def assert_paired_bootstrap_equal(base: Any, comparisons: Any, theirs: Any) -> None:
    """A sacrebleu-mode paired bootstrap (baseline, comparisons) equals sacreBLEU's results."""
    assert (base.score, base.ci) == (theirs[0].score, theirs[0].ci)
    for ours, other in zip(comparisons, theirs[1:], strict=True):
        assert (ours.score, ours.p_value, ours.ci) == (other.score, other.p_value, other.ci)
