"""Per-segment label files (documents, domains): a TSV with a header or one label a line, one
row per segment; anything that could misalign a label with its segment is an error naming the
file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalfw.errors import InputError
from evalfw.io.labels import PLAIN, read_labels
from tests.support.shared_data import need_wmt22


def write(tmp_path: Path, text: str, name: str = "docs.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_tsv_by_column(tmp_path):
    path = write(tmp_path, "line\tdoc_id\tdomain\n1\td1\tnews\n2\td1\tnews\n3\td2\tchat\n")
    table = read_labels(path, 3, "the documents")
    assert table.column(None, "x") == ["d1", "d1", "d2"]
    assert table.column("domain", "x") == ["news", "news", "chat"]
    assert table.facts()["lines"] == 4 and len(table.facts()["sha256"]) == 64
    with pytest.raises(InputError, match="no column 'genre' for the strata; its columns are: "
                                         "'line', 'doc_id', 'domain'"):
        table.column("genre", "the strata")


def test_one_label_a_line(tmp_path):
    table = read_labels(write(tmp_path, "a\na\nb\n", "ids.txt"), 3, "the documents")
    assert table.columns == {PLAIN: ["a", "a", "b"]}
    assert table.column(None, "x") == ["a", "a", "b"]
    with pytest.raises(InputError, match="no column 'domain'"):
        table.column("domain", "x")
    # a single column with its header
    assert read_labels(write(tmp_path, "doc_id\nx\ny\n"), 2, "d").column(None, "x") == ["x", "y"]


@pytest.mark.parametrize("text,segments,message", [
    ("a\nb\n", 3, r"ids.txt: 2 rows for the documents, which has 3 segments"),
    ("doc_id\tdomain\nd1\tnews\n", 2, r"1 rows \(besides its header line\)"),
    ("doc_id\tdomain\nd1\n", 1, r"ids.txt:2: 1 fields, the header has 2"),
    ("doc_id\tdomain\nd1\t \n", 1, r"ids.txt:2: column 'domain' is empty"),
    ("a\n\nb\n", 3, r"ids.txt:2: empty label"),
    ("line\tdoc_id\n1\ta\n3\tb\n", 2, r"ids.txt:3: column 'line' says '3', the row is segment 2"),
    ("doc_id\tdoc_id\na\tb\n", 1, r"ids.txt:1: the header must name each column once"),
])
def test_misaligned_or_incomplete_files_are_refused(tmp_path, text, segments, message):
    with pytest.raises(InputError, match=message):
        read_labels(write(tmp_path, text, "ids.txt"), segments, "the documents")


@pytest.mark.wmt22
def test_the_wmt22_en_zh_documents():
    table = read_labels(need_wmt22() / "en-zh" / "docs.tsv", 2037, "the documents of en-zh")
    assert len(set(table.column(None, "x"))) == 181
    assert sorted(set(table.column("domain", "x"))) == ["conversation", "ecommerce", "news",
                                                         "social"]
