"""The safe YAML layer: positions, duplicate keys, tags, alias bombs, syntax errors, encoding."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalfw.config._locate import Locations, format_path, parse_path
from evalfw.config._yamlload import MAX_BYTES, parse_yaml, read_config_text
from evalfw.errors import ConfigError


def load(text: str) -> tuple[object, Locations]:
    loc = Locations("c.yaml")
    return parse_yaml(text, loc), loc


def error(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(text)
    return str(info.value)


def test_positions_of_keys_values_and_items() -> None:
    data, loc = load("a: 1\nb:\n  - x\n  - {c: d}\n")
    assert data == {"a": 1, "b": ["x", {"c": "d"}]}
    assert loc.where(("a",)) == "c.yaml:1:4"
    assert loc.where(("a",), key=True) == "c.yaml:1:1"
    assert loc.where(("b", 0)) == "c.yaml:3:5"
    assert loc.where(("b", 1, "c")) == "c.yaml:4:9"
    # a missing key is located at the nearest enclosing value
    assert loc.where(("b", 1, "missing")) == "c.yaml:4:5"


def test_plain_data_types() -> None:
    data, _ = load("i: 3\nf: 0.5\nb: true\nn: null\ns: '3'\nd: 2022-01-01\nyes: 1\n1: 2\n")
    assert data == {"i": 3, "f": 0.5, "b": True, "n": None, "s": "3", "d": "2022-01-01",
                    "yes": 1, "1": 2}
    assert type(data["i"]) is int and type(data["f"]) is float  # type: ignore[index]


def test_duplicate_key_names_both_lines() -> None:
    msg = error("experiment: x\nseed: 1\nexperiment: y\n")
    assert msg.startswith("c.yaml:3:1: experiment: duplicate key 'experiment'")
    assert "first defined at line 1, column 1" in msg


def test_duplicate_nested_key_and_equal_spellings() -> None:
    msg = error("metrics:\n  - name: a\n    smoothing: {name: x, k: 1, k: 2}\n")
    assert msg.startswith("c.yaml:3:32: metrics[0].smoothing.k: duplicate key 'k'")
    assert "first defined at line 3" in msg
    assert "duplicate key '1'" in error("1: a\n'1': b\n")


def test_merge_keys_work_and_explicit_keys_win() -> None:
    data, loc = load("base: &b {x: 1, y: 2}\nz:\n  <<: *b\n  x: 3\n")
    assert data["z"] == {"x": 3, "y": 2}  # type: ignore[index]
    assert loc.where(("z", "x")) == "c.yaml:4:6"
    assert loc.where(("z", "y")) == "c.yaml:1:20"  # where the merged value was written
    assert "duplicate key 'x'" in error("base: &b {x: 1}\nz:\n  <<: *b\n  x: 3\n  x: 4\n")


@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['echo hi']",
    "!!python/name:os.system",
    "!!python/object:collections.OrderedDict {}",
    "!custom value",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
])
def test_tags_that_build_objects_are_refused(tag: str) -> None:
    msg = error(f"experiment: {tag}\n")
    assert msg.startswith("c.yaml:1:13: experiment: tag '!")
    assert "is not allowed" in msg and "never build objects" in msg


def test_tag_on_a_key_is_refused() -> None:
    assert "is not allowed" in error("? !!python/object:os.system x\n: 1\n")


def test_alias_bomb_is_refused() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, cur in zip("abcde", "bcdef"):
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
    msg = error("\n".join(lines) + "\n")  # 10^6 values when expanded
    assert "expands to more than 100000 values" in msg and "alias bomb" in msg
    assert msg.startswith("c.yaml:")


def test_small_aliases_are_fine() -> None:
    data, _ = load("a: &a [1, 2]\nb: *a\n")
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_recursive_alias_and_deep_nesting_are_refused() -> None:
    assert "nested deeper than 64 levels" in error("a: &a [*a]\n")
    assert "nested deeper than 64 levels" in error("a: " + "[" * 70 + "]" * 70 + "\n")
    assert "nesting is too deep" in error("a: " + "[" * 5000 + "]" * 5000 + "\n")


@pytest.mark.parametrize("text, where, words", [
    ("a: [1, 2\nb: 3\n", "c.yaml:2:2:", "expected ',' or ']'"),
    ("a:\n  b: 1\n c: 2\n", "c.yaml:3:2:", "expected <block end>"),
    ("a: 'unclosed\n", "c.yaml:2:1:", "found unexpected end of stream"),
    ("a: b\n---\nc: d\n", "c.yaml:2:1:", "expected a single document"),
    ("a: *nowhere\n", "c.yaml:1:4:", "found undefined alias"),
])
def test_syntax_errors_have_line_and_column(text: str, where: str, words: str) -> None:
    msg = error(text)
    assert msg.startswith(where) and words in msg and "\n" not in msg


def test_non_finite_floats_and_complex_keys_are_refused() -> None:
    assert "is not a finite number" in error("v: .nan\n")
    assert "is not a finite number" in error("v: -.inf\n")
    assert "mapping keys must be plain strings" in error("? [a]\n: x\n")


def test_read_config_text(tmp_path: Path) -> None:
    p = tmp_path / "c.yaml"
    p.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_config_text(p, "c.yaml") == "a: 1\n"  # the BOM is dropped
    p.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(ConfigError, match=r"^c.yaml:2: invalid UTF-8 at byte offset 8"):
        read_config_text(p, "c.yaml")
    p.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(ConfigError, match="the limit is"):
        read_config_text(p, "c.yaml")
    with pytest.raises(ConfigError, match="is a directory"):
        read_config_text(tmp_path, "dir")
    with pytest.raises(ConfigError, match="config file not found"):
        read_config_text(tmp_path / "nope.yaml", "nope.yaml")


@pytest.mark.parametrize("path", [
    ("metrics", 1, "smoothing", "k"), ("systems", "*"), ("systems", "Online-W"),
    ("a", "x.y", 0), ("x", 'say "hi"'),
])
def test_key_paths_round_trip(path: tuple) -> None:
    assert parse_path(format_path(path)) == path


def test_key_path_formatting_and_errors() -> None:
    assert format_path(("metrics", 1, "smoothing", "k")) == "metrics[1].smoothing.k"
    assert format_path(("systems", "*")) == 'systems["*"]'
    for bad in ("metrics.0", "a..b", ".a", "a[x]", "a b"):
        with pytest.raises(ConfigError, match="malformed key path"):
            parse_path(bad)
