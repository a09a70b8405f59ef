"""A metric written only for the test suite (``tests/support/metric_plugins/unigram.py``) goes
through everything evalfw does with a metric: ``score`` (text, JSON, paired tests), ``run``
with significance, buckets and exports, ``show`` in every format, ``verify``, ``compare`` and
the HTML report. ``unigram-error`` is lower-is-better, so every "better"/"worse" flips."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.errors import RegressionDetected
from evalfw.host.host import PluginHost
from evalfw.records.load import open_run
from evalfw.runner.compare import check, compare_runs
from evalfw.runner.verify import verify

REPO = Path(__file__).resolve().parents[2]
PLUGINS = REPO / "tests" / "support" / "metric_plugins"
SAMPLE = REPO / "configs" / "sample" / "en-de"
SYSTEMS = ("Medium", "Strong", "Weak")


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1]


def f1(hyps: list[str], refs: list[list[str]]) -> float:
    """Unigram F1 computed here, independently of the plugin."""
    m = h = r = 0
    for i, hyp in enumerate(hyps):
        words = Counter(hyp.split())
        best = (-1, 0, 0)
        for stream in refs:
            ref = Counter(stream[i].split())
            matched = sum(min(n, ref[w]) for w, n in words.items())
            if matched > best[0]:
                best = (matched, sum(words.values()), sum(ref.values()))
        m, h, r = m + best[0], h + best[1], r + best[2]
    return 100.0 * 2 * m / (h + r)


REFS = [lines(SAMPLE / "ref.A.txt"), lines(SAMPLE / "ref.B.txt")]
HYPS = {name: lines(SAMPLE / "sys" / f"{name}.txt") for name in SYSTEMS}

CONFIG = """\
schema_version: 1
experiment: {name}
seed: 11
output_dir: runs
plugin_dirs: [{plugins}]
test_sets:
  - name: en-de
    langs: en-de
    source: data/src.txt
    references: [data/ref.A.txt, data/ref.B.txt]
    systems: {{"*": "data/sys/*.txt"}}
metrics:
  - name: error
    metric: unigram-error
  - name: f1
    metric: unigram-f1
    level: [corpus, sentence]
  - name: bleu
reports: [table, markdown, html]
significance:
  baseline: Medium
  method: both
  samples: 200
  ar_trials: 300
  buckets: {{name: ref-length, edges: [8, 12]}}
  sentence_export: [csv, jsonl]
  worst_segments: 2
  drilldown_metric: error
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(CONFIG.format(name="plug", plugins=PLUGINS), "utf-8")
    return tmp_path


