"""Meta-evaluation end to end on small generated data: a test set built from an MQM file, the
human metric, the record's judgements and meta-evaluation, verify, ``evalfw meta``,
``to_pandas``, score tables on a line-based test set, a third-party metric plugin, and the
config's mistakes."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from evalfw.errors import ConfigError, InputError
from evalfw.runner.run import run_experiment
from evalfw.runner.verify import verify

REPO = Path(__file__).resolve().parents[2]
WORDS = "der die das ein eine Haus Katze Hund lief sah schnell langsam heute morgen".split()
SYSTEMS = ("alpha", "beta", "gamma", "delta")
HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n"


def _mqm(path: Path, segments: int = 14, seed: int = 3) -> dict[tuple[str, int], float]:
    """An MQM file: the systems and ref on segments 1..segments (id 5 missing), one or two
    raters; returns the expected MQM points per (system, segment)."""
    rng = random.Random(seed)
    rows, expected = [], {}
    for seg in [s for s in range(1, segments + 2) if s != 5]:
        ref = " ".join(rng.choices(WORDS, k=rng.randint(4, 9)))
        source = f"source {seg} with <v>marks</v>" if seg % 4 == 0 else f"source {seg}"
        for system in (*SYSTEMS, "ref"):
            words = ref.split()
            hyp = " ".join(w if rng.random() < 0.8 else rng.choice(WORDS) for w in words) \
                if system != "ref" else ref
            per_rater = []
            for rater in (["r1", "r2"] if seg % 3 == 0 else ["r1"]):
                errors = [rng.choice([("Accuracy/Mistranslation", "Major", 5.0),
                                      ("Fluency/Punctuation", "Minor", 0.1),
                                      ("Style/Awkward", "Minor", 1.0)])
                          for _ in range(rng.choice([0, 0, 1, 2]))]
                if not errors:
                    rows.append([system, "talk", str(seg), str(seg), rater, source, hyp,
                                 "No-error", "No-error", ""])
                for cat, sev, _ in errors:
                    rows.append([system, "talk", str(seg), str(seg), rater, source,
                                 f"<v>{hyp}</v>", cat, sev, ""])
                per_rater.append(sum(w for _, _, w in errors))
            expected[(system, seg)] = sum(per_rater) / len(per_rater)
    rng.shuffle(rows)
    path.write_text(HEAD + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return expected


def _config(folder: Path, extra: str = "", meta: str = "") -> Path:
    path = folder / "meta.yaml"
    path.write_text(f"""
schema_version: 1
experiment: meta-small
seed: 5
test_sets:
  - name: small
    langs: en-de
    mqm: {{file: mqm.tsv, reference: ref}}
