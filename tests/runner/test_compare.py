"""`evalfw compare RUN_A RUN_B`: paired tests across runs, exit status as a CI guard."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from evalfw.analysis import paired_analysis
from evalfw.cli.main import main
from evalfw.errors import EvalfwError, RegressionDetected
from evalfw.records.load import open_run
from evalfw.runner.compare import compare_runs, differences
from tests.support.expected_warnings import nltk_zero_order
from tests.support.runs import REPO, run, write_config

# CONFIG's nltk metric on short random segments
pytestmark = nltk_zero_order

SAMPLE = REPO / "configs" / "sample" / "en-de"

CONFIG = """\
schema_version: 1
experiment: cmp
seed: 11
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.A.txt, ref.B.txt]
    systems: {{Medium: Medium.txt, Strong: Strong.txt{extra_system}}}
metrics:
  - name: bleu
  - name: nltk
    preset: nltk
    level: [corpus, sentence]
{extra}
"""


def setup(tmp: Path, strong: list[str] | None = None, ref_b: list[str] | None = None,
          extra: str = "", extra_system: str = "", name: str = "cmp.yaml",
          medium: list[str] | None = None) -> str:
    """Write inputs (optionally a changed Strong or Medium output or reference B) and a
    config; run it."""
    tmp.mkdir(parents=True, exist_ok=True)
    for f, lines in (("ref.A.txt", None), ("ref.B.txt", ref_b), ("Medium.txt", medium),
                     ("Strong.txt", strong), ("Weak.txt", None)):
        src = SAMPLE / f if f.startswith("ref") else SAMPLE / "sys" / f
        text = src.read_text("utf-8") if lines is None else "\n".join(lines) + "\n"
        (tmp / f).write_text(text, encoding="utf-8")
    cfg = write_config(tmp / name, CONFIG.format(extra=extra, extra_system=extra_system))
    return str(run(str(cfg)).path)


def lines(name: str) -> list[str]:
    path = SAMPLE / name if name.startswith("ref") else SAMPLE / "sys" / name
    return path.read_text("utf-8").split("\n")[:-1]


def damaged(fraction: float, seed: int = 0, name: str = "Strong.txt") -> list[str]:
    """Strong's output with a share of its lines cut to their first two words."""
    rng = random.Random(seed)
    return [" ".join(s.split()[:2]) if rng.random() < fraction else s for s in lines(name)]


def damaged_medium(fraction: float, seed: int = 1) -> list[str]:
    """Medium's output, damaged the same way."""
    return damaged(fraction, seed, "Medium.txt")


