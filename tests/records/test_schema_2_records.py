"""A run stored with record schema 2 (``fixtures/record-v2``: its config, data and version
directory, with BLEU, chrF and TER and a paired bootstrap) still loads, shows, verifies and
compares under the current schema; nothing in the fixture is written to."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.records.document import SCHEMA_VERSION
from evalfw.records.load import load_record
from tests.support.pythons import PLAIN_SUM, check_verified_here

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "record-v2"
VERSION = FIXTURE / "runs" / "stored" / "20261128T010016Z-001"


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture, so that nothing a command might write lands in the repository."""
    shutil.copytree(FIXTURE, tmp_path / "v2")
    monkeypatch.chdir(tmp_path / "v2")
    return tmp_path / "v2" / "runs" / "stored" / VERSION.name


def test_it_is_a_schema_2_record_older_than_the_current_one() -> None:
    raw = json.loads((VERSION / "record.json").read_text("utf-8"))
    assert raw["schema_version"] == 2 < SCHEMA_VERSION


def test_loads_with_its_three_metrics() -> None:
    record = load_record(VERSION)
    assert [m["metric"] for m in record["metrics"]] == ["bleu", "chrf", "ter"]


def test_verify_recomputes_every_number(stored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made_with = load_record(stored)["environment"]["python"]
    if PLAIN_SUM:
        assert main(["verify", str(stored)]) == 0
        assert capsys.readouterr().out.startswith(f"verified: {stored}: all 9 results identical")
    main(["verify", "--json", str(stored)])
    check_verified_here(json.loads(capsys.readouterr().out), made_with, 9)


def test_show_and_compare_read_it(stored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = (stored / "report-table.txt").read_text("utf-8")
    assert main(["show", str(stored), "--format", "table"]) == 0
    out = capsys.readouterr().out
    for score in ("37.72", "74.46", "56.96"):
        assert score in old and score in out
    assert main(["compare", str(stored), str(stored), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["regressions"] == 0 and len(data["comparisons"]) == 9