metrics:
  - name: bleu
    effective_order: true
  - {{name: chrf, metric: chrf}}
  - {{name: mqm, metric: human, judgements: mqm}}
{extra}
meta_evaluation:
  human: mqm
  metrics: [bleu, chrf]
  samples: 40
  permutations: 30
{meta}
reports: [table, html, json, csv]
""", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[Any, float]]:
    expected = _mqm(tmp_path / "mqm.tsv")
    monkeypatch.chdir(tmp_path)
    return tmp_path, expected


def _stat(record: dict[str, Any], level: str, grouping: str | None,
          statistic: str) -> dict[str, Any]:
    table = record["meta_evaluation"]["tables"][0]
    return next(s for s in table["statistics"] if (s["level"], s["grouping"], s["statistic"])
                == (level, grouping, statistic))


def test_a_run_records_judgements_and_meta_evaluation(project: Any) -> None:
    folder, expected = project
    outcome = run_experiment(str(_config(folder)))
    record = outcome.record
    ts = record["test_sets"][0]
    assert ts["mqm"] == {"file": "mqm.tsv", "reference": "ref", "segment_ids": "1-4,6-15"}
    from evalfw.io.judgements import mqm_systems

    order = [s for s in mqm_systems(folder / "mqm.tsv") if s != "ref"]  # the file's order
    assert [s["name"] for s in ts["systems"]] == order and sorted(order) == sorted(SYSTEMS)
    judged = record["judgements"][0]
    assert (judged["format"], judged["unit"], judged["higher_is_better"]) == \
        ("mqm", "MQM points", False)
    assert judged["options"]["weights"]["Minor/Fluency/Punctuation"] == 0.1
    ids = [s for s in range(1, 16) if s != 5]
    for entry in judged["systems"]:
        rows = outcome.evaluation.arrays[entry["segments"]]
        want = [expected[(entry["system"], s)] for s in ids]
        assert rows[:, 0].tolist() == pytest.approx(want, abs=1e-12)
        assert entry["score"] == pytest.approx(sum(want) / len(want))
        assert entry["reference"] == (entry["system"] == "ref")
    human = {r["system"]: r["score"] for r in record["results"] if r["metric"] == "mqm"}
    assert human == {e["system"]: e["score"] for e in judged["systems"] if not e["reference"]}
    meta = record["meta_evaluation"]
    table = meta["tables"][0]
    assert table["systems"] == order and table["excluded"] == []
    assert table["references"] == ["ref"]
    keys = {(s["level"], s["grouping"], s["statistic"]) for s in table["statistics"]}
    assert keys == {("system", None, s) for s in ("accuracy", "pearson", "spearman", "kendall")} \
        | {("segment", g, s) for g in ("item", "none") for s in ("acc_eq", "tau_b", "tau_c")}
    system = _stat(record, "system", None, "accuracy")
    assert (system["items"], system["pairs"], system["family_size"]) == (4, 6, 1)
    item = _stat(record, "segment", "item", "acc_eq")
    assert (item["items"], item["segments"], item["pairs"]) == (56, 14, 84)
    assert all(m["resamples"] == 40 and m["epsilon"] >= 0 for m in item["metrics"])
    assert "tests" not in _stat(record, "segment", "none", "tau_b")
    assert {d["metric"] for d in table["deltas"]} == {"bleu", "chrf"}
    assert outcome.path is not None
    assert (outcome.path / "meta-evaluation.csv").read_text().startswith("test_set,human,level")
    html = (outcome.path / "report-html.html").read_text()
    assert "Agreement with human judgements" in html and "<svg" in html
    text = (outcome.path / "report-table.txt").read_text()
    assert "Meta-evaluation on small" in text and "Segment level, grouped by item" in text


def test_verify_reproves_and_catches_an_edited_meta_evaluation(project: Any) -> None:
    folder, _ = project
    path = run_experiment(str(_config(folder))).path
    assert path is not None
    assert verify(str(path)).ok
    record_file = path / "record.json"
    record = json.loads(record_file.read_text())
    stat = record["meta_evaluation"]["tables"][0]["statistics"][0]
    stat["metrics"][0]["value"] += 0.01
    record["judgements"][0]["systems"][0]["score"] += 1
    record_file.write_text(json.dumps(record))
    verdict = verify(str(path))
    assert not verdict.ok
    assert any(p.startswith("meta_evaluation[small][system/accuracy]") and ".value" in p
               for p in verdict.problems), verdict.problems
    assert any(p.startswith("judgements[small/mqm][alpha].score") for p in verdict.problems)


def test_meta_command_shows_or_recomputes_the_stored_run(
        project: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from evalfw.cli.main import main

    def run_cli(args: list[str]) -> tuple[int, str, str]:
        code = main(args)
        got = capsys.readouterr()
        return code, got.out, got.err

    folder, _ = project
    path = run_experiment(str(_config(folder))).path
    assert path is not None
    stored = json.loads((path / "record.json").read_text())["meta_evaluation"]
    code, out, err = run_cli(["meta", str(path)])
    assert code == 0, err
    assert "System level (4 systems, 6 pairs):" in out and "Intervals: 95 %" in out
    code, out, _ = run_cli(["meta", str(path), "--recompute", "--format", "json"])
    assert code == 0 and json.loads(out) == stored
    code, out, _ = run_cli(["meta", str(path), "--samples", "20", "--level", "system",
                            "--format", "json"])
    again = json.loads(out)
    assert again["settings"]["samples"] == 20 and again != stored
    assert {s["level"] for s in again["tables"][0]["statistics"]} == {"system"}
    code, out, _ = run_cli(["meta", str(path), "--format", "csv", "--table", "tests"])
    assert out.splitlines()[0].startswith("test_set,level,grouping,statistic,better,worse")
    code, out, err = run_cli(["meta", str(path), "--human", "nope"])
    assert code == 2 and "no judgements 'nope'" in err


def test_to_pandas_tables(project: Any) -> None:
    pytest.importorskip("pandas")
    import evalfw

    folder, _ = project
    run_experiment(str(_config(folder)))
    meta = evalfw.load_run("meta-small").meta_evaluation
    frame = meta.to_pandas()
    assert len(frame) == 2 * 10 and set(frame["metric"]) == {"bleu", "chrf"}
    assert list(meta.to_pandas("tests").columns)[:6] == ["test_set", "level", "grouping",
                                                         "statistic", "better", "worse"]
    assert len(meta.to_pandas("human")) == 5
    with pytest.raises(ConfigError, match="no meta-evaluation table 'x'"):
        meta.rows("x")


def test_a_third_party_metric_is_meta_evaluated_like_a_built_in(project: Any) -> None:
    folder, _ = project
    shutil.copytree(REPO / "tests" / "support" / "metric_plugins", folder / "plugins")
    config = _config(folder, "  - {name: uni, metric: unigram-error}",
                     "").read_text().replace("metrics: [bleu, chrf]", "metrics: [bleu, uni]")
    config = "plugin_dirs: [plugins]\n" + config
    (folder / "meta.yaml").write_text(config, encoding="utf-8")
    record = run_experiment(str(folder / "meta.yaml")).record
    acc = _stat(record, "system", None, "accuracy")
    assert {m["metric"] for m in acc["metrics"]} == {"bleu", "uni"}
    item = _stat(record, "segment", "item", "tau_b")
    assert all(m["value"] is not None for m in item["metrics"])


def _lines(folder: Path) -> None:
    rng = random.Random(1)
    ref = [" ".join(rng.choices(WORDS, k=6)) for _ in range(10)]
    (folder / "ref.txt").write_text("".join(r + "\n" for r in ref), encoding="utf-8")
    for name in ("A", "B", "C", "H"):
        (folder / f"{name}.txt").write_text("".join(
            " ".join(w if rng.random() < 0.7 else "x" for w in r.split()) + "\n" for r in ref),
            encoding="utf-8")


def _table_config(folder: Path, human: str, meta: str = "") -> Path:
    path = folder / "t.yaml"
    path.write_text(f"""