def test_same_outputs_no_regression(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b")
    assert main(["compare", a, b]) == 0
    out = capsys.readouterr().out
    assert "0 regression(s), 0 improvement(s), 4 unchanged (byte-identical outputs, not " \
        "tested)" in out and "inconclusive" in out
    assert main(["compare", a, b, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {(r["system"], r["metric"]) for r in data["comparisons"]} == \
        {(s, m) for s in ("Medium", "Strong") for m in ("bleu", "nltk")}
    assert all(r["delta"] == 0 and r["p_value"] is None and r["verdict"] == "unchanged"
               and r["family_size"] is None for r in data["comparisons"])
    assert data["seed"] == 11 and data["samples"] == 1000 and data["method"] == "bootstrap"


def test_unchanged_systems_are_not_in_the_correction_family(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.6))
    assert main(["compare", a, b, "-f", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    medium = [r for r in data["comparisons"] if r["system"] == "Medium"]
    strong = [r for r in data["comparisons"] if r["system"] == "Strong"]
    assert all(r["verdict"] == "unchanged" and r["p_value"] is None for r in medium)
    # the family of each table is Strong alone: Holm over one comparison leaves p as it is
    assert all(r["family_size"] == 1 and r["p_adjusted"] == r["p_value"] for r in strong)
    assert data["unchanged"] == 2 and data["p_label"] == "p Holm"


def test_the_summary_line_says_the_p_value_the_table_shows(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.6), medium=damaged_medium(0.6))
    assert main(["compare", a, b, "--metric", "bleu"]) == 1
    out, err = capsys.readouterr()
    head = next(line for line in out.splitlines() if line.startswith("test set"))
    assert head.split()[-3:] == ["p", "Holm", "verdict"], head
    strong = next(line for line in out.splitlines() if line.startswith("t ") and "Strong" in line)
    shown = strong.split()[-2]
    assert f"(p Holm = {shown})" in err, (strong, err)
    assert main(["compare", a, b, "--metric", "bleu", "--correction", "none"]) == 1
    out, err = capsys.readouterr()
    strong = next(line for line in out.splitlines() if line.startswith("t ") and "Strong" in line)
    assert f"(p = {strong.split()[-2]})" in err


def test_regression_exits_1_and_names_it(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.6))
    assert main(["compare", a, b, "--metric", "bleu"]) == 1
    captured = capsys.readouterr()
    assert "regression" in captured.out
    # no resample as extreme: 1/1001, and Holm over 1 (Medium's output is unchanged)
    assert "<0.0010" in captured.out and "(p Holm = <0.0010)" in captured.err
    assert "evalfw: error: 1 significant regression(s)" in captured.err
    assert "t/bleu/Strong" in captured.err
    # the other direction is an improvement: exit 0
    assert main(["compare", b, a, "--metric", "bleu", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    strong = next(r for r in data["comparisons"] if r["system"] == "Strong")
    assert strong["verdict"] == "improvement" and data["regressions"] == 0
    with pytest.raises(RegressionDetected):
        from evalfw.cli.main import build_parser

        args = build_parser().parse_args(["--debug", "compare", a, b])
        args._execute(args)


def test_p_values_equal_the_analysis_on_the_stored_statistics(tmp_path):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.1, seed=3))
    run_a, run_b = open_run(a), open_run(b)
    from evalfw.api import default_host

    host = default_host()
    result = compare_runs(run_a, run_b, host, metric="bleu", samples=500, seed=5)
    row = next(r for r in result.rows if r["system"] == "Strong")

    def stats(stored) -> np.ndarray:
        arrays = stored.segments()
        r = next(r for r in stored.record["results"] if (r["system"], r["metric"], r["level"])
                 == ("Strong", "bleu", "corpus"))
        return arrays[r["segments"]]

    from evalfw.metrics.bleu.metric import Bleu

    (want,) = paired_analysis({"A": stats(run_a), "B": stats(run_b)}, "A",
                              Bleu.create({"preset": "sacrebleu"}, host=host), "bootstrap", 500,
                              5).comparisons
    assert (row["p_value"], row["delta"], row["score_a"], row["score_b"]) == \
        (want.p_value, want.delta, want.baseline_score, want.score)
    assert row["score_b"] == next(r["score"] for r in run_b.record["results"]
                                  if (r["system"], r["metric"], r["level"]) ==
                                  ("Strong", "bleu", "corpus"))
    ar = compare_runs(run_a, run_b, host, metric="bleu", method="ar", samples=640, seed=5)
    strong = next(r for r in ar.rows if r["system"] == "Strong")
    assert ar.settings["method"] == "ar" and strong["p_value"] > 0


def test_holm_and_alpha(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.6))
    assert main(["compare", a, b, "--alpha", "0.0001", "-n", "200"]) == 0  # p >= 1/201
    err = capsys.readouterr().err  # and it says so before anyone wonders
    # Medium's output is unchanged: each family is Strong alone (Holm over 1)
    assert "evalfw: warning: significance is out of reach: with 200 paired bootstrap " \
        "resamples" in err and "9999 resamples would reach alpha, 200000 resamples (20 / " \
        "alpha) are recommended (--samples 200000)" in err
    assert main(["compare", a, b, "--correction", "holm", "-f", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert all(r["p_adjusted"] is not None for r in data["comparisons"]
               if r["verdict"] != "unchanged")


def test_holm_within_each_table_by_default_as_run(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.3, seed=2), medium=damaged_medium(0.3))
    assert main(["compare", a, b, "-f", "json", "-n", "300"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    assert (data["correction"], data["family"]) == ("holm", "table")
    from evalfw.analysis.results import bonferroni, holm

    for metric in ("bleu", "nltk"):  # one family per test set x metric: its systems
        rows = [r for r in data["comparisons"] if r["metric"] == metric]
        assert [r["p_adjusted"] for r in rows] == holm([r["p_value"] for r in rows])
        assert {r["family_size"] for r in rows} == {2}
    assert main(["compare", a, b, "-f", "json", "-n", "300", "--family", "run",
                 "--correction", "bonferroni"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    rows = data["comparisons"]
    assert [r["p_adjusted"] for r in rows] == bonferroni([r["p_value"] for r in rows])
    assert {r["family_size"] for r in rows} == {4}
    assert main(["compare", a, b, "-n", "300", "--correction", "none"]) in (0, 1)
    out = capsys.readouterr().out
    assert "p not corrected (4 comparisons)" in out
    assert main(["compare", a, b, "-n", "300"]) in (0, 1)
    out = capsys.readouterr().out
    assert "Holm-adjusted p within each family of the systems of one test set x metric " \
        "(2 comparisons)" in out


def test_different_references_refused_naming_them(tmp_path, capsys):
    a = setup(tmp_path / "a")
    ref_b = lines("ref.B.txt")
    ref_b[0] = ref_b[0] + " extra"
    b = setup(tmp_path / "b", ref_b=ref_b)
    assert main(["compare", a, b]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]  # (NLTK warnings of the runs above)
    assert err.startswith("evalfw: error: cannot compare ")
    assert "test set 't': references differ" in err and "ref.B.txt" in err


def test_other_differences_refused(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", extra="    smoothing: method1", name="other.yaml")
    assert main(["compare", a, b]) == 2
    assert "metric 'nltk' on test set 't' is defined differently (smoothing method0@1 -> " \
        "method1@1[epsilon=0.1])" in capsys.readouterr().err
    assert main(["compare", a, b, "--metric", "bleu"]) == 0  # the shared metric alone is fine
    capsys.readouterr()
    assert main(["compare", a, b, "--metric", "blue"]) == 2
    assert "did you mean 'bleu'" in capsys.readouterr().err
    record = open_run(a).record
    other = json.loads(json.dumps(record))
    other["test_sets"][0]["segments"] = 39
    other["test_sets"].append({**other["test_sets"][0], "name": "u"})
    found = differences(record, other, ["bleu"])
    assert "test set 'u' is only in run B" in found
    assert "test set 't' has 40 segments in run A but 39 in run B" in found


def test_unmatched_systems_are_listed(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", extra_system=", Weak: Weak.txt")
    assert main(["compare", a, b, "--metric", "bleu"]) == 0
    assert "not compared: t/bleu: Weak only in run B" in capsys.readouterr().out


def test_missing_run_is_a_clear_error(tmp_path, capsys):
    a = setup(tmp_path / "a")
    assert main(["compare", a, str(tmp_path / "nope")]) == 2
    assert "no run" in capsys.readouterr().err
    with pytest.raises(EvalfwError):
        open_run(str(tmp_path / "nope"))


# ------------------------------------------------------------------ non-inferiority margin


def test_a_margin_is_a_non_inferiority_check(tmp_path, capsys):
    a = setup(tmp_path / "a")
    b = setup(tmp_path / "b", strong=damaged(0.05, seed=2))  # a small, uncertain loss
    run_a, run_b = open_run(a), open_run(b)
    from evalfw.api import default_host

    host = default_host()
    plain = compare_runs(run_a, run_b, host, metric="bleu", samples=400)
    strong = next(r for r in plain.rows if r["system"] == "Strong")
    assert strong["delta"] < 0 and strong["verdict"] == "inconclusive"
    # a margin wider than any plausible loss: shown; narrower than the loss: not excluded
    wide = compare_runs(run_a, run_b, host, metric="bleu", samples=400, margin=50)
    narrow = compare_runs(run_a, run_b, host, metric="bleu", samples=400, margin=0.01)
    (w,) = [r for r in wide.rows if r["system"] == "Strong"]
    (n,) = [r for r in narrow.rows if r["system"] == "Strong"]
    assert w["margin_verdict"] == "no regression larger than 50" and not wide.regressions
    assert n["margin_verdict"] == "a regression larger than 0.01 is not excluded"
    assert [r["system"] for r in narrow.regressions] == ["Strong"]
    # the bound: one-sided at 1 - alpha/m (Bonferroni over the table's tested systems:
    # Strong alone, Medium's output being unchanged)
    assert w["bound_level"] == pytest.approx(1 - 0.05 / 1)
    from evalfw.metrics.bleu.metric import Bleu

    def stats(stored) -> np.ndarray:
        arrays = stored.segments()
        r = next(r for r in stored.record["results"] if (r["system"], r["metric"], r["level"])
                 == ("Strong", "bleu", "corpus"))
        return arrays[r["segments"]]

    (want,) = paired_analysis({"A": stats(run_a), "B": stats(run_b)}, "A",
                              Bleu.create({"preset": "sacrebleu"}, host=host), "bootstrap",
                              400, run_a.record["seed"], level=1 - 2 * 0.05 / 1).comparisons
    assert w["bound"] == want.delta_lower
    assert main(["compare", a, b, "--metric", "bleu", "-n", "400", "--margin", "50"]) == 0
    out = capsys.readouterr().out
    assert "no regression larger than 50" in out and "non-inferiority margin 50" in out
    assert main(["compare", a, b, "--metric", "bleu", "-n", "400", "--margin", "0.01"]) == 1
    err = capsys.readouterr().err
    assert "regression(s) larger than the margin 0.01 not excluded" in err


def test_a_margin_needs_the_bootstrap_and_a_positive_number(tmp_path, capsys):
    a = setup(tmp_path / "a")
    assert main(["compare", a, a, "--margin", "0.5", "--method", "ar"]) == 2
    assert "--margin bounds the difference by the paired bootstrap" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["compare", a, a, "--margin", "-1"])
    assert "must be a positive number" in capsys.readouterr().err
