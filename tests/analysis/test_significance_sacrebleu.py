"""sacrebleu mode against sacreBLEU 2.6.0 itself: same seed, same p-values, means and intervals.

The statistics come from sacreBLEU's own per-segment vectors, so these tests check the
resampling and scoring only (tokenization is tested elsewhere); one test goes end to end
through evalfw's engine. Values from the reference notes (section 7.6) are checked as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalfw.analysis import significance as sig  # noqa: E402
from evalfw.compat.sacrebleu import _text as st  # noqa: E402
from tests.support import significance as sup
from tests.support.pythons import needs_nep50, same_as_recorded
from tests.support.significance import check_paired, sacre_paired, sacre_stats

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

EN_DE = sup.WMT22 / "en-de"
SYSTEMS = ["Online-B", "Online-A", "JDExploreAcademy", "PROMT", "Lan-Bridge", "Online-G",
           "Online-W", "Online-Y", "OpenNMT"]


def _lines(path: Path) -> list[str]:
    return [line.rstrip() for line in path.read_text(encoding="utf-8").split("\n")[:-1]]


@pytest.fixture(scope="module")
def wmt22():
    if not EN_DE.is_dir():
        pytest.skip(f"WMT22 data not found at {EN_DE} (shared data directory absent)")
    refs = [_lines(EN_DE / "ref.A.txt")]
    return refs, {name: _lines(EN_DE / "sys" / f"{name}.txt") for name in SYSTEMS}


def test_wmt22_paired_bs_all_systems(wmt22):
    refs, hyps = wmt22
    check_paired([(s, hyps[s]) for s in SYSTEMS], refs, "bs", 200)


def test_wmt22_paired_ar_all_systems(wmt22):
    refs, hyps = wmt22
    check_paired([(s, hyps[s]) for s in SYSTEMS], refs, "ar", 500)


@pytest.mark.slow
def test_wmt22_two_references_other_baseline(wmt22):
    refs, hyps = wmt22
    refs = refs + [_lines(EN_DE / "ref.B.txt")]
    named = [(s, hyps[s]) for s in ("JDExploreAcademy", "Online-W", "OpenNMT")]
    check_paired(named, refs, "bs", 300)
    check_paired(named, refs, "ar", 300)


@needs_nep50
def test_wmt22_full_size_against_reference_notes(wmt22):
    """Section 7.6: `--paired-bs` (1000) and `--paired-ar` (10000), baseline Online-B, ref A."""
    refs, hyps = wmt22
    metric = BLEU(references=refs)
    names = ["Online-B", "Online-A", "JDExploreAcademy", "PROMT"]
    stats = {name: sacre_stats(metric, hyps[name]) for name in names}
    ours = sup.metric()
    bs = sig.paired_analysis(stats, "Online-B", ours, "bootstrap", 1000, seed="12345",
                             mode="sacrebleu")
    # the notes' values were computed where sum() adds left to right (tests.support.pythons)
    got = (bs.baseline.score, bs.baseline.mean, bs.baseline.ci)
    assert all(map(same_as_recorded, got, (38.36852355513645, 38.36984711706432,
                                           0.962602070354734))), got
    online_a, jd, promt = bs.comparisons
    assert online_a.p_value == 0.000999000999000999
    got = (online_a.score, online_a.mean, online_a.ci)
    assert all(map(same_as_recorded, got, (36.52531053341122, 36.535269263722064,
                                           0.9042382357385712))), got
    assert (jd.score, jd.p_value) == (37.79203841537659, 0.030969030969030968)
    assert (promt.score, promt.p_value) == (36.116654522316075, 0.000999000999000999)
    assert st.comparison_cell(online_a, 1) == "36.5 (36.5 ± 0.9)\n(p = 0.0010)*"
    assert st.comparison_cell(jd, 1, multiline=False).endswith(" (p = 0.0310)*")
    ar = sig.paired_analysis(stats, "Online-B", ours, "ar", 10000, seed="12345", mode="sacrebleu")
    assert [c.p_value for c in ar.comparisons] == \
        [9.999000099990002e-05, 0.05019498050194981, 9.999000099990002e-05]
    assert st.p_value_text(ar.comparisons[1].p_value) == "(p = 0.0502)"


def test_confidence_against_reference_notes():
    """Section 7.6: `--confidence -w 4` on de-en Online-A: 33.2854 (μ = 33.2763 ± 0.8840)."""
    de_en = sup.WMT22 / "de-en"
    if not de_en.is_dir():
        pytest.skip(f"WMT22 data not found at {de_en}")
    hyps = _lines(de_en / "sys" / "Online-A.txt")
    for refs, width, text in (
        (["A"], 4, "33.2854 (μ = 33.2763 ± 0.8840)"), (["A", "B"], 1, "50.2 (μ = 50.1 ± 0.9)"),
    ):
        metric = BLEU(references=[_lines(de_en / f"ref.{r}.txt") for r in refs])
        res = sig.confidence_interval(sacre_stats(metric, hyps), sup.metric(), 1000, seed="12345",
                                      mode="sacrebleu")
        assert st.confidence_text(res.score, res, width) == text


def test_end_to_end_through_evalfw_engine(wmt22):
    """Statistics from evalfw's own tokenizer and counter give sacreBLEU's p-values."""
    from evalfw.api import compute_stats

    refs, hyps = wmt22
    names = ["Online-B", "PROMT", "Online-W"]
    metric = sup.metric()
    stats = {n: metric.rows(compute_stats(hyps[n], refs, metric.spec)) for n in names}
    _, theirs = sacre_paired([(n, hyps[n]) for n in names], refs, "bs", 100)
    ours = sig.paired_test(stats, "Online-B", metric, "bootstrap", 100, mode="sacrebleu")
    assert [c.p_value for c in ours] == [t.p_value for t in theirs[1:]]
    assert [(c.mean, c.ci) for c in ours] == [(t.mean, t.ci) for t in theirs[1:]]