schema_version: 1
experiment: meta-tables
test_sets:
  - name: lines
    langs: en-de
    references: [ref.txt]
    systems: {{A: A.txt, B: B.txt, C: C.txt, H: H.txt}}
    human_systems: [H]
    human:
{human}
metrics:
  - {{name: chrf, metric: chrf}}
  - name: bleu
meta_evaluation:
  human: da
  samples: 20
  permutations: 20
{meta}
""", encoding="utf-8")
    return path


SEGMENTS = """      da:
        format: segments
        file: da.tsv
        names: {A.1: A}
"""


def test_segment_table_on_line_numbers_with_missing_judgements(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    monkeypatch.chdir(tmp_path)
    _lines(tmp_path)
    rows = ["system\tsegment\tscore"]
    rng = random.Random(2)
    for system in ("A.1", "B", "C", "H"):
        for seg in range(1, 11):
            if (system, seg) in (("B", 3), ("C", 3), ("C", 9)):
                continue
            rows.append(f"{system}\t{seg}\t{rng.uniform(-1, 1) if seg != 4 else 'None'}")
    (tmp_path / "da.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    record = run_experiment(str(_table_config(tmp_path, SEGMENTS))).record
    judged = {s["system"]: s["judged"] for s in record["judgements"][0]["systems"]}
    assert judged == {"A": 9, "B": 8, "C": 7, "H": 9}
    assert record["judgements"][0]["missing"] == 4
    table = record["meta_evaluation"]["tables"][0]
    assert table["systems"] == ["A", "B", "C"] and table["excluded"] == ["H"]
    item = _stat(record, "segment", "item", "tau_b")
    # segment 4 is judged nowhere and segment 3 by A alone: no pair in either
    assert item["items"] == 9 + 8 + 7 and item["segments"] == 8
    with_human = run_experiment(str(_table_config(tmp_path, SEGMENTS,
                                                  "  include_human: true"))).record
    assert with_human["meta_evaluation"]["tables"][0]["systems"] == ["A", "B", "C", "H"]


def test_judgements_must_match_the_test_set(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _lines(tmp_path)
    (tmp_path / "da.tsv").write_text("system\tsegment\tscore\nA.2\t1\t0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match="judged system 'A.2' is not a system of test set "
                                         "'lines'.*names: {A.2: ...}"):
        run_experiment(str(_table_config(tmp_path, SEGMENTS)), store=False)
    (tmp_path / "da.tsv").write_text("system\tsegment\tscore\nB\t11\t0.5\n", encoding="utf-8")
    with pytest.raises(InputError, match="segment 11 of system 'B' is not a segment of test "
                                         r"set 'lines' \(lines 1-10\)"):
        run_experiment(str(_table_config(tmp_path, SEGMENTS)), store=False)


def test_a_system_table_gives_system_level_statistics_only(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.chdir(tmp_path)
    _lines(tmp_path)
    (tmp_path / "rank.txt").write_text("70 0.3 A.1\n60 0.1 B\n65 -0.2 C\n71 0.5 H\n",
                                       encoding="utf-8")
    human = """      da:
        format: systems
        file: rank.txt
        delimiter: whitespace
        header: false
        system: 3
        score: 2
        names: {A.1: A}
