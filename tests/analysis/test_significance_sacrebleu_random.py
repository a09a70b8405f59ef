"""sacrebleu mode against sacreBLEU 2.6.0 on small random corpora and synthetic statistics:
every smoothing, effective order and n-gram order; float32 rounding beyond 2**24; seed
semantics; signature fields."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evalfw.analysis import resampling as rs  # noqa: E402
from evalfw.analysis import sacrebleu_mode as sm  # noqa: E402
from evalfw.analysis import significance as sig  # noqa: E402
from evalfw.compat.sacrebleu import _text as st  # noqa: E402
from tests.support import significance as sup
from tests.support.significance import check_paired, sacre_paired, sacre_stats

pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.significance import _bootstrap_resample, estimate_ci  # noqa: E402

pytestmark = pytest.mark.parity


def _random_corpus(rnd: random.Random, n_refs: int) -> tuple[list[list[str]], list[list[str]]]:
    vocab = [f"w{i}" for i in range(rnd.randint(3, 30))]
    n = rnd.randint(2, 40)

    def line() -> str:
        return " ".join(rnd.choice(vocab) for _ in range(rnd.randint(0, 12)))

    refs = [[line() for _ in range(n)] for _ in range(n_refs)]
    systems = [[line() if rnd.random() < 0.5 else refs[0][i] for i in range(n)]
               for _ in range(rnd.randint(2, 4))]
    return refs, systems


def test_random_corpora_all_options():
    """Small random corpora, every smoothing, effective order and n-gram order."""
    rnd = random.Random(20240501)
    cases = 0
    for case in range(120):
        refs, systems = _random_corpus(rnd, rnd.randint(1, 3))
        bleu = {"smooth_method": rnd.choice(["exp", "floor", "add-k", "none"]),
                "effective_order": rnd.random() < 0.4, "max_ngram_order": rnd.randint(1, 5)}
        named = [(f"s{i}", s) for i, s in enumerate(systems)]
        check_paired(named, refs, "bs" if case % 2 else "ar", rnd.randint(1, 60), **bleu)
        metric = BLEU(references=refs, **bleu)
        stats = sacre_stats(metric, systems[0])
        n = rnd.randint(2, 80)
        ours = sig.confidence_interval(stats, sup.metric_for(metric), n, seed="12345",
                                       mode="sacrebleu")
        theirs = metric.corpus_score(systems[0], None, n_bootstrap=n)
        assert (ours.score, ours.mean, ours.ci) == (theirs.score, theirs._mean, theirs._ci)
        cases += 1
    assert cases == 120


def test_float32_sums_beyond_2_24(monkeypatch):
    """Sums above 2**24 are inexact in float32; the sequential path must round like numpy."""
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    rng = np.random.default_rng(3)
    for _ in range(5):
        n = int(rng.integers(50, 300))
        hyp = rng.integers(300_000, 900_000, n)
        totals = np.maximum(0, hyp[:, None] - np.arange(4))
        matches = (totals * rng.random((n, 4)) * 0.7).astype(np.int64)
        ref = hyp + rng.integers(-900, 900, n)
        vectors = np.concatenate([hyp[:, None], ref[:, None], matches, totals], axis=1).tolist()
        assert np.asarray(vectors)[:, 0].sum() > 2 ** 24
        seed, scores = _bootstrap_resample(vectors, BLEU(), 40)
        mean, ci = estimate_ci(np.array([x.score for x in scores]))
        bleu = sup.metric()
        ours = sm.confidence(bleu, rs.columns(bleu, np.asarray(vectors, dtype=np.int64)), 40,
                             paired=True)
        assert (ours.mean, ours.ci) == (mean, ci)
        assert seed == "7"


def test_seed_semantics(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    assert sm.read_seed() == sm.SacreSeed(12345, "12345")
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    assert sm.read_seed() == sm.SacreSeed(None, "none")
    assert sm.read_seed("NONE").value is None
    assert sm.read_seed(0).paired_value is None and sm.read_seed(0).value == 0
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    refs, systems = _random_corpus(random.Random(5), 1)
    metric = BLEU(references=refs)
    sig_text, theirs = sacre_paired([("a", systems[0]), ("b", systems[1])], refs, "bs", 50)
    both = {"a": sacre_stats(metric, systems[0]), "b": sacre_stats(metric, systems[1])}
    out = sig.paired_analysis(both, "a", sup.metric(), "bootstrap", 50, mode="sacrebleu")
    # seed 0: the baseline bootstrap is seeded with 0, the comparisons are unseeded
    assert (out.baseline.mean, out.baseline.ci) == (theirs[0].mean, theirs[0].ci)
    assert out.comparisons[0].seed is None and "seed:0" in sig_text
    with pytest.raises(sig.ConfigError, match="SACREBLEU_SEED"):
        monkeypatch.setenv("SACREBLEU_SEED", "abc")
        sm.read_seed()


def test_signature_fields():
    base = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert st.paired_signature(base, "bootstrap", 1000, 12345) == \
        "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert st.paired_signature(base, "ar", 10000, None).startswith("nrefs:1|ar:10000|seed:none|")
    short = "#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0"
    assert st.signature_with(short, bs=1000, seed="12345", short=True) == \
        "#:1|bs:1000|rs:12345|c:mixed|e:no|tok:13a|s:exp|v:2.6.0"
    refs, systems = _random_corpus(random.Random(9), 1)
    metric = BLEU(references=refs)
    metric.corpus_score(systems[0], None, n_bootstrap=20)
    res = sig.confidence_interval(sacre_stats(metric, systems[0]), sup.metric(), 20,
                                  mode="sacrebleu")
    plain = BLEU(references=refs).get_signature().format()
    assert st.confidence_signature(plain, res, "12345") == metric.get_signature().format()


def test_requires_sacrebleu_family():
    nltk = sup.metric(preset="nltk")
    stats = nltk.rows(sup.random_stats(np.random.default_rng(0), 30))
    with pytest.raises(sig.ConfigError, match="mode 'default'"):
        sig.confidence_interval(stats, nltk, 10, mode="sacrebleu")
