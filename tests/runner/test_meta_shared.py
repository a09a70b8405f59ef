"""The two example meta-evaluation configs on the shared data: they run, store, verify and
render, and their human scores are the published ones (Google's per-segment MQM averages,
WMT22's official de-en DA ranking)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evalfw.errors import ResolutionWarning
from evalfw.runner.run import RunOutcome, run_experiment
from evalfw.runner.verify import verify
from tests.support.shared_data import REPO, need_shared_data

pytestmark = [pytest.mark.wmt22, pytest.mark.slow]


def _run(config: str, tmp_path: Path, data_root: Path) -> RunOutcome:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResolutionWarning)
        return run_experiment(str(REPO / "configs" / config),
                              [f"data_root={data_root}", f"output_dir={tmp_path / 'runs'}"])


@pytest.fixture(scope="module")
def ted(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunOutcome, Path]:
    data = need_shared_data()
    tmp = tmp_path_factory.mktemp("ted")
    return _run("meta-ted-en-de.yaml", tmp, data), data


def _avg_file(data: Path) -> dict[tuple[str, int], float | None]:
    out: dict[tuple[str, int], float | None] = {}
    path = data / "mqm" / "ted-en-de" / "mqm_ted_ende.avg_seg_scores.tsv"
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        system, score, seg = line.split()
        out[(system.replace("ref-A", "ref"), int(seg))] = None if score == "None" \
            else -float(score)
    return out


def test_ted_mqm_scores_are_googles_averages(ted: Any) -> None:
    outcome, data = ted
    record = outcome.record
    ts = record["test_sets"][0]
    assert ts["segments"] == 529 and ts["mqm"]["segment_ids"] == "1-140,218-606"
    assert len(ts["systems"]) == 13
    published = _avg_file(data)
    ids = [s for s in range(1, 607) if not 141 <= s <= 217]
    judged = record["judgements"][0]
    assert len(judged["systems"]) == 14  # the 13 systems and the reference
    for entry in judged["systems"]:
        rows = outcome.evaluation.arrays[entry["segments"]]
        assert rows[:, 1].sum() == 529
        want = [published[(entry["system"], s)] for s in ids]
        assert np.abs(rows[:, 0] - np.array(want, dtype=float)).max() < 5e-7
    assert all(published[(s, i)] is None for s in ("ref", "Nemo") for i in range(141, 218))


def test_ted_meta_evaluation_and_its_outputs(ted: Any) -> None:
    outcome, _ = ted
    record = outcome.record
    table = record["meta_evaluation"]["tables"][0]
    assert table["systems"] == [s["name"] for s in record["test_sets"][0]["systems"]]
    assert table["references"] == ["ref"]
    stats = {(s["level"], s["grouping"], s["statistic"]): s for s in table["statistics"]}
    accuracy = stats[("system", None, "accuracy")]
    assert (accuracy["items"], accuracy["pairs"], accuracy["family_size"]) == (13, 78, 6)
    for m in accuracy["metrics"]:
        assert m["lower"] <= m["value"] <= m["upper"] and m["resamples"] == 1000
        assert m["value"] * 78 == pytest.approx(round(m["value"] * 78))
    acc_eq = stats[("segment", "item", "acc_eq")]
    assert (acc_eq["items"], acc_eq["segments"], acc_eq["pairs"]) == (6877, 529, 41262)
    ungrouped = stats[("segment", "none", "tau_b")]
    assert ungrouped["pairs"] == 6877 * 6876 // 2 and "tests" not in ungrouped
    for key in stats:
        for m in stats[key]["metrics"]:
            assert m["value"] is not None and math.isfinite(m["value"])
    assert outcome.path is not None
    html = (outcome.path / "report-html.html").read_text(encoding="utf-8")
    assert html.count("<svg") >= 3 and "Agreement with human judgements" in html
    assert (outcome.path / "meta-evaluation.csv").is_file()
    assert "mqm" in record["significance"]["tables"][0]["metric"]


def test_ted_segment_statistics_equal_scipy_on_the_sentence_scores(ted: Any) -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    outcome, _ = ted
    ev = outcome.evaluation
    systems = [s["name"] for s in outcome.record["test_sets"][0]["systems"]]
    mqm = np.stack([ev.arrays[next(s["segments"] for s in outcome.record["judgements"][0]
                                   ["systems"] if s["system"] == name)][:, 0]
                    for name in systems])
    chrf = ev.metrics[("ted-en-de", "chrf")]
    stats = ev.statistics("ted-en-de", "chrf")
    x = np.stack([chrf.sentence_scores(stats[name]) for name in systems])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = [scipy_stats.kendalltau(x[:, r], -mqm[:, r]).statistic for r in range(529)]
    table = outcome.record["meta_evaluation"]["tables"][0]
    got = next(m["value"] for s in table["statistics"]
               if (s["level"], s["grouping"], s["statistic"]) == ("segment", "item", "tau_b")
               for m in s["metrics"] if m["metric"] == "chrf")
    assert got == pytest.approx(float(np.nanmean(per)), abs=1e-9)
    flat = scipy_stats.kendalltau(x.ravel(), -mqm.ravel(), variant="c").statistic
    got = next(m["value"] for s in table["statistics"]
               if (s["level"], s["grouping"], s["statistic"]) == ("segment", "none", "tau_c")
               for m in s["metrics"] if m["metric"] == "chrf")
    assert got == pytest.approx(float(flat), abs=1e-9)


def test_ted_run_verifies(ted: Any) -> None:
    outcome, data = ted
    verdict = verify(str(outcome.path), data_roots=[data])
    assert verdict.ok, verdict.problems


def test_wmt22_de_en_reproduces_the_official_ranking(tmp_path: Path) -> None:
    data = need_shared_data()
    outcome = _run("meta-wmt22-de-en.yaml", tmp_path, data / "wmt22")
    record = outcome.record
    table = record["meta_evaluation"]["tables"][0]
    assert table["human_level"] == "system" and table["excluded"] == ["HUMAN"]
    ranking = [s["system"] for s in sorted(table["human_scores"],
                                           key=lambda h: -h["score"])]
    human = data / "wmt22" / "de-en" / "human"
    official = [line.split()[5] for line in
                (human / "ad-sys-ranking-de-en-z-names.csv").read_text().splitlines()]
    clusters = [line.split()[7] for line in (human / "clusters.csv").read_text().splitlines()
                if line.startswith("de en ")]
    assert ranking == official
    assert [c.rsplit(".", 1)[0].replace("HUMAN-B", "HUMAN") for c in clusters] == official
    stats = {s["statistic"]: s for s in table["statistics"]}
    assert set(stats) == {"accuracy", "pearson", "spearman", "kendall"}
    assert stats["accuracy"]["items"] == 9 and stats["accuracy"]["pairs"] == 36
    assert verify(str(outcome.path), data_roots=[data]).ok
