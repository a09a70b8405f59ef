"""chrF entries of configs: the main job's (``configs/wmt.yaml``) and the example
``configs/wmt-chrf.yaml`` give sacreBLEU's chrF/chrF++ scores and its paired-test numbers, go
through buckets, exports, every report, ``verify`` and ``compare``; option mistakes are
reported at ``file:line:col``."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import CHRF
from sacrebleu.significance import PairedTest

from evalfw.cli.main import main
from evalfw.errors import AntiConservativeWarning
from evalfw.records.load import load_segments
from evalfw.runner.verify import verify
from tests.support.runs import REPO, run, workdir  # noqa: F401  (fixture)

pytestmark = pytest.mark.parity

SAMPLE = REPO / "configs" / "sample" / "en-de"


def lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text("utf-8").split("\n")[:-1]


REFS = [lines("ref.A.txt"), lines("ref.B.txt")]
SYSTEMS = ("Medium", "Strong", "Weak")


def test_main_job_chrf_entries_equal_sacrebleu(workdir):  # noqa: F811
    outcome = run()
    record = outcome.record
    by = {(r["system"], r["metric"], r["level"]): r for r in record["results"]}
    for system in SYSTEMS:
        hyps = lines(f"sys/{system}.txt")
        assert by[system, "chrf", "corpus"]["score"] == CHRF().corpus_score(hyps, REFS).score


def test_example_config_runs_everything_with_sacrebleus_numbers(workdir, capsys):  # noqa: F811
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):  # the config's sacreBLEU-mode tests
        outcome = run("configs/wmt-chrf.yaml")
    record = outcome.record
    by = {(r["system"], r["metric"], r["level"]): r for r in record["results"]}
    segments = load_segments(outcome.path, record)
    plus = CHRF(word_order=2)
    for system in SYSTEMS:
        hyps = lines(f"sys/{system}.txt")
        assert by[system, "chrfpp", "corpus"]["score"] == plus.corpus_score(hyps, REFS).score
        sentence = segments[by[system, "chrfpp", "sentence"]["sentence_scores"]].tolist()
        assert sentence == [plus.sentence_score(h, [a, b]).score for h, a, b in zip(hyps, *REFS)]
    for name in ("report-table.txt", "report-markdown.md", "report-html.html",
                 "sentences.csv", "sentences.jsonl"):
        assert (outcome.path / name).is_file()
    named = [(s, lines(f"sys/{s}.txt")) for s in SYSTEMS]
    _, theirs = PairedTest(named, {"chrF": CHRF(references=REFS)}, None, test_type="bs",
                           n_samples=1000)()
    (table,) = [t for t in record["significance"]["tables"]
                if t["metric"] == "chrf" and t.get("bucket") is None]
    comps = {c["system"]: c for c in table["comparisons"] if c["method"] == "bootstrap"}
    for system, result in zip(SYSTEMS[1:], theirs["chrF2"][1:]):
        c = comps[system]
        assert (c["p_value"], c["mean"], c["ci"]) == (result.p_value, float(result.mean),
                                                      float(result.ci))
    assert verify(outcome.path).ok
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):
        run("configs/wmt-chrf.yaml")
    runs = sorted((workdir / "runs" / "wmt-chrf").iterdir())
    assert main(["compare", str(runs[0]), str(runs[1]), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any(row.get("metric") == "chrfpp" for row in out["comparisons"])


@pytest.mark.parametrize("entry, col, message", [
    ("    word_order: -1\n", 17, "metrics[2].word_order: expected a number >= 0"),
    ("    char_ordr: 4\n", 5, "unknown key 'char_ordr' (did you mean 'char_order'"),
    ("    char_order: 0\n    word_order: 0\n", 17, "cannot both be 0"),
])
def test_option_mistakes_name_file_line_col(workdir, capsys, entry, col, message):  # noqa: F811
    text = (workdir / "configs" / "wmt-chrf.yaml").read_text()
    line = text.split("\n").index("    word_order: 2") + 1  # the chrF++ entry's option
    where = f":{line}:{col}:"
    bad = text.replace("    word_order: 2\n", entry, 1)
    (workdir / "configs" / "bad.yaml").write_text(bad)
    assert main(["validate", "configs/bad.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: configs/bad.yaml" + where), err
    assert message in err and err.count("\n") == 1
