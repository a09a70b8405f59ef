"""The HTML report's output checks section and the drill-down's marks, from a real run."""

from __future__ import annotations

from evalfw.reports._html import render
from evalfw.runner.run import run_experiment
from tests.runner.test_checks_run import REF, SRC, project


def test_flagged_segments_are_listed_with_their_texts_and_marked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = {2: "", 5: "<b>" + SRC[5] + "</b>"}
    config = project(tmp_path, "significance: {baseline: A, samples: 20, buckets: false}\n",
                     b_lines=lines)
    record = run_experiment(config).record
    page = render(record)
    assert '<a href="#checks">Output checks</a>' in page
    section = page[page.index('<h2 id="checks">'):page.index('<h2 id="analysis">')]
    assert "flagged segments are scored as they are (on_flag: keep)" in section
    assert '<details open data-system="B">' in section
    assert 'data-segment="3"' in section and '<span class="none">(empty)</span>' in section
    assert "&lt;b&gt;" + SRC[5] in section and "<b>" not in section  # escaped
    assert REF[5] in section  # the reference is shown
    assert "flagged: copy-source" in section
    drill = page[page.index('<h2 id="drilldown">'):]
    assert 'data-segment="3"' in drill and "flagged: empty" in drill


def test_a_record_without_checks_has_no_section(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = dict(run_experiment(project(tmp_path)).record)
    del record["checks"]
    page = render(record)
    assert 'id="checks"' not in page
