"""A run stored by evalfw with record schema 1 (``fixtures/record-v1``: its config, data and
version directory, written before metrics were plugins) still loads, shows, verifies and
compares; nothing in the fixture is written to."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.records.load import load_record, open_run
from tests.support.expected_warnings import nltk_zero_order
from tests.support.pythons import PLAIN_SUM, check_verified_here

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "record-v1"
VERSION = FIXTURE / "runs" / "legacy" / "20261125T042158Z-001"


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture, so that nothing a command might write lands in the repository."""
    shutil.copytree(FIXTURE, tmp_path / "v1")
    monkeypatch.chdir(tmp_path / "v1")
    return tmp_path / "v1" / "runs" / "legacy" / VERSION.name


def test_it_is_a_schema_1_record() -> None:
    raw = json.loads((VERSION / "record.json").read_text("utf-8"))
    assert raw["schema_version"] == 1 and raw["segments"]["format"] == "npz-1"
    assert "components" in raw["specs"][0] and "preset" in raw["metrics"][0]


def test_loads_in_the_current_shape() -> None:
    record = load_record(VERSION)
    assert [m["metric"] for m in record["metrics"]] == ["bleu", "bleu", "bleu"]
    assert all(m["higher_is_better"] for m in record["metrics"])
    definition = record["specs"][0]["definition"]
    assert definition["name"] == "bleu" and "counter" in definition["options"]
    assert "precision" not in definition["options"]
    assert record["environment"]["implementations"]["bleu"]


def test_show_renders_what_the_run_rendered(stored: Path, capsys) -> None:
    # the run used method: both; tables show the primary test's marker (the bootstrap: it ran
    # first) and a p-value for each test; the stored reports predate that, so their title,
    # scores and signatures are what must match
    assert main(["show", str(stored), "--format", "html"]) == 0
    page = capsys.readouterr().out
    cells = re.findall(r'data-score="[^"]+"', (stored / "report-html.html").read_text("utf-8"))
    assert cells and all(c in page for c in cells)
    assert '<span class="mark">†</span>' in page and "†/" not in page
    assert main(["show", str(stored), "--format", "table"]) == 0
    out = capsys.readouterr().out
    old = (stored / "report-table.txt").read_text("utf-8")
    assert out.splitlines()[0] == old.splitlines()[0]
    for number in re.findall(r"\d+\.\d+ ±\d+\.\d+|\b\d+\.\d{4}\b", old.split("±:")[0]):
        assert number in out
    assert old[old.index("Signatures:"):] == out[out.index("Signatures:"):]
    assert "†" in out and "†/" not in out and "p AR" in out
    for fmt in ("json", "csv", "markdown", "latex"):
        assert main(["show", str(stored), "--format", fmt]) == 0
        assert "sacrebleu" in capsys.readouterr().out


@nltk_zero_order  # the stored run's nltk metric, computed again
def test_verify_recomputes_every_number(stored: Path, capsys) -> None:
    made_with = load_record(stored)["environment"]["python"]
    if PLAIN_SUM:
        assert main(["verify", str(stored)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"verified: {stored}: all 12 results identical")
    main(["verify", "--json", str(stored)])
    check_verified_here(json.loads(capsys.readouterr().out), made_with, 12)


def test_compare_rescores_its_statistics(stored: Path, capsys) -> None:
    assert main(["compare", str(stored), str(stored), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["regressions"] == 0 and len(data["comparisons"]) == 9
    # a run against itself: every output byte-identical, so unchanged and not tested
    assert all(c["verdict"] == "unchanged" and c["delta"] == 0 for c in data["comparisons"])
    run = open_run(str(stored))
    row = next(r for r in run.record["results"] if r["level"] == "corpus")
    assert row["score"] == next(c["score_a"] for c in data["comparisons"]
                                if (c["system"], c["metric"]) == (row["system"], row["metric"]))
