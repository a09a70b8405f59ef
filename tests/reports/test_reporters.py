"""Report writers: rendered from the record alone, each format checked by parsing it back."""

from __future__ import annotations

import copy
import csv
import io
import json
import re

import pytest

from evalfw.records.document import validate_record
from tests.support.runs import run, workdir  # noqa: F401  (fixture)

FORMATS = ("table", "json", "csv", "markdown", "latex")


@pytest.fixture
def record(workdir):
    return run().record


def render(host, name, record, **options):
    return host.component("reporter", name, options).render(record)


def awkward(record: dict) -> dict:
    """Names with characters each format must escape, and a system missing from one metric."""
    rec = copy.deepcopy(record)
    for r in rec["results"]:
        r["system"] = {"Strong": "A_&_B|100%", "Weak": "x{y}~z"}.get(r["system"], r["system"])
    rec["results"] = [r for r in rec["results"]
                      if not (r["system"] == "Medium" and r["metric"] == "nltk")]
    return rec


def test_reporters_are_plugins(host):
    assert set(FORMATS) <= set(host.registry("reporter").names())
    for name in FORMATS:
        entry = host.registry("reporter").entry(name)
        assert entry.plugin.name == "evalfw.reports.plugin" and entry.cls.extension


def test_table_rows_are_systems_and_columns_align(host, record):
    text = render(host, "table", record)
    lines = text.splitlines()
    assert lines[0].startswith(f"wmt {record['version']}")
    header, dashes = lines[3], lines[4]
    assert header.split()[0] == "system" and set(dashes.replace(" ", "")) == {"-"}
    rows = lines[5:8]
    assert [r.split()[0] for r in rows] == ["Medium", "Strong", "Weak"]
    # every value ends exactly where its column's dashes end (right-aligned)
    ends = [m.end() for m in re.finditer(r"-+", dashes)]
    for row in rows:
        assert [m.end() for m in re.finditer(r"\S+", row)][1:] == ends[1:]
    strong = {(r["metric"], r["level"]): r["score"] for r in record["results"]
              if r["system"] == "Strong"}
    cells = rows[1].split()[1:]
    assert cells[0] == f"{strong[('sacrebleu', 'corpus')]:.2f}"
    assert cells[3] == f"{strong[('nltk', 'corpus')]:.4f}"  # 0-1 scale: four places
    assert "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0" in text
    three = render(host, "table", record, decimals=3).splitlines()[6].split()[1]
    assert three == f"{strong[('sacrebleu', 'corpus')]:.3f}"


def test_csv_keeps_full_precision(host, record):
    rows = list(csv.DictReader(io.StringIO(render(host, "csv", record))))
    assert len(rows) == len(record["results"])
    for row, res in zip(rows, record["results"]):
        assert float(row["score"]) == res["score"]
        if res["level"] == "corpus" and "precisions" in res:  # BLEU's (chrF has none)
            assert [float(p) for p in row["precisions"].split()] == res["precisions"]
            assert int(row["ref_len"]) == res["ref_len"]


def test_json_round_trips(host, record):
    data = json.loads(render(host, "json", record))
    assert data["results"] == record["results"] and data["specs"] == record["specs"]


def test_markdown_table_shape_and_escaping(host, record):
    lines = render(host, "markdown", awkward(record)).split("\n\n")[0].splitlines()
    assert lines[1] == "|:---|" + "---:|" * 6  # 5 BLEU columns and chrf
    assert len(lines) == 2 + 3
    cells = [re.split(r"(?<!\\)\|", line)[1:-1] for line in lines]
    assert all(len(c) == 7 for c in cells)
    assert any(c[0].strip() == r"A\_&amp;\_B\|100%" for c in cells)  # HTML and Markdown
    medium = next(c for c in cells if c[0].strip() == "Medium")
    assert medium[4].strip() == "-"  # the missing cell


def test_latex_is_booktabs_and_escaped(host, record):
    text = render(host, "latex", awkward(record))
    assert text.startswith("\\begin{table}[t]\n\\centering\n\\begin{tabular}{lrrrrrr}\n"
                           "\\toprule\n")
    assert "\\multicolumn{6}{c}{en-de}" in text and "\\cmidrule(lr){2-7}" in text
    assert "\\midrule" in text and "\\bottomrule\n\\end{tabular}\n\\caption{Results of " in text
    assert text.rstrip().endswith("}\n\\end{table}")
    assert r"A\_\&\_B|100\%" in text and r"x\{y\}\textasciitilde{}z" in text
    body = text.split("\\midrule\n")[1].split("\\bottomrule")[0].splitlines()
    assert all(len(re.findall(r"(?<!\\)&", line)) == 6 and line.endswith("\\\\")
               for line in body)


def test_latex_groups_columns_by_test_set(host, record):
    rec = copy.deepcopy(record)
    extra = [dict(r, test_set="de-en") for r in rec["results"] if r["metric"] == "sacrebleu"]
    rec["results"] += extra
    text = render(host, "latex", rec)
    assert "\\multicolumn{6}{c}{en-de} & \\multicolumn{1}{c}{de-en}" in text
    assert "\\cmidrule(lr){2-7} \\cmidrule(lr){8-8}" in text


@pytest.mark.parametrize("name", FORMATS)
def test_every_reporter_renders_from_the_record_alone(host, record, name):
    validate_record(record)
    frozen = json.loads(json.dumps(record))
    text = render(host, name, frozen)
    assert text.endswith("\n") and frozen == record  # reporters do not mutate the record
