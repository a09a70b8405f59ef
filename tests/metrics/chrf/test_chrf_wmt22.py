"""chrF and chrF++ on WMT22 equal sacreBLEU 2.6.0: every system of every pair.

chrF is checked against the published sacreBLEU scores shipped with the data
(``automatic-scores.tsv``: ``chrf-A`` with reference A, ``chrf-all`` with all references; the
organisers' en-zh ``chrf-all`` comes from an older sacreBLEU and differs from 2.6.0's, as the
data's README says). chrF and chrF++ with all references are compared with sacreBLEU run here,
on every 13th segment of every system (chrF++ also on the full corpus of one system per pair),
to keep the run short; ``benchmarks/`` compares every full corpus. sacreBLEU-mode significance
is compared with sacreBLEU's own paired bootstrap for a few en-de systems.
"""

from __future__ import annotations

import csv

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from evalfw.analysis import sacrebleu_mode
from evalfw.analysis.resampling import columns
from evalfw.compat import _chrf as compat
from evalfw.metrics.chrf.metric import Chrf
from tests.support.shared_data import load_wmt22 as _load
from tests.support.shared_data import need_wmt22
from tests.support.shared_data import wmt22_pairs as _pairs
from tests.support.significance import assert_paired_bootstrap_equal, assert_resampled_scores_equal

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]


def test_chrf_every_system_equals_published_sacrebleu_scores():
    root = need_wmt22()
    published: dict[tuple[str, str, str], str] = {}
    with open(root / "automatic-scores.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            published[row["pair"], row["system"], row["metric"]] = row["score"]
    checked = 0
    for pair in _pairs(root):
        refs, systems = _load(root, pair)
        metric = Chrf()
        prepared = {"chrf-A": metric.prepare_references([refs["A"]]),
                    "chrf-all": metric.prepare_references(list(refs.values()))}
        for name, hyps in systems.items():
            for key, prep in prepared.items():
                expected = published.get((pair, name, key))
                if expected is None:
                    continue
                stats = metric.segment_statistics(hyps, prep)
                if (pair, key) == ("en-zh", "chrf-all"):
                    continue  # checked against sacreBLEU 2.6.0 by the next test
                assert repr(metric.score(stats)) == expected, (pair, name, key)
                checked += 1
    assert checked == 75  # 44 systems with reference A; 31 with all (en-zh excepted)


@pytest.mark.parametrize("word_order", [0, 2])
@pytest.mark.parametrize("pair", ["de-en", "en-de", "en-ja", "en-zh"])
def test_every_system_equals_sacrebleu(pair, word_order):
    root = need_wmt22()
    refs, systems = _load(root, pair)
    streams = list(refs.values())
    for k, (name, hyps) in enumerate(systems.items()):
        step = 1 if k == 0 and word_order else 13  # one whole corpus, then a stride
        h, r = hyps[::step], [s[::step] for s in streams]
        ours, theirs = compat.CHRF(word_order=word_order), SacreCHRF(word_order=word_order)
        a, b = ours.corpus_score(h, r), theirs.corpus_score(h, r)
        assert (repr(a.score), str(a)) == (repr(b.score), str(b)), (pair, name)
        assert str(ours.get_signature()) == str(theirs.get_signature())
        metric = Chrf(word_order=word_order)
        stats = metric.segment_statistics(h, r)
        # sentence scores: one vectorized call against sacreBLEU's per-segment formula
        expected = [theirs._compute_f_score(row) for row in stats.tolist()[:50]]
        assert metric.sentence_scores(stats)[:50].tolist() == expected


N_SAMPLES = 200
PAIRED = ["Online-B", "Online-A", "PROMT"]


@pytest.fixture(scope="module")
def paired():
    """sacreBLEU's paired bootstrap of three en-de systems (400 segments) and evalfw's
    sacrebleu-mode one on the same rows."""
    from sacrebleu.significance import PairedTest

    root = need_wmt22()
    refs, systems = _load(root, "en-de")
    hyps = {x: systems[x][:400] for x in PAIRED}
    ref = [refs["A"][:400]]
    _, results = PairedTest([(x, hyps[x]) for x in PAIRED], {"chrF": SacreCHRF(references=ref)},
                            None, test_type="bs", n_samples=N_SAMPLES)()
    metric = Chrf()
    cols = {x: columns(metric, metric.segment_statistics(hyps[x], ref)) for x in PAIRED}
    ours = sacrebleu_mode.paired_bootstrap(
        metric, (PAIRED[0], cols[PAIRED[0]]), [(x, cols[x]) for x in PAIRED[1:]], N_SAMPLES)
    return metric, cols, results["chrF2"], ours


def test_sacrebleu_mode_resampled_scores_equal_sacrebleu(paired):
    metric, cols, _, _ = paired
    ours = sacrebleu_mode.bootstrap_scores(metric, [cols[x] for x in PAIRED], N_SAMPLES, 12345)
    assert_resampled_scores_equal(ours, [cols[x].sums for x in PAIRED], SacreCHRF(), 400,
                                  N_SAMPLES, 12345)


def test_sacrebleu_mode_paired_bootstrap_equals_sacrebleu(paired):
    _, _, theirs, (base, comparisons) = paired
    assert_paired_bootstrap_equal(base, comparisons, theirs)


def test_sacrebleu_mode_paired_means_equal_sacrebleu(paired):
    _, _, theirs, (base, comparisons) = paired
    # sacreBLEU's chrF resample scores are float32, so are its means: evalfw's are the same
    assert [base.mean] + [c.mean for c in comparisons] == [float(r.mean) for r in theirs]
    assert [base.ci] + [c.ci for c in comparisons] == [float(r.ci) for r in theirs]
