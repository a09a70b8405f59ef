"""Loading YAML configs safely, keeping the position of every value.

PyYAML's safe loader already refuses tags that construct objects, but it silently keeps the
last of two equal keys, expands aliases without limit and reports errors in its own words.
Here PyYAML only parses and composes the node graph; building the Python values is ours, so
that we can:

- record ``file:line:col`` of every mapping key, mapping value and sequence item;
- reject duplicate keys, naming both lines (YAML merge keys ``<<`` still work: an explicit
  key overrides a merged one, as the YAML spec says);
- allow plain data only: strings, integers, finite floats, booleans, null, lists, mappings
  (timestamps are kept as the text written; any other tag is an error);
- refuse alias bombs: every node visited while expanding counts, through aliases too, and
  nesting depth is bounded (recursive aliases hit that bound);
- refuse what no config holds before doing any real work: control characters (comments
  included), more values than :data:`evalfw.limits.MAX_CONFIG_NODES` (counted on the event
  stream, which stops at the limit, instead of composing millions of nodes first), integers
  longer than :data:`evalfw.limits.MAX_NUMBER_DIGITS` digits.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from evalfw.config._locate import KeyPath, Locations, Mark, format_path
from evalfw.errors import ConfigError
from evalfw.io.text import read_bytes
from evalfw.limits import MAX_CONFIG_BYTES, MAX_CONFIG_NODES, MAX_NUMBER_DIGITS

#: Values built from one document, counting nodes reached again through aliases.
MAX_NODES = MAX_CONFIG_NODES
#: Nesting depth of mappings and lists (a real config needs fewer than ten levels).
MAX_DEPTH = 64
#: Configs are small; a bigger file is almost certainly a mistake (or an attack).
MAX_BYTES = MAX_CONFIG_BYTES
#: what YAML itself refuses as non-printable, found first so the error names line and column
_CONTROL = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                      "\U00010000-\U0010FFFF]")
_VALUE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent,
                 yaml.AliasEvent)
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_STD}{t}" for t in ("str", "int", "float", "bool", "null")}
_TIMESTAMP = f"{_STD}timestamp"
_MERGE = f"{_STD}merge"


def _tag(tag: str) -> str:
    return "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag


def _mark(node: Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


def read_config_text(path: Path, shown: str) -> str:
    """The config file's text: UTF-8 (a BOM is allowed), at most MAX_BYTES."""
    data = read_bytes(path, shown, limit=MAX_CONFIG_BYTES, error=ConfigError,
                      variable=None,
                      what="config file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{shown}:{line}: invalid UTF-8 at byte offset {exc.start}; save the config as UTF-8"
        ) from None


def parse_yaml(text: str, locations: Locations, *, root: KeyPath = ()) -> Any:
    """Parse one YAML document into plain data, recording positions under ``root``."""
    source = locations.source
    _prescan(text, source)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise ConfigError(_syntax_message(source, exc)) from None
    except yaml.YAMLError as exc:  # errors without a mark (e.g. reader errors)
        raise ConfigError(f"{source}: invalid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(
            f"{source}: YAML nesting is too deep to parse; a config needs only a few levels"
        ) from None
    finally:
        loader.dispose()
    if node is None:
        return None
    return _Builder(locations).build(node, root, 0)


def _prescan(text: str, source: str) -> None:
    """Refuse control characters and oversized documents before composing anything."""
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise ConfigError(f"{source}:{line}:{column}: control character "
                          f"U+{ord(bad.group()):04X} in the config; configs are plain text, "
                          "remove it (write \\t, \\e, ... inside a double-quoted string)")
    count = 0
    try:
        for event in yaml.parse(text, Loader=_FAST_LOADER):
            if isinstance(event, _VALUE_EVENTS):
                count += 1
                if count > MAX_NODES:
                    where = event.start_mark.line + 1 if event.start_mark else "?"
                    raise ConfigError(
                        f"{source}:{where}: the document holds more than {MAX_NODES:,} values; "
                        "a config holds hundreds: refusing a document this large (put data in "
                        "files the config names)")
    except yaml.YAMLError:
        return  # the composing parser below reports syntax errors with their positions


