"""Terminal and Markdown tables show every configured paired test (bootstrap and approximate
randomization); with both, one of them is primary and carries the marks, the other is
reported beside it unmarked. Every legend names the multiple-comparison correction, its
family and the family's size: Holm within each table by default in evalfw's default mode,
none in sacreBLEU mode, and a record's own settings when it has them (across the run when
it names no family)."""

from __future__ import annotations

import copy

import pytest

from evalfw.errors import AntiConservativeWarning
from evalfw.reports._cells import BASELINE, BETTER, WORSE, Significance, significant
from evalfw.reports._html import render as html
from evalfw.reports.reporters import LatexReporter, MarkdownReporter, TableReporter
from tests.support.runs import REPO, run, write_config

CONFIG = """\
schema_version: 1
experiment: tests
seed: 5
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - name: bleu
  - name: addk
    smoothing: {{name: add-k, value: 2}}
reports: [table]
significance:
  baseline: Medium
{block}"""


def outcome_of(tmp_path, block: str):
    text = CONFIG.format(root=REPO / "configs" / "sample", out=tmp_path / "runs", block=block)
    return run(str(write_config(tmp_path / "c.yaml", text)))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    return outcome_of(tmp_path_factory.mktemp("both"),
                      "  method: both\n  samples: 200\n  ar_trials: 200\n").record


def mark(comp, sig: Significance, metric: str) -> str:
    if not significant(comp, sig.alpha):
        return ""
    return BETTER if sig.better(metric, comp["delta"]) else WORSE


@pytest.mark.parametrize("primary", ["bootstrap", "ar"])
def test_only_the_primary_test_marks_a_cell(tmp_path, primary):
    record = outcome_of(tmp_path, f"  method: both\n  primary: {primary}\n  samples: 200\n"
                                  "  ar_trials: 200\n").record
    sig = Significance(record)
    assert sig.methods == ("bootstrap", "ar") and sig.method == primary
    assert sig.secondary == ("ar" if primary == "bootstrap" else "bootstrap")
    text = TableReporter().render(record)
    for table in record["significance"]["tables"]:
        for system in table["systems"]:
            cell = sig.cell(system, table["test_set"], table["metric"])
            if system == table["baseline"]:
                assert cell.markers == (BASELINE,)
                continue
            by = {c["method"]: c for c in table["comparisons"] if c["system"] == system}
            expected = mark(by[primary], sig, table["metric"])
            assert sig.marker_text(cell) == expected and cell.markers == (expected,)
            assert f"±{cell.ci:.2f} {expected}".rstrip() in text
    words = {"bootstrap": "paired bootstrap resampling", "ar": "paired approximate randomization"}
    other = sig.secondary
    for out in (text, MarkdownReporter().render(record), LatexReporter().render(record),
                html(record)):
        assert f"Primary test: {words[primary]} (it carries the marks)" in out
        assert "as a\nsecondary test" in out or "as a secondary test, without marks" in out
        assert words[other] in out


def test_terminal_and_markdown_list_both_p_values(both):
    text = TableReporter().render(both)
    md = MarkdownReporter().render(both)
    assert "p boot" in text and "p AR" in text and "| p boot | Holm | p AR | Holm |" in md
    assert "p boot: paired bootstrap (primary)" in text
    assert "p AR: approximate randomization (secondary, no marks)" in text
    for table in both["significance"]["tables"]:
        for c in table["comparisons"]:
            row_md = f"| {table['test_set']} | {table['metric']} | {c['system']} |"
            line = next(x for x in md.splitlines() if x.startswith(row_md))
            assert f"{c['p_value']:.4f}" in line and f"{c['p_adjusted']:.4f}" in line
            line = next(x for x in text.splitlines()
                        if x.split()[:3] == [table["test_set"], table["metric"], c["system"]])
            assert f"{c['p_value']:.4f}" in line
    for out in (text, md):
        assert "by paired bootstrap resampling with 200 resamples, Holm-adjusted within each " \
               "table" in out


def test_html_marks_by_the_primary_test(both):
    page = html(both)
    assert '<span class="mark">†</span>' in page or '<span class="mark">‡</span>' in page
    assert "†/" not in page and "bootstrap (primary)" in page
    assert "AR (secondary)" in page
    assert "primary test paired bootstrap, secondary approximate randomization (AR)" in page


def test_latex_marks_by_the_primary_test(both):
    tex = LatexReporter().render(both)
    assert r"$^{\dagger}$" in tex or r"$^{\ddagger}$" in tex
    assert "dagger/" not in tex


def test_holm_is_the_default_in_default_mode(both):
    assert both["significance"]["settings"]["correction"] == "holm"
    assert all(c["p_adjusted"] is not None for t in both["significance"]["tables"]
               for c in t["comparisons"])


def legends(record) -> list[str]:
    return [TableReporter().render(record), MarkdownReporter().render(record),
            LatexReporter().render(record), html(record)]


FAMILY = ("Multiple comparisons: Holm correction within each table, a family being one "
          "test set x metric x test: 2 comparisons.")


def test_every_legend_names_the_correction_its_family_and_size(both):
    for out in legends(both):
        assert "Holm-adjusted within each table" in out and FAMILY in out
    older = copy.deepcopy(both)  # a record written with correction none keeps it
    older["significance"]["settings"]["correction"] = "none"
    for t in older["significance"]["tables"]:
        for c in t["comparisons"]:
            c["p_adjusted"] = None
    for out in legends(older):
        assert "no multiple-comparison correction" in out and "Holm-adjusted" not in out
        assert "Multiple comparisons: not corrected; 2 comparisons per table." in out


def test_a_record_without_a_family_was_corrected_across_its_run(both):
    older = copy.deepcopy(both)
    del older["significance"]["settings"]["family"]
    for t in older["significance"]["tables"]:
        del t["families"]
    for out in legends(older):
        assert "Holm-adjusted across the run" in out
        assert ("Holm correction across the run, a family being all test sets and metrics, "
                "one test: 4 comparisons.") in out


def test_family_sizes_differ_by_test_set(tmp_path):
    """Two test sets with 2 and 1 compared systems: the legend gives each size."""
    sample = REPO / "configs" / "sample"
    text = CONFIG.format(root=sample, out=tmp_path / "runs", block="  samples: 100\n")
    text = text.replace("metrics:", """  - name: two
    langs: en-de
    references: ["{data_root}/en-de/ref.A.txt"]
    systems: {Medium: "{data_root}/en-de/sys/Medium.txt", Weak: "{data_root}/en-de/sys/Weak.txt"}
metrics:""")
    record = run(str(write_config(tmp_path / "c.yaml", text))).record
    for out in legends(record):
        assert "a family being one test set x metric x test: 2 comparisons in en-de; 1 in two." \
            in out


def test_sacrebleu_mode_keeps_no_correction(tmp_path):
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):
        record = outcome_of(tmp_path, "  mode: sacrebleu\n  samples: 100\n  metrics: [bleu]\n").record
    assert record["significance"]["settings"]["correction"] == "none"
    assert all(c["p_adjusted"] is None for t in record["significance"]["tables"]
               for c in t["comparisons"])
    for out in legends(record):
        assert "no multiple-comparison correction" in out


def test_explicit_none_is_respected(tmp_path):
    record = outcome_of(tmp_path, "  samples: 100\n  correction: none\n").record
    assert record["significance"]["settings"]["correction"] == "none"
    assert "no multiple-comparison correction" in TableReporter().render(record)
