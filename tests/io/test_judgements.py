"""Reading human judgements: MQM files in Google's layout and score tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalfw.errors import InputError
from evalfw.io.judgements import mqm_systems, read_mqm, read_table, weight_of

HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n"


def _mqm(tmp_path: Path, rows: list[str], name: str = "m.tsv") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def _row(system: str, seg: int, rater: str, category: str, severity: str,
         target: str = "Das ist <v>gut</v>.", source: str = "This is good.") -> str:
    return "\t".join([system, "talk.1", str(seg), str(seg), rater, source, target, category,
                      severity, ""])


def test_weights_take_the_most_specific_entry() -> None:
    weights = {"Major": 5, "Minor": 1, "Major/Non-translation!": 25,
               "Minor/Fluency/Punctuation": 0.1}
    assert weight_of(weights, "Major", "Accuracy/Mistranslation") == 5
    assert weight_of(weights, "Major", "Non-translation!") == 25
    assert weight_of(weights, "Minor", "Fluency/Punctuation") == 0.1
    assert weight_of(weights, "Minor", "Fluency/Grammar") == 1
    assert weight_of(weights, "Critical", "Other") is None


def test_scores_sum_per_rater_and_average_over_raters(tmp_path: Path) -> None:
    path = _mqm(tmp_path, [
        _row("A", 3, "r1", "Accuracy/Mistranslation", "Major"),
        _row("A", 3, "r1", "Fluency/Punctuation", "Minor"),
        _row("A", 3, "r2", "No-error", "No-error"),
        _row("A", 7, "r1", "Style/Awkward", "Minor"),
        _row("ref", 3, "r2", "No-error", "No-error", target="Das ist gut."),
        _row("ref", 7, "r2", "Fluency/Punctuation", "Minor", target="So."),
    ])
    m = read_mqm(path)
    assert m.systems == ("A", "ref")
    assert m.segment_ids == (3, 7)
    assert m.scores["A"] == {3: (5 + 0.1) / 2, 7: 1.0}
    assert m.raters["A"] == {3: 2, 7: 1}
    assert m.scores["ref"] == {3: 0.0, 7: 0.1}
    assert m.targets["A"][3] == "Das ist gut."  # marks removed
    assert m.docs == {3: "talk.1", 7: "talk.1"}
    assert read_mqm(path, {"Major": 10, "Minor": 2, "No-error": 0}).scores["A"][3] == 6.0
    assert mqm_systems(path) == ("A", "ref")


def test_a_sum_does_not_depend_on_the_order_of_rows(tmp_path: Path) -> None:
    cats = ["Fluency/Punctuation"] * 7 + ["Style/Awkward"]
    rows = [_row("A", 1, "r1", c, "Minor") for c in cats]
    a = read_mqm(_mqm(tmp_path, rows, "a.tsv")).scores["A"][1]
    b = read_mqm(_mqm(tmp_path, rows[::-1], "b.tsv")).scores["A"][1]
    assert a == b == 1.7


def test_names_rename_and_drop(tmp_path: Path) -> None:
    path = _mqm(tmp_path, [_row("A.1", 1, "r", "No-error", "No-error"),
                           _row("B", 1, "r", "No-error", "No-error")])
    m = read_mqm(path, names={"A.1": "A", "B": None})
    assert m.systems == ("A",)


@pytest.mark.parametrize(("rows", "message"), [
    ([_row("A", 1, "r", "Other", "Critical")], "m.tsv:2: no weight for severity 'Critical'"),
    ([_row("A", 1, "r", "No-error", "No-error", target="x"),
      _row("A", 1, "r2", "No-error", "No-error", target="y")],
     "m.tsv:3: the target of system 'A', segment 1 differs from line 2"),
    ([_row("A", 1, "r", "No-error", "No-error", source="x"),
      _row("B", 1, "r", "No-error", "No-error", source="y")],
     "m.tsv:3: the source of segment 1 differs from line 2"),
    (["A\ttalk\t1\tone\tr\ts\tt\tNo-error\tNo-error\t"],
     "m.tsv:2: seg_id 'one' is not an integer"),
    (["A\t1\t2"], "m.tsv:2: 3 fields but the header has 10"),
])
def test_what_could_give_a_wrong_score_is_an_error(tmp_path: Path, rows: list[str],
                                                   message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        read_mqm(_mqm(tmp_path, rows))


def test_a_system_name_with_control_characters_is_refused(tmp_path: Path) -> None:
    path = _mqm(tmp_path, [_row("A\x1b[31m", 1, "r", "No-error", "No-error")])
    with pytest.raises(InputError, match="m.tsv:2: the system name .* control character"):
        read_mqm(path)
    with pytest.raises(InputError, match="control character"):
        mqm_systems(path)


def test_a_file_without_googles_columns_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.tsv"
    path.write_text("system\tscore\nA\t1\n", encoding="utf-8")
    with pytest.raises(InputError, match="not an MQM file in Google's layout: no column seg_id"):
        read_mqm(path)


def test_segment_table_with_missing_cells_and_names(tmp_path: Path) -> None:
    path = tmp_path / "s.tsv"
    path.write_text("system mqm_avg_score seg_id\nA\t-1.0 1\nA\tNone 2\nref-A\t-0.0 1\n\n",
                    encoding="utf-8")
    t = read_table(path, system="system", score="mqm_avg_score", segment="seg_id",
                   delimiter="whitespace", names={"ref-A": "ref"})
    assert t.segments == {"A": {1: -1.0}, "ref": {1: -0.0}}
    assert t.missing == 1 and t.systems == ("A", "ref")


def test_system_table_by_column_numbers(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("68.8 0.004 1799 2181 Lan-Bridge.1 Lan-Bridge\n"
                    "70.8 -0.023 1825 2292 Online-W.2 Online-W\n", encoding="utf-8")
    t = read_table(path, system=5, score=2, delimiter="whitespace", header=False,
                   names={"Online-W.2": "Online-W"})
    assert t.system == {"Lan-Bridge.1": 0.004, "Online-W": -0.023} and t.segments is None
    t = read_table(path, system=6, score=1, delimiter="whitespace", header=False)
    assert t.system == {"Lan-Bridge": 68.8, "Online-W": 70.8}


@pytest.mark.parametrize(("text", "kw", "message"), [
    ("system,segment,score\nA,1,0.5\nA,1,0.7\n", {"delimiter": "comma"},
     "s.csv:3: system 'A', segment 1 is judged again (first on line 2)"),
    ("system,segment,score\nA,1,inf\n", {"delimiter": "comma"}, "s.csv:2: score 'inf' is not a "
     "finite number"),
    ("system,segment,score\nA,x,1\n", {"delimiter": "comma"}, "s.csv:2: segment id 'x' is not an "
     "integer"),
    ("system,segment,points\nA,1,1\n", {"delimiter": "comma"}, "s.csv:1: no column 'score'"),
    ("A,1\n", {"delimiter": "comma", "header": False, "score": 3, "system": 1,
              "segment": None},
     "s.csv:1: 2 fields; the columns read go up to number 3"),
])
def test_table_errors(tmp_path: Path, text: str, kw: dict[str, object], message: str) -> None:
    path = tmp_path / "s.csv"
    path.write_text(text, encoding="utf-8")
    args = {"system": "system", "score": "score", "segment": "segment", **kw}
    with pytest.raises(InputError, match=re.escape(message)):
        read_table(path, **args)  # type: ignore[arg-type]
