"""Output checks in a run: what the record keeps, the reports show, the cache returns, verify
re-proves, plugin checks may and may not do, and what ``on_flag`` does to the conclusions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evalfw.cli.main import main
from evalfw.errors import ConfigError, EvalfwError, PluginError
from evalfw.runner.run import run_experiment
from evalfw.runner.verify import verify

SRC = [f"The shop on corner {i} opened in 19{i:02d} and sells bread, milk and cheese."
       for i in range(30)]
REF = [f"Der Laden an der Ecke {i} öffnete 19{i:02d} und verkauft Brot, Milch und Käse."
       for i in range(30)]


def project(tmp_path: Path, extra: str = "", b_lines: dict[int, str] | None = None) -> Path:
    """Source, reference, system A (the reference) and system B (the reference with some lines
    replaced), and a config ``c.yaml`` (``extra`` added at the top level)."""
    b = list(REF)
    for i, text in (b_lines if b_lines is not None else {2: "", 5: SRC[5]}).items():
        b[i] = text
    for name, lines in (("src", SRC), ("ref", REF), ("a", REF), ("b", b)):
        (tmp_path / f"{name}.txt").write_text("".join(f"{x}\n" for x in lines), "utf-8")
    (tmp_path / "c.yaml").write_text(f"""\
schema_version: 1
experiment: checked
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    source: src.txt
    references: [ref.txt]
    systems: {{A: a.txt, B: b.txt}}
metrics:
  - {{name: bleu, level: [corpus, sentence]}}
  - {{name: chrf, metric: chrf}}
