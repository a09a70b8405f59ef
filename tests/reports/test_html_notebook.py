"""``RunResult._repr_html_`` in headless Chromium: in a plain page (no style sheet) and in a
page whose table rules work against it as a notebook's do (wrapping, fixed layout, left
alignment, no padding), at a phone's and a laptop's width. Scores keep their interval and
marker on one line, numeric headers align with their numbers, and a
table wider than the output scrolls in its own box."""

from __future__ import annotations

import re

import pytest

import evalfw
from tests.support.reports import browser, measure_layout
from tests.support.runs import REPO, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SAMPLE = REPO / "configs" / "sample" / "en-de"

CONFIG = """\
schema_version: 1
experiment: notebook
seed: 4
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: [{data}/ref.A.txt, {data}/ref.B.txt]
    systems: {{"*": "{data}/sys/*.txt"}}
  - name: en-de-A
    langs: en-de
    references: [{data}/ref.A.txt]
    systems: {{"*": "{data}/sys/*.txt"}}
metrics:
  - name: bleu
  - name: chrf
    metric: chrf
  - name: ter
    metric: ter
significance:
  baseline: Medium
  method: both
  samples: 200
  ar_trials: 200
  correction: none
"""

#: table rules of the kind a notebook front end applies to every output
HOSTILE = ("table{table-layout:fixed;width:100%;border:none}"
           "td,th{white-space:normal;text-align:left;padding:0;border:none;max-width:4em}")


@pytest.fixture(scope="module")
def repr_html(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("notebook")
    cfg = write_config(tmp / "nb.yaml", CONFIG.format(out=tmp / "runs", data=SAMPLE))
    return evalfw.run(str(cfg))._repr_html_()


def test_every_cell_carries_its_own_style(repr_html):
    cells = re.findall(r"<t[dh][ >]", repr_html)
    assert cells and all(c.endswith(" ") for c in cells)
    assert len(re.findall(r'<t[dh] [^>]*style="[^"]*white-space:nowrap', repr_html)) == len(cells)
    assert "<style" not in repr_html and "class=" not in repr_html  # nothing left to a host


@pytest.mark.parametrize("host", ["plain", "notebook"])
def test_markers_never_wrap_and_numbers_align(repr_html, tmp_path, host):
    assert re.search(r">[†‡]</span>", repr_html)  # the primary test's marks
    assert not re.search(r"[†‡·]/[†‡·]", repr_html)  # one mark a cell, also with two tests
    style = f"<style>{HOSTILE}</style>" if host == "notebook" else ""
    page = tmp_path / "repr.html"
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8">{style}</head><body>'
                    f"{repr_html}</body></html>", encoding="utf-8")
    for got in measure_layout(browser(), page, tmp_path, (320, 1024)):
        width = got["innerWidth"]
        assert got["tables"] == 1
        assert got["wrapped"] == [], (host, width)
        assert got["headers"] == [], (host, width)
        assert got["offenders"] == [] and got["scrollWidth"] <= width, (host, width)
    assert got["hidden"] == []  # at 1024 px every column is in view