"""
    record = run_experiment(str(_table_config(tmp_path, human))).record
    table = record["meta_evaluation"]["tables"][0]
    assert table["human_level"] == "system"
    assert {s["level"] for s in table["statistics"]} == {"system"}
    assert [h["system"] for h in table["human_scores"]] == ["A", "B", "C", "H"]
    assert [h["used"] for h in table["human_scores"]] == [True, True, True, False]
    accuracy = _stat(record, "system", None, "accuracy")
    assert accuracy["items"] == 3 and all("lower" in m for m in accuracy["metrics"])


@pytest.mark.parametrize(("edit", "message"), [
    (lambda c: c.replace("mqm: {file: mqm.tsv, reference: ref}",
                         "mqm: {file: mqm.tsv, reference: ref}\n    references: [x.txt]"),
     "takes its texts from its MQM file (mqm); remove references"),
    (lambda c: c.replace("reference: ref}", "reference: rfe}"),
     "mqm.tsv (did you mean 'ref'?); its systems are: ref"),
    (lambda c: c.replace("  human: mqm\n", "  human: mqn\n"),
     "no test set has judgements 'mqn' (did you mean 'mqm'?)"),
    (lambda c: c.replace("metrics: [bleu, chrf]", "metrics: [bleu, chrg]"),
     "meta_evaluation.metrics: 'chrg' is not a metric with a corpus level (did you mean "
     "'chrf'?)"),
    (lambda c: c.replace("metrics: [bleu, chrf]", "metrics: [bleu, mqm]"),
     "meta_evaluation.metrics: 'mqm' is not a metric with a corpus level"),
    (lambda c: c.replace("judgements: mqm}", "judgements: mqm, level: [corpus, sentence]}"),
     "metric 'mqm' (human judgements) has no sentence level"),
])
def test_config_mistakes_are_named(project: Any, edit: Any, message: str) -> None:
    folder, _ = project
    path = _config(folder)
    path.write_text(edit(path.read_text()), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        run_experiment(str(path), store=False)
    assert message in str(err.value)


def test_segments_a_check_excludes_leave_the_meta_evaluation_too(project: Any) -> None:
    folder, _ = project
    lines = (folder / "mqm.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    out = []
    for line in lines:
        cells = line.rstrip("\n").split("\t")
        if cells[0] == "alpha" and cells[3] == "2":
            cells[6] = ""  # an empty output: the check 'empty' flags it
        out.append("\t".join(cells) + "\n")
    (folder / "mqm.tsv").write_text("".join(out), encoding="utf-8")
    config = _config(folder).read_text().replace("reports:", "checks: [empty]\n"
                                                 "on_flag: exclude\nreports:")
    (folder / "meta.yaml").write_text(config, encoding="utf-8")
    record = run_experiment(str(folder / "meta.yaml")).record
    item = _stat(record, "segment", "item", "acc_eq")
    assert (item["items"], item["segments"]) == (13 * 4, 13)
    ungrouped = _stat(record, "segment", "none", "tau_b")
    assert ungrouped["items"] == 52
    table = record["meta_evaluation"]["tables"][0]
    human = {h["system"]: h["score"] for h in table["human_scores"]}
    mqm = {r["system"]: r["score"] for r in record["results"] if r["metric"] == "mqm"}
    assert all(human[s] == pytest.approx(mqm[s], abs=1e-12) for s in mqm)
