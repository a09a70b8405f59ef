"""Labels for papers: a metric entry's ``label`` (``chrF++``) and ``system_labels`` are what
every table shows, while names stay the identifiers; a table of one test set leaves out the
systems that test set does not have; and a metric entry named after another registered metric
never computes something else under its name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalfw.cli.main import main

SAMPLE = Path(__file__).resolve().parents[2] / "configs" / "sample" / "en-de"

CONFIG = f"""\
schema_version: 1
experiment: lab
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [{SAMPLE / 'ref.A.txt'}]
    systems: {{Weak: {SAMPLE / 'sys' / 'Weak.txt'}, Strong: {SAMPLE / 'sys' / 'Strong.txt'}}}
  - name: u
    langs: en-de
    references: [{SAMPLE / 'ref.B.txt'}]
    systems: {{Medium: {SAMPLE / 'sys' / 'Medium.txt'}, Strong: {SAMPLE / 'sys' / 'Strong.txt'}}}
METRICS
reports: [table, markdown, latex, html]
"""

LABELLED = """\
system_labels: {Strong: "Strong (ours)"}
metrics:
  - name: chrfpp
    label: chrF++
    metric: chrf
    word_order: 2
  - name: bleu
    label: BLEU
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def write(project: Path, metrics: str) -> None:
    (project / "c.yaml").write_text(CONFIG.replace("METRICS", metrics), "utf-8")


def test_a_label_is_what_every_table_shows(project, capsys):
    write(project, LABELLED)
    assert main(["run", "c.yaml", "--quiet"]) == 0
    table = capsys.readouterr().out
    assert "chrF++" in table and "chrfpp" not in table.split("Signatures:")[0]
    assert "Strong (ours)" in table and "BLEU" in table
    (version,) = (project / "runs" / "lab").iterdir()
    assert "chrF++" in (version / "report-markdown.md").read_text("utf-8")
    assert "Strong (ours)" in (version / "report-latex.tex").read_text("utf-8")
    html = (version / "report-html.html").read_text("utf-8")
    assert "chrF++" in html and "Strong (ours)" in html
    record = json.loads((version / "record.json").read_text("utf-8"))
    assert [m.get("label") for m in record["metrics"]] == ["chrF++", "BLEU"]
    assert {s["name"]: s.get("label") for t in record["test_sets"] for s in t["systems"]} == \
        {"Weak": None, "Strong": "Strong (ours)", "Medium": None}
    # names stay the identifiers
    assert main(["show", "lab", "--metric", "chrfpp"]) == 0
    assert "chrF++" in capsys.readouterr().out
    assert main(["verify", "lab"]) == 0


def test_a_name_that_is_not_a_name_points_at_label(project, capsys):
    write(project, "metrics:\n  - name: chrF++\n    metric: chrf\n    word_order: 2\n")
    assert main(["validate", "c.yaml"]) == 2
    err = capsys.readouterr().err
    assert "metrics[0].name" in err and "label:" in err


def test_labels_are_checked(project, capsys):
    write(project, "system_labels: {Strnog: S}\nmetrics:\n  - name: bleu\n")
    assert main(["validate", "c.yaml"]) == 2
    assert "did you mean 'Strong'" in capsys.readouterr().err
    write(project, "metrics:\n  - name: a\n    label: X\n  - name: b\n    label: X\n")
    assert main(["validate", "c.yaml"]) == 2
    assert "own label" in capsys.readouterr().err
    write(project, 'metrics:\n  - name: a\n    label: "X\\u202eY"\n')
    assert main(["validate", "c.yaml"]) == 2
    assert "U+202E" in capsys.readouterr().err


def test_a_test_sets_table_leaves_out_systems_it_does_not_have(project, capsys):
    write(project, "metrics:\n  - name: bleu\n  - name: chrf\n    metric: chrf\n")
    assert main(["run", "c.yaml", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["show", "lab", "--width", "24"]) == 0  # one block per test set
    out = capsys.readouterr().out
    blocks = out.split("Signatures:")[0].split("\n\n")[1:]
    by_set = {}
    for block in blocks:
        lines = block.strip().splitlines()
        if len(lines) > 2 and lines[0].split() and lines[1].startswith("system"):
            by_set[lines[0].split()[0]] = [line.split()[0] for line in lines[3:]]
    assert by_set == {"t": ["Weak", "Strong"], "u": ["Strong", "Medium"]}, out
    assert not any(line.split()[1:] and set(line.split()[1:]) == {"-"}
                   for line in out.splitlines())


@pytest.mark.parametrize("entry, computes", [
    ("  - name: chrf\n", "bleu"),
    ("  - name: ter\n    metric: chrf\n", "chrf"),
])
def test_a_name_of_another_registered_metric_is_refused(project, capsys, entry, computes):
    write(project, "metrics:\n" + entry)
    for command in ("validate", "run"):
        assert main([command, "c.yaml"]) == 2
        err = capsys.readouterr().err
        own = entry.split("name: ")[1].split()[0]
        assert f"'{own}' is the name of the registered metric '{own}', but this entry " \
            f"computes '{computes}'" in err and f"add `metric: {own}`" in err, err


def test_a_name_that_is_its_own_metric_is_fine(project):
    write(project, "metrics:\n  - name: chrf\n    metric: chrf\n  - name: bleu\n")
    assert main(["validate", "c.yaml"]) == 0
