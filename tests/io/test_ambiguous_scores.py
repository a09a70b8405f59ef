"""A score file that could be read two ways is refused at its file:line, never read one way
silently: a TSV header naming the score column twice, a JSONL object naming a key twice."""

from __future__ import annotations

import pytest

from evalfw.errors import InputError
from evalfw.io.scores import read_scores
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)


@pytest.mark.parametrize("name, text, where, said", [
    ("s.tsv", "id\tscore\tscore\n1\t0.5\t0.9\n", "s.tsv:1:", "fields 2, 3"),
    ("s.jsonl", '{"score": 0.5}\n{"score": 0.5, "score": 0.9}\n', "s.jsonl:2:",
     "key 'score' appears more than once"),
    ("s.jsonl", '{"score": 0.5, "meta": {"a": 1, "a": 2}}\n', "s.jsonl:1:",
     "key 'a' appears more than once"),
])
def test_an_ambiguous_score_file_is_refused_at_its_line(tmp_path, name, text, where, said):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    with pytest.raises(InputError) as err:
        read_scores(path, "score", shown=name)
    assert str(err.value).startswith(where) and said in str(err.value)


@pytest.mark.parametrize("name, text", [
    ("s.tsv", "id\tscore\tother\n1\t0.5\t0.9\n"),
    ("s.jsonl", '{"score": 0.5, "other": 0.5}\n'),
])
def test_unambiguous_files_are_read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    assert read_scores(path, "score").scores == [0.5]
