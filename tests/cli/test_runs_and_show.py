"""`evalfw runs`: a header, runs on other data told apart, fitted to a width; `evalfw show`
with --test-set/--metric filters and wide tables wrapped to the width."""

from __future__ import annotations

import json
import re

import pytest

from evalfw.cli.main import main
from tests.support.expected_warnings import nltk_zero_order
from tests.support.runs import REPO, run, workdir, write_config  # noqa: F401  (fixture)

pytestmark = pytest.mark.wmt22


def test_runs_on_other_data_differ_in_the_inputs_column(workdir, capsys):
    run()
    weak = workdir / "configs/sample/en-de/sys/Weak.txt"
    weak.write_text(weak.read_text().replace("die", "der"))  # same config, other data
    run()
    assert main(["runs", "wmt", "--runs-dir", "runs", "--width", "200"]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert header.split() == ["RUN", "CREATED", "(UTC)", "CONFIG", "INPUTS", "TEST", "SETS",
                              "HEADLINE"]
    cols = [line.split() for line in lines]
    assert cols[0][3] == cols[1][3]  # the config is the same
    assert cols[0][4] != cols[1][4]  # the data is not
    assert cols[0][5] == "en-de"
    assert main(["runs", "wmt", "--json", "--runs-dir", "runs"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert entries[0]["inputs_sha256"].startswith(cols[0][4])
    assert entries[0]["test_sets"] == ["en-de"]


@pytest.mark.parametrize("width", [60, 80, 100])
def test_runs_fit_the_width(workdir, capsys, monkeypatch, width):
    run()
    run(overrides=("experiment=an-experiment-with-a-rather-long-name",))
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["runs", "--runs-dir", "runs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("RUN") and len(lines) == 3
    assert max(len(x) for x in lines) <= width
    assert lines[2].startswith("wmt/")


def test_runs_refuses_a_second_word(workdir, capsys):
    run()
    with pytest.raises(SystemExit) as exit_:
        main(["runs", "wmt", "extra", "--runs-dir", "runs"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: extra" in capsys.readouterr().err


WIDE = """\
schema_version: 1
experiment: wide
data_root: sample
output_dir: ../runs
test_sets:
{test_sets}
metrics:
  - name: sacrebleu
  - name: bleu-nltk
    preset: nltk
  - name: bleu-addk
    smoothing: {{name: add-k, value: 2}}
  - name: bleu-bigrams
    max_order: 2
  - name: chrf
    metric: chrf
reports: [table]
significance: {{baseline: Medium, samples: 50}}
"""
TEST_SET = """\
  - name: {name}
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
"""


@pytest.fixture
def wide(workdir):
    names = ["newstest-en-de", "wmt22-general", "flores-devtest", "iwslt-tst2017"]
    text = WIDE.format(test_sets="".join(TEST_SET.format(name=n) for n in names))
    return run(str(write_config(workdir / "configs" / "wide.yaml", text)))


@nltk_zero_order  # the wide run's bleu-nltk
def test_four_test_sets_by_five_metrics_fit_the_terminal(wide, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["show", "wide", "--runs-dir", "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(x) for x in out.splitlines()) <= 80
    # every cell is still there, in some block: 4 test sets x 5 metrics x 3 systems
    for r in wide.record["results"]:
        assert f"{r['score']:.2f}" in out or f"{r['score']:.4f}" in out
    assert len(re.findall(r"^system ", out, flags=re.M)) > 1  # wrapped into blocks
    assert main(["show", "wide", "--runs-dir", "runs", "--width", "1000"]) == 0
    assert len(re.findall(r"^system ", capsys.readouterr().out, flags=re.M)) == 1


@nltk_zero_order  # the wide run's bleu-nltk
def test_show_filters_by_test_set_and_metric(wide, capsys):
    assert main(["show", "wide", "--runs-dir", "runs", "--test-set", "flores-devtest",
                 "--metric", "chrf", "--metric", "sacrebleu", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert {tuple(r.split(",")[0:3:2]) for r in rows} == {
        ("flores-devtest", "chrf"), ("flores-devtest", "sacrebleu")}
    assert main(["show", "wide", "--runs-dir", "runs", "--metric", "chrf"]) == 0
    out = capsys.readouterr().out
    assert "sacrebleu" not in out and "newstest-en-de chrf:" in out


@nltk_zero_order  # the wide run's bleu-nltk
@pytest.mark.parametrize("option, value, names", [
    ("--test-set", "flores", "flores-devtest, iwslt-tst2017, newstest-en-de, wmt22-general"),
    ("--metric", "chrF", "sacrebleu, bleu-nltk, bleu-addk, bleu-bigrams, chrf"),
])
def test_show_names_the_valid_choices(wide, capsys, option, value, names):
    assert main(["show", "wide", "--runs-dir", "runs", option, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"evalfw: error: {option} {value}: ") and err.count("\n") == 1
    assert "Traceback" not in err
    for name in names.split(", "):
        assert name in err


def test_runs_headline_follows_the_installed_direction(tmp_path, monkeypatch, capsys):
    """A record that says TER is higher-is-better cannot make `runs` name the worst system
    the best: the headline takes the direction from the installed metric."""
    import json
    import shutil

    from evalfw.cli.main import main
    from tests.support.runs import REPO, write_config

    shutil.copytree(REPO / "configs" / "sample" / "en-de", tmp_path / "data")
    write_config(tmp_path / "ter.yaml", (
        "schema_version: 1\nexperiment: ter\noutput_dir: runs\ntest_sets:\n  - name: t\n"
        "    langs: en-de\n    references: [data/ref.A.txt]\n"
        "    systems: {\"*\": \"data/sys/*.txt\"}\nmetrics:\n  - {name: ter, metric: ter}\n"))
    monkeypatch.chdir(tmp_path)
    assert main(["run", "ter.yaml", "--quiet"]) == 0
    version = next((tmp_path / "runs" / "ter").iterdir())
    record = json.loads((version / "record.json").read_text("utf-8"))
    corpus = [r for r in record["results"] if r["level"] == "corpus"]
    lowest = min(corpus, key=lambda r: r["score"])["system"]
    highest = max(corpus, key=lambda r: r["score"])["system"]
    assert lowest != highest
    capsys.readouterr()

    def best() -> str:
        assert main(["runs", "--runs-dir", "runs", "--format", "json"]) == 0
        return json.loads(capsys.readouterr().out)[0]["headline"][0]["best_system"]

    assert best() == lowest
    record["metrics"][0]["higher_is_better"] = True  # edited: TER as if higher were better
    (version / "record.json").write_text(json.dumps(record), "utf-8")
    assert best() == lowest