def _syntax_message(source: str, exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
    problem = exc.problem or "invalid YAML"
    if exc.context and exc.context_mark and exc.context_mark is not mark:
        problem += f" ({exc.context} at line {exc.context_mark.line + 1})"
    return f"{where}: YAML syntax error: {problem}"


class _Builder:
    """Turns a composed node graph into plain data (one instance per document)."""

    def __init__(self, locations: Locations) -> None:
        self.loc = locations
        self.nodes = 0
        self.scalars = yaml.constructor.SafeConstructor()

    def fail(self, node: Node, path: KeyPath, message: str) -> ConfigError:
        m = _mark(node)
        return ConfigError(f"{self.loc.source}:{m.line}:{m.column}: {format_path(path)}: {message}")

    def build(self, node: Node, path: KeyPath, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(node, path, (
                f"the document expands to more than {MAX_NODES} values (through aliases); "
                "refusing it as a possible alias bomb"))
        if depth > MAX_DEPTH:
            raise self.fail(node, path[:8], (
                f"nested deeper than {MAX_DEPTH} levels (or an alias refers to itself); "
                "flatten the structure"))
        self.loc.values[path] = _mark(node)
        if isinstance(node, ScalarNode):
            return self.scalar(node, path)
        if isinstance(node, SequenceNode):
            self.check_tag(node, path, f"{_STD}seq")
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            self.check_tag(node, path, f"{_STD}map")
            return self.mapping(node, path, depth)
        raise self.fail(node, path, f"unsupported YAML node {type(node).__name__}")

    def check_tag(self, node: Node, path: KeyPath, *allowed: str) -> None:
        if node.tag not in allowed:
            raise self.fail(node, path, (
                f"tag '{_tag(node.tag)}' is not allowed; configs hold plain data only "
                "(strings, numbers, booleans, null, lists and mappings) and never build objects"))

    def scalar(self, node: ScalarNode, path: KeyPath) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value  # a date is kept as written: JSON has no date type
        self.check_tag(node, path, *_SCALAR_TAGS)
        if node.tag == f"{_STD}int" and sum(c.isdigit() for c in node.value) > MAX_NUMBER_DIGITS:
            raise self.fail(node, path, (
                f"an integer of {sum(c.isdigit() for c in node.value)} digits; numbers in a "
                f"config have at most {MAX_NUMBER_DIGITS} digits"))
        try:
            value = self.scalars.construct_object(node)
        except ValueError as exc:
            raise self.fail(node, path, f"{node.value[:40]!r} is not a valid number ({exc})") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(node, path, f"{node.value!r} is not a finite number")
        return value

    def key(self, node: Node, path: KeyPath) -> str:
        if not isinstance(node, ScalarNode):
            raise self.fail(node, path, "mapping keys must be plain strings, not lists or mappings")
        if node.tag not in _SCALAR_TAGS and node.tag != _TIMESTAMP:
            self.check_tag(node, path, *_SCALAR_TAGS)
        return str(node.value)  # the key as written: `yes:` stays "yes", `1:` stays "1"

    def mapping(self, node: MappingNode, path: KeyPath, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        seen: dict[str, Node] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE:
                if merges:
                    raise self.fail(key_node, path, (
                        f"duplicate merge key '<<' (first at line {_mark(merges[0]).line}); "
                        "merge several mappings with `<<: [*a, *b]`"))
                merges.append(key_node)
                self.merge(value_node, path, depth, out)
                continue
            name = self.key(key_node, path)
            sub = (*path, name)
            if name in seen:
                first = _mark(seen[name])
                raise self.fail(key_node, sub, (
                    f"duplicate key '{name}' (first defined at line {first.line}, column "
                    f"{first.column}); YAML would silently keep only the last one, remove one"))
            seen[name] = key_node
            if name in out:  # an explicit key overrides the same key from a merge
                self.loc.drop(sub)
            self.loc.keys[sub] = _mark(key_node)
            out[name] = self.build(value_node, sub, depth + 1)
        return out

    def merge(self, node: Node, path: KeyPath, depth: int, out: dict[str, Any]) -> None:
        sources = node.value if isinstance(node, SequenceNode) else [node]
        for source in sources:
            if not isinstance(source, MappingNode):
                raise self.fail(source, path, "'<<' merges mappings only (e.g. `<<: *defaults`)")
            # The first mapping listed wins and explicit keys win over merged ones, so a source
            # is built aside and only the keys it contributes (with their positions) are kept.
            main, self.loc = self.loc, Locations(self.loc.source)
            try:
                merged = self.build(source, path, depth)
            finally:
                aside, self.loc = self.loc, main
            n = len(path)
            for k, v in merged.items():
                if k in out:
                    continue
                out[k] = v
                for table, kept in ((aside.values, main.values), (aside.keys, main.keys)):
                    kept.update((p, m) for p, m in table.items() if p[n:n + 1] == (k,))
