"""TER on WMT22 equals sacreBLEU 2.6.0's: every system of every pair.

sacreBLEU's TER takes seconds per system (a minute on a busy machine), so it runs here on a
stride of segments of every system, with all references: with default options for every
pair, and with ``asian_support`` (alone, and with ``normalized``, where it splits CJK
characters) for en-ja and en-zh. Whole corpora are pinned by sacreBLEU's numbers for en-de
Online-B from the reference notes, and ``benchmarks/`` (target ``ter``) compares the whole
corpus of every system. sacreBLEU-mode significance is compared with sacreBLEU's own paired
bootstrap and bootstrap confidence for a few en-de systems.
"""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import TER as SacreTER

from evalfw.analysis import sacrebleu_mode
from evalfw.analysis.resampling import columns
from evalfw.compat import _ter as compat
from evalfw.metrics.ter.metric import Ter
from tests.support.pythons import needs_nep50
from tests.support.shared_data import load_wmt22, need_wmt22, wmt22_pairs
from tests.support.significance import assert_paired_bootstrap_equal, assert_resampled_scores_equal

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

#: (options, stride): splitting CJK characters makes sequences long and sacreBLEU slow
VARIANTS = {"default": ({}, 17), "asian": ({"asian_support": True}, 17),
            "normalized-asian": ({"normalized": True, "asian_support": True}, 131)}
CASES = [(pair, "default") for pair in ("de-en", "en-de", "en-ja", "en-zh")] + \
    [(pair, variant) for pair in ("en-ja", "en-zh") for variant in ("asian", "normalized-asian")]


def test_pairs_are_all_there():
    assert wmt22_pairs(need_wmt22()) == ["de-en", "en-de", "en-ja", "en-zh"]


@pytest.mark.parametrize("pair,variant", CASES)
def test_every_system_equals_sacrebleu(pair, variant):
    options, stride = VARIANTS[variant]
    refs, systems = load_wmt22(need_wmt22(), pair)
    start = list(VARIANTS).index(variant)  # other segments for each variant
    streams = [s[start::stride] for s in refs.values()]
    ours, theirs = compat.TER(references=streams, **options), \
        SacreTER(references=streams, **options)
    for name, hyps in systems.items():
        a, b = ours.corpus_score(hyps[start::stride], None), \
            theirs.corpus_score(hyps[start::stride], None)
        assert (repr(a.score), a.num_edits, repr(a.ref_length), str(a)) == \
            (repr(b.score), b.num_edits, repr(b.ref_length), str(b)), (pair, name)
    assert str(ours.get_signature()) == str(theirs.get_signature())


@pytest.mark.parametrize("options,refs,expected", [
    ({}, "A", (49.94614970382337, 16695, 33426.0)),
    ({}, "AB", (41.23873806904344, 13869, 33631.0)),
    ({"normalized": True}, "A", (43.250674547089815, 16831, 38915.0)),
    ({"normalized": True}, "AB", (35.56679955024021, 13918, 39132.0)),
])
def test_whole_corpus_equals_sacrebleu_notes(options, refs, expected):
    """sacreBLEU 2.6.0's TER of en-de Online-B (the notes' corpus oracles)."""
    references, systems = load_wmt22(need_wmt22(), "en-de")
    score = compat.TER(**options).corpus_score(systems["Online-B"],
                                               [references[k] for k in refs])
    assert (score.score, score.num_edits, score.ref_length) == expected


def test_python_fallback_equals_kernel(monkeypatch):
    refs, systems = load_wmt22(need_wmt22(), "en-zh")
    streams = [s[::29] for s in refs.values()]
    metric = Ter(normalized=True, asian_support=True)
    for name in list(systems)[:3]:
        hyps = systems[name][::29]
        native = metric.segment_statistics(hyps, streams)
        with monkeypatch.context() as m:
            m.setenv("EVALFW_NATIVE", "0")
            assert (metric.segment_statistics(hyps, streams) == native).all(), name


N_SAMPLES = 200
SEGMENTS = 300
PAIRED = ["Online-B", "Online-A", "PROMT"]


@pytest.fixture(scope="module")
def paired():
    """sacreBLEU's paired bootstrap of three en-de systems and evalfw's sacrebleu-mode one on
    the same rows (two references: averaged reference lengths)."""
    from sacrebleu.significance import PairedTest

    refs, systems = load_wmt22(need_wmt22(), "en-de")
    hyps = {x: systems[x][:SEGMENTS] for x in PAIRED}
    ref = [r[:SEGMENTS] for r in refs.values()]
    _, results = PairedTest([(x, hyps[x]) for x in PAIRED], {"TER": SacreTER(references=ref)},
                            None, test_type="bs", n_samples=N_SAMPLES)()
    metric = Ter()
    cols = {x: columns(metric, metric.segment_statistics(hyps[x], ref)) for x in PAIRED}
    ours = sacrebleu_mode.paired_bootstrap(
        metric, (PAIRED[0], cols[PAIRED[0]]), [(x, cols[x]) for x in PAIRED[1:]], N_SAMPLES)
    return metric, cols, results["TER"], ours


def test_sacrebleu_mode_resampled_scores_equal_sacrebleu(paired):
    metric, cols, _, _ = paired
    ours = sacrebleu_mode.bootstrap_scores(metric, [cols[x] for x in PAIRED], N_SAMPLES, 12345)
    assert_resampled_scores_equal(ours, [cols[x].sums for x in PAIRED], SacreTER(), SEGMENTS,
                                  N_SAMPLES, 12345)


def test_sacrebleu_mode_paired_bootstrap_equals_sacrebleu(paired):
    _, _, theirs, (base, comparisons) = paired
    assert_paired_bootstrap_equal(base, comparisons, theirs)


def test_sacrebleu_mode_paired_means_equal_sacrebleu(paired):
    _, _, theirs, (base, comparisons) = paired
    # sacreBLEU's TER resample scores are float32, so are its means: evalfw's are the same
    assert [base.mean] + [c.mean for c in comparisons] == [float(r.mean) for r in theirs]


@needs_nep50
def test_sacrebleu_mode_confidence_equals_sacrebleu(paired):
    from sacrebleu.significance import _bootstrap_resample

    metric, cols, _, _ = paired
    stats = cols["PROMT"].sums
    _, scores = _bootstrap_resample(stats.tolist(), SacreTER(), N_SAMPLES)
    expected = SacreTER()._compute_score_from_stats(stats.sum(axis=0))
    expected.estimate_ci(scores)
    ours = sacrebleu_mode.confidence(metric, cols["PROMT"], N_SAMPLES)
    assert (ours.ci, np.float32(ours.mean)) == (expected._ci, expected._mean)


def test_sacrebleu_mode_paired_ar_equals_sacrebleu(paired):
    """Approximate randomization: exact sums (halves of two-reference averages are binary
    fractions), so the p-values are sacreBLEU's."""
    from sacrebleu.significance import PairedTest

    metric, cols, _, _ = paired
    refs, systems = load_wmt22(need_wmt22(), "en-de")
    ref = [r[:SEGMENTS] for r in refs.values()]
    _, results = PairedTest([(x, systems[x][:SEGMENTS]) for x in PAIRED],
                            {"TER": SacreTER(references=ref)}, None, test_type="ar",
                            n_samples=1000)()
    ours = sacrebleu_mode.paired_ar(metric, (PAIRED[0], cols[PAIRED[0]]),
                                    [(x, cols[x]) for x in PAIRED[1:]], 1000)
    assert [(c.score, c.p_value) for c in ours] == \
        [(r.score, r.p_value) for r in results["TER"][1:]]