reports: [table, csv, markdown]
{extra}""", "utf-8")
    return tmp_path / "c.yaml"


def flags(record: dict, system: str) -> dict[str, list[int]]:
    entry = record["checks"]["test_sets"][0]
    return next(s["flags"] for s in entry["systems"] if s["system"] == system)


def test_default_checks_flag_and_reports_show_them(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    out = run_experiment(project(tmp_path))
    checks = out.record["checks"]
    assert checks["on_flag"] == "keep"
    assert [d["name"] for d in checks["definitions"]] == [
        "empty", "copy-source", "length", "repetition", "numbers"]
    assert flags(out.record, "B") == {"empty": [3], "copy-source": [6], "length": [],
                                      "repetition": [], "numbers": []}
    assert not any(flags(out.record, "A").values())
    assert out.record["config"]["resolved"]["checks"] == [d["name"] for d in
                                                          checks["definitions"]]
    example = next(e for e in checks["test_sets"][0]["examples"] if e["line"] == 6)
    assert example == {"line": 6, "source": SRC[5], "references": [REF[5]],
                       "outputs": {"B": SRC[5]}}
    table = (out.path / "report-table.txt").read_text("utf-8")
    assert "  t  B: 1 empty, 1 copied from the source (6.7 %)" in table
    assert "(on_flag: keep)" in table
    csv = (out.path / "report-csv.csv").read_text("utf-8").splitlines()
    assert csv[0].endswith(",flagged,flagged_lines")
    assert any(line.startswith("t,B,bleu,corpus,") and line.endswith(",2,empty 3; copy-source 6")
               for line in csv)
    assert "| t | B | 1 empty, 1 copied from the source (6.7 %) |" in \
        (out.path / "report-markdown.md").read_text("utf-8")


def test_checks_none_runs_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run_experiment(project(tmp_path, "checks: none\n"))
    assert out.record["checks"] == {"on_flag": "keep", "definitions": [], "test_sets": []}


def test_check_options_are_validated_and_recorded(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, "checks: [empty, {name: length, threshold: 2}]\n")
    out = run_experiment(config)
    assert out.record["checks"]["definitions"][1]["options"] == {"threshold": 2,
                                                                 "min_chars": 20}
    config.write_text(config.read_text().replace("threshold: 2", "treshold: 2"))
    assert main(["run", str(config), "--quiet"]) == 2
    assert "treshold" in capsys.readouterr().err
    config.write_text(config.read_text().replace("{name: length, treshold: 2}", "empty"))
    assert main(["run", str(config), "--quiet"]) == 2
    assert "check 'empty' is listed twice" in capsys.readouterr().err
    config.write_text(config.read_text().replace("[empty, empty]", "[emty]"))
    assert main(["run", str(config), "--quiet"]) == 2
    assert "did you mean 'empty'" in capsys.readouterr().err


def test_a_re_run_reads_the_flags_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    config = project(tmp_path)
    first = run_experiment(config)
    calls = []
    from evalfw.checks.builtin import Empty

    original = Empty.flag
    monkeypatch.setattr(Empty, "flag", lambda self, s: calls.append(1) or original(self, s))
    second = run_experiment(config)
    assert calls == [] and second.record["checks"] == first.record["checks"]
    # a damaged entry (a line out of range, its checksum kept right) is recomputed
    from evalfw.runner.cache import checksum

    for path in (tmp_path / "cache").rglob("*.npz"):
        with np.load(path) as data:
            stats = data["statistics"]
        if stats.ndim == 1:
            bad = np.array([999], dtype=np.int64)
            np.savez(path, statistics=bad, sha256=np.array(checksum(bad)))
    third = run_experiment(config)
    assert len(calls) == 2 and third.record["checks"] == first.record["checks"]
    assert any("not valid for check" in note for note in third.evaluation.cache_notes)


def test_verify_re_proves_the_flags(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run_experiment(project(tmp_path))
    assert verify(str(out.path)).ok
    path = out.path / "record.json"
    record = json.loads(path.read_text("utf-8"))
    record["checks"]["test_sets"][0]["systems"][1]["flags"]["empty"] = [3, 4]
    path.write_text(json.dumps(record), "utf-8")
    verdict = verify(str(out.path))
    assert not verdict.ok
    assert any("t / B / empty: flagged lines differ; flagged now" not in p
               and "t / B / empty: flagged lines differ; no longer flagged: 4" in p
               for p in verdict.problems), verdict.problems


PLUGIN = '''
import evalfw

class Odd(evalfw.Check):
    name = "{name}"
    def flag(self, segments):
        return {answer}

@evalfw.hookimpl
def evalfw_register_checks():
    return [Odd]
'''


@pytest.mark.parametrize("answer, words", [
    ("[i % 2 == 1 for i in range(len(segments))]", None),
    ("[True]", "returned 1 values for 30 segments"),
    ("[1] * len(segments)", "returned int 1 for segment 1"),
    ("'yes'", "returned a str, not a list of booleans"),
    ("1 / 0", "flag raised ZeroDivisionError"),
])
def test_a_plugin_check_is_checked_where_its_answer_enters(tmp_path, monkeypatch, answer, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "odd.py").write_text(PLUGIN.format(name="odd", answer=answer))
    config = project(tmp_path, "plugin_dirs: [plugins]\nchecks: [odd]\n")
    if words is None:
        out = run_experiment(config)
        assert flags(out.record, "A") == {"odd": list(range(2, 31, 2))}
        return
    with pytest.raises(PluginError) as err:
        run_experiment(config)
    assert words in str(err.value) and "plugin 'odd'" in str(err.value)


def test_a_check_name_provided_twice_names_both_providers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mine.py").write_text(PLUGIN.format(name="empty", answer="[]"))
    with pytest.raises(EvalfwError) as err:
        run_experiment(project(tmp_path, "plugin_dirs: [plugins]\n"))
    assert "check 'empty' is provided by both plugin 'evalfw.checks.plugin'" in str(err.value)
    assert "mine.py" in str(err.value)


def test_a_check_that_cannot_run_here_is_an_error(tmp_path, monkeypatch, capsys):
    from evalfw.checks.language import Language

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Language, "unavailable", lambda self: "it needs py3langid, which is "
                        "not installed: pip install 'evalfw[langid]'")
    config = project(tmp_path, "checks: [empty, language]\n")
    assert main(["run", str(config), "--quiet"]) == 2
    assert "check 'language' cannot run here: it needs py3langid" in capsys.readouterr().err


def test_penalise_scores_flagged_segments_as_the_worst(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    keep = run_experiment(project(tmp_path)).record
    penalised = run_experiment(project(tmp_path, "on_flag: penalise\n"))
    pen = penalised.record

    def score(record, system, metric, level="corpus"):
        return next(r for r in record["results"] if (r["system"], r["metric"], r["level"])
                    == (system, metric, level))

    for metric in ("bleu", "chrf"):
        assert score(pen, "A", metric)["score"] == score(keep, "A", metric)["score"]
        assert score(pen, "B", metric)["score"] < score(keep, "B", metric)["score"]
    sentence = score(pen, "B", "bleu", "sentence")
    assert sentence["min"] == 0.0 and sentence["n"] == 30
    # the copied line scored 0 under penalise (its own score was above 0)
    kept = score(keep, "B", "bleu", "sentence")
    assert sentence["score"] < kept["score"]
    assert "each flagged segment is scored as the metric's worst value" in \
        (penalised.path / "report-table.txt").read_text("utf-8")
    assert verify(str(penalised.path)).ok


def test_exclude_drops_segments_flagged_in_any_system_from_every_system(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run_experiment(project(tmp_path, "on_flag: exclude\nsignificance: {baseline: A, "
                                           "samples: 50, buckets: false}\n"))
    entry = out.record["checks"]["test_sets"][0]
    assert entry["excluded"] == [3, 6]
    # the scores are those of the 28 other segments, for A too
    from evalfw.api import corpus_score

    kept = [i for i in range(30) if i not in (2, 5)]
    want = corpus_score([REF[i] for i in kept], [[REF[i] for i in kept]], "bleu").score
    got = {r["system"]: r for r in out.record["results"]
           if (r["metric"], r["level"]) == ("bleu", "corpus")}
    assert got["A"]["score"] == want
    b = list(REF)
    b[2], b[5] = "", SRC[5]
    assert got["B"]["score"] == want  # B equals the reference on every kept line
    sentence = next(r for r in out.record["results"]
                    if (r["system"], r["metric"], r["level"]) == ("B", "bleu", "sentence"))
    assert sentence["n"] == 28
    table = (out.path / "report-table.txt").read_text("utf-8")
    assert "left out: t 2 of 30" in table
    assert verify(str(out.path)).ok


def test_penalise_needs_metrics_that_say_what_their_worst_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scores.txt").write_text("".join(f"{i / 30}\n" for i in range(30)))
    config = project(tmp_path, "on_flag: penalise\n")
    text = config.read_text().replace(
        "    systems: {A: a.txt, B: b.txt}\n",
        "    systems: {A: a.txt, B: b.txt}\n"
        "    segment_scores: {given: {files: {A: scores.txt, B: scores.txt}}}\n").replace(
        "  - {name: chrf, metric: chrf}\n",
        "  - {name: chrf, metric: chrf}\n  - {name: given, metric: segment-scores, "
        "scores: given}\n")
    config.write_text(text)
    with pytest.raises(ConfigError) as err:
        run_experiment(config)
    assert "metric 'given' (segment-scores) declares none" in str(err.value)


@pytest.mark.parametrize("on_flag", ["penalise", "exclude"])
def test_compare_applies_each_runs_on_flag(tmp_path, monkeypatch, on_flag):
    from evalfw.records.load import open_run
    from evalfw.runner.compare import compare_runs
    from tests.support.config import make_host

    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, f"on_flag: {on_flag}\n")
    first, second = run_experiment(config), run_experiment(config)
    result = compare_runs(open_run(str(first.path)), open_run(str(second.path)), make_host(),
                          metric="bleu", samples=50)
    rows = {r["system"]: r for r in result.rows}
    recorded = {r["system"]: r["score"] for r in first.record["results"]
                if (r["metric"], r["level"]) == ("bleu", "corpus")}
    assert rows["B"]["score_a"] == recorded["B"] and rows["B"]["delta"] == 0
    # a keep run against an exclude run: tested on the segments the exclude run kept
    keep = run_experiment(project(tmp_path, "")) if on_flag == "exclude" else None
    if keep is not None:
        result = compare_runs(open_run(str(keep.path)), open_run(str(first.path)), make_host(),
                              metric="bleu", samples=50)
        b = next(r for r in result.rows if r["system"] == "B")
        assert b["score_a"] == b["score_b"] == recorded["B"]


def test_to_pandas_carries_the_flags(tmp_path, monkeypatch):
    pytest.importorskip("pandas", reason="to_pandas() needs pandas")
    from evalfw.runner.result import RunResult, load_run

    monkeypatch.chdir(tmp_path)
    result = RunResult(run_experiment(project(tmp_path)))
    df = result.to_pandas()
    b = df[(df.system == "B") & (df.metric == "bleu") & (df.level == "corpus")].iloc[0]
    assert b.flagged == 2 and b.flagged_lines == {"empty": [3], "copy-source": [6]}
    a = df[(df.system == "A") & (df.metric == "bleu")].iloc[0]
    assert a.flagged == 0 and a.flagged_lines == {}
    assert load_run(str(result.path)).to_pandas().equals(df)