def test_score_text_json_and_paired(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Strong.txt")
    args = ["score", "-r", ref, "-i", hyp, "-m", "unigram-f1", "--plugins-dir", str(PLUGINS)]
    assert main(args) == 0
    want = f1(HYPS["Strong"], REFS[:1])
    assert capsys.readouterr().out == \
        f"unigram-f1|nrefs:1|tok:whitespace|unigram-f1:1 = {want:.1f}\n"
    assert main([*args, "-f", "json"]) == 0
    (obj,) = json.loads(capsys.readouterr().out)
    assert obj["score"] == want and obj["metric"] == "unigram-f1" and obj["name"] == hyp
    assert main([*args[:-4], "-m", "bleu", "unigram-error", "--plugins-dir", str(PLUGINS)]) == 0
    out = capsys.readouterr().out.splitlines()
    # sacreBLEU's layout: metrics by upper-case name, aligned at "="
    assert out[0].startswith("BLEU|nrefs:1|") and out[1].endswith(
        f" unigram-error|nrefs:1|tok:whitespace|unigram-error:1 = {100 - want:.1f}")
    assert out[0].index("=") == out[1].index("=")
    weak = str(SAMPLE / "sys" / "Weak.txt")
    assert main([*args[:4], weak, hyp, "-m", "unigram-f1", "--plugins-dir", str(PLUGINS),
                 "--paired-bs", "--paired-bs-n", "100"]) == 0
    table = capsys.readouterr().out
    assert "unigram-f1 (μ ± 95% CI)" in table and "(p = 0.0099)*" in table


def test_run_show_verify_and_the_direction(project: Path, capsys) -> None:
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    table = capsys.readouterr().out
    stored = open_run("plug", Path("runs"))
    record = stored.record
    scores = {(r["system"], r["metric"], r["level"]): r["score"] for r in record["results"]}
    for name in SYSTEMS:
        want = f1(HYPS[name], REFS)
        assert scores[(name, "f1", "corpus")] == want
        assert scores[(name, "error", "corpus")] == 100.0 - want
    assert [m["higher_is_better"] for m in record["metrics"]] == [False, True, True]
    tables = {t["metric"]: t for t in record["significance"]["tables"]}
    assert set(tables) == {"error", "f1", "bleu"}
    for label in ("error", "f1"):
        assert [b["label"] for b in tables[label]["buckets"]["results"]] == ["<8", "8-11", "12+"]
    # Strong has the higher F1 and the lower error: better under both, marked † in both (by
    # the primary test: the config asks for method: both); the other test agrees, unmarked
    rows = {line.split()[0]: line for line in table.splitlines() if line.split()[:1] in
            (["Strong"], ["Weak"])}
    assert rows["Strong"].count("†") == 3 and rows["Weak"].count("‡") == 3
    for t in tables.values():
        assert {c["system"]: c["delta"] > 0 for c in t["comparisons"]
                if c["method"] == "ar" and c["p_adjusted"] <= 0.05} == \
            ({"Strong": False, "Weak": True} if t["metric"] == "error" else
             {"Strong": True, "Weak": False})
    # the worst segments of a lower-is-better metric are where the error grew
    (item,) = record["significance"]["drilldown"]
    assert item["metric"] == "error"
    for system in item["systems"]:
        assert all(seg["delta"] > 0 for seg in system["segments"])
    exports = (stored.path / "sentences.jsonl").read_text("utf-8").splitlines()
    f1_rows = [json.loads(x) for x in exports if '"metric": "f1"' in x]
    assert len(f1_rows) == 3 * 40 and "bp" not in f1_rows[0]
    for fmt in ("table", "markdown", "latex", "csv", "json", "html"):
        assert main(["show", "plug", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "error" in out and "f1" in out
    html = (stored.path / "report-html.html").read_text("utf-8")
    assert 'class="better"' in html and "unigram-error:1" in html
    # verify loads the record's plugin directory only when the user names it
    refused = verify("plug", Path("runs"))
    # not a difference: the record cannot be verified without that code (exit status 2)
    assert not refused.ok and not refused.problems
    assert f"pass --plugins-dir {PLUGINS}" in refused.unverifiable[0]
    assert main(["verify", "plug"]) == 2
    assert "--plugins-dir" in capsys.readouterr().out
    verdict = verify("plug", Path("runs"),
                     host=PluginHost.create(autoload=False, plugin_dirs=[PLUGINS]))
    assert verdict.ok, verdict.problems
    assert verdict.compared == 3 * 4
    assert main(["verify", "plug", "--plugins-dir", str(PLUGINS)]) == 0


def test_compare_flags_a_regression_in_the_metrics_direction(project: Path, capsys) -> None:
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    first = open_run("plug", Path("runs"))
    weak = lines(project / "data" / "sys" / "Weak.txt")
    (project / "data" / "sys" / "Strong.txt").write_text("\n".join(weak) + "\n", "utf-8")
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    capsys.readouterr()
    second = open_run("plug", Path("runs"))
    result = compare_runs(first, second, _host(), metric="error", samples=200, seed=3)
    strong = next(r for r in result.rows if r["system"] == "Strong")
    assert strong["delta"] > 0 and strong["verdict"] == "regression"  # the error grew
    assert strong["higher_is_better"] is False
    with pytest.raises(RegressionDetected, match="error/Strong"):
        check(result)
    better = compare_runs(second, first, _host(), metric="error", samples=200, seed=3)
    assert next(r for r in better.rows if r["system"] == "Strong")["verdict"] == "improvement"


def _host():  # type: ignore[no-untyped-def]
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False, plugin_dirs=[PLUGINS])
