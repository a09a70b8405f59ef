"""Reference text for the documentation site, generated from the code at build time.

An MkDocs hook (``hooks:`` in mkdocs.yml). A page asks for generated text with a line of its
own that holds one marker:

- ``<!-- generated: cli -->``: every command's ``--help``, from evalfw's argparse parsers
  (and the ``evalfw-sacrebleu`` drop-in's);
- ``<!-- generated: config -->``: the config reference, from ``evalfw schema``;
- ``<!-- generated: hooks -->``: the plugin hooks, from ``evalfw/host/hookspecs.py``.

Each is produced by the evalfw the site is built with, in a child process with entry-point
plugins switched off, so the site describes evalfw itself (not whatever else is installed) and
cannot drift from the code. The functions are plain so that tests can call them.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

#: the width help text is wrapped at (argparse reads $COLUMNS)
HELP_COLUMNS = 92
MARKER = re.compile(r"^<!-- generated: (?P<name>[a-z]+) -->$", re.M)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"COLUMNS": str(HELP_COLUMNS), "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1",
                "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
    env.pop("EVALFW_DISABLE_PLUGINS", None)
    return env


def _python(*args: str) -> str:
    """What ``python ARGS`` prints, run with :func:`_child_env`."""
    done = subprocess.run([sys.executable, *args], capture_output=True,
                          text=True, env=_child_env(), timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"generating the reference failed:\n{done.stderr[-3000:]}")
    return done.stdout


# Walks evalfw's parsers (sub-commands of sub-commands too) and prints [[command, help], ...].
_HELP_SCRIPT = """
import argparse, json, sys
from evalfw.cli.main import build_parser

def walk(parser, words):
    yield " ".join(words), parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action._name_parser_map.items():
                yield from walk(sub, [*words, name])

json.dump(list(walk(build_parser(), ["evalfw"])), sys.stdout)
"""


@cache
def command_helps() -> tuple[tuple[str, str], ...]:
    """(command, its --help text) for ``evalfw``, each sub-command and ``evalfw-sacrebleu``."""
    helps = [tuple(pair) for pair in json.loads(_python("-c", _HELP_SCRIPT))]
    dropin = _python("-c", "import runpy, sys; sys.argv = ['evalfw-sacrebleu', '--help']; "
                     "runpy.run_module('evalfw.compat.sacrebleu', run_name='__main__')")
    return (*helps, ("evalfw-sacrebleu", dropin))  # type: ignore[return-value]


def cli_reference() -> str:
    parts = []
    for command, text in command_helps():
        level = "##" if command.count(" ") <= 1 else "###"
        parts.append(f"{level} `{command}`\n\n```text\n{text.rstrip()}\n```\n")
    return "\n".join(parts)


# ---------------------------------------------------------------- the config reference


@cache
def config_schema() -> dict[str, Any]:
    """What ``evalfw schema`` prints: the experiment config's JSON Schema with every built-in
    component's options."""
    return json.loads(_python("-m", "evalfw", "--no-plugin-autoload", "schema"))


def _code(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return f"`{text}`"


def _anchor(name: str) -> str:
    return name.lower().replace("_", "-")


def _cell(text: str) -> str:
    """Text for a table cell: ``|`` and line ends would end the cell, ``<`` would start
    HTML."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("\n", " "))


class _Schema:
    """Renders one config schema as Markdown tables, one per object, with links between
    them."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self.defs: Mapping[str, Any] = schema.get("$defs", {})
        #: the component kinds the tables name, kind -> its schema (sections at the end)
        self.kinds: dict[str, Mapping[str, Any]] = {}

    def resolve(self, node: Mapping[str, Any]) -> Mapping[str, Any]:
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/"):
            merged = dict(self.defs[ref.removeprefix("#/$defs/")])
            merged.update({k: v for k, v in node.items() if k != "$ref"})
            return merged
        return node

    @staticmethod
    def kind(node: Mapping[str, Any]) -> str | None:
        ref = node.get("$ref", "")
        return ref.removeprefix("#/$defs/component_") if "component_" in ref else None

    def type_of(self, node: Mapping[str, Any]) -> str:
        kind = self.kind(node)
        if kind:
            self.register(kind, self.resolve(node))
            return f"[{kind}](#{_anchor(kind)}-components)"
        ref = node.get("$ref", "")
        if ref.endswith("/label"):
            return "name"
        if ref.endswith("/path"):
            return "path"
        node = self.resolve(node)
        if "const" in node:
            return _code(node["const"])
        if "enum" in node:
            return ", ".join(_code(v) for v in node["enum"])
        if "anyOf" in node:
            return " or ".join(self.type_of(option) for option in node["anyOf"])
        types = node.get("type", "object" if "properties" in node else "any")
        types = types if isinstance(types, list) else [types]
        words = []
        for t in types:
            if t == "array" and "items" in node:
                words.append(f"list of {self.type_of(node['items'])}")
            elif t == "object" and isinstance(node.get("additionalProperties"), Mapping):
                words.append(f"mapping to {self.type_of(node['additionalProperties'])}")
            else:
                words.append(t)
        return " or ".join(words)

    @staticmethod
    def limits(node: Mapping[str, Any]) -> str:
        low = node.get("minimum", node.get("exclusiveMinimum"))
        high = node.get("maximum", node.get("exclusiveMaximum"))
        if low is None and high is None:
            expected = node.get("x-expected")
            return f"Expected: {expected}." if expected else ""
        if "exclusiveMinimum" not in node and "exclusiveMaximum" not in node and None not in (
                low, high):
            return f"From {low} to {high}."
        lo = "" if low is None else ("> " if "exclusiveMinimum" in node else ">= ") + str(low)
        hi = "" if high is None else ("< " if "exclusiveMaximum" in node else "<= ") + str(high)
        return "Range: " + ", ".join(filter(None, (lo, hi))) + "."

    def register(self, kind: str, node: Mapping[str, Any]) -> str:
        """Note a component kind for the sections at the end; the kind whose choices these
        are when another key already named them (``precision`` is ``counter``'s older
        name)."""
        for known, seen in self.kinds.items():
            if known != kind and self.choices(seen) == self.choices(node):
                return known
        self.kinds.setdefault(kind, node)
        return kind

    def choices(self, raw: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
        """A component key's choices, name -> the schema of its options (empty for a key
        that is no component)."""
        node = self.resolve(raw)
        found: dict[str, Mapping[str, Any]] = {}
        for option in node.get("anyOf", []):
            for branch in option.get("allOf", []):
                name = branch.get("if", {}).get("properties", {}).get("name", {})
                if "const" in name:
                    found[name["const"]] = branch["then"]
        names = next((o["enum"] for o in node.get("anyOf", []) if "enum" in o), [])
        return {name: found.get(name, {}) for name in names} or found

    def table(self, properties: Mapping[str, Any], required: Iterator[str] | list[str] = (),
              anchor: Callable[[str], str | None] = lambda key: None) -> str:
        required = list(required)
        rows = ["| key | value | default | what it is |", "|---|---|---|---|"]
        for key, raw in properties.items():
            node = self.resolve(raw)
            link = anchor(key)
            name = f"[`{key}`](#{link})" if link else f"`{key}`"
            if key in required:
                name += " (required)"
            default = _code(node["default"]) if "default" in node else ""
            kind = self.kind(raw) or (key if self.choices(raw) else None)
            if kind:
                # a component: its section below lists the choices and their options
                kind = self.register(kind, node)
                value = f"[{kind}](#{_anchor(kind)}-components)"
                if self.kind(raw):
                    what = raw.get("description", "")
                else:  # the description lists every choice: the first sentence says enough
                    what = re.split(r"(?<=[\w})])\. ", node.get("description", ""), maxsplit=1)[0]
            else:
                value = self.type_of(raw)
                what = node.get("description", "")
            if what and not what.endswith("."):
                what += "."
            what = " ".join(filter(None, (what, self.limits(node))))
            rows.append(f"| {name} | {value} | {_cell(default)} | {_cell(what)} |")
        return "\n".join(rows) + "\n"

    def object_items(self, raw: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The object schema a key holds (itself, its list items or its mapping's values)."""
        node = self.resolve(raw)
        if "properties" in node and not self.kind(raw):
            return node
        for inner in (node.get("items"), node.get("additionalProperties")):
            if isinstance(inner, Mapping) and not self.kind(inner):
                inner = self.resolve(inner)
                if "properties" in inner:
                    return inner
        return None

    def section(self, title: str, anchor: str, node: Mapping[str, Any], level: int) -> list[str]:
        nested = {key: self.object_items(raw) for key, raw in node["properties"].items()}
        nested = {key: value for key, value in nested.items() if value is not None}

        def link(key: str) -> str | None:
            return f"{anchor}-{key}".replace("_", "-") if key in nested else None

        out = [f"{'#' * level} {title} {{#{anchor}}}\n"]
        if node.get("description") and level > 2:
            out.append(node["description"] + "\n")
        out.append(self.table(node["properties"], node.get("required", []), link))
        for key, inner in nested.items():
            out += self.section(f"`{key}`", link(key) or key, inner, level + 1)
        return out

    def metric_variants(self) -> list[str]:
        metric = self.defs.get("metric", {})
        out = ["## `metrics` {#metrics}\n", metric.get("description", "") + "\n",
               self.table(metric.get("properties", {}), metric.get("required", []))]
        common = set(metric.get("properties", {}))
        for branch in metric.get("allOf", []):
            names = [cond["properties"]["metric"]["const"]
                     for cond in branch["if"].get("anyOf", [branch["if"]])
                     if "const" in cond.get("properties", {}).get("metric", {})]
            own = {k: v for k, v in branch["then"].get("properties", {}).items()
                   if k not in common}
            if names and own:
                out.append(f"### `metric: {names[0]}` {{#metric-{names[0]}}}\n")
                out.append(self.table(own))
        return out

    def components(self) -> list[str]:
        out = []
        for kind in sorted(self.kinds):
            out.append(f"## {kind} components {{#{_anchor(kind)}-components}}\n")
            out.append(f"A {kind} is written by name, or as `{{name: ..., <options>}}`.\n")
            for name, then in self.choices(self.kinds[kind]).items():
                props = {k: v for k, v in then.get("properties", {}).items() if k != "name"}
                out.append(f"### `{name}` {{#{_anchor(kind)}-{_anchor(name)}}}\n")
                out.append(_cell(then.get("description") or "") + "\n")
                if props:
                    out.append(self.table(props))
        return out

    def render(self) -> str:
        top = self.schema["properties"]
        out = [self.schema.get("description", "") + "\n"]
        sections = {"test_sets": "test-sets", "metrics": "metrics",
                    "significance": "significance"}
        out.append("## Top-level keys {#top-level-keys}\n")
        out.append(self.table(top, self.schema.get("required", []), sections.get))
        for key in ("test_sets", "significance"):
            node = self.object_items(top[key])
            if node is not None:
                out += self.section(f"`{key}`", sections[key], node, 2)
        out += self.metric_variants()
        out += self.components()
        return "\n".join(out)


def config_reference() -> str:
    return _Schema(config_schema()).render()


# ---------------------------------------------------------------- the hook reference

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc):`~?([^`]+)`")


def rest_to_markdown(text: str, fields: bool = True) -> str:
    """The reStructuredText of evalfw's docstrings as Markdown: roles as code,
    ``.. code-block::`` directives as fenced blocks and, with ``fields``, ``:returns:`` and
    ``:param x:`` fields in bold (mkdocstrings parses the fields itself)."""
    text = _ROLE.sub(r"`\1`", text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    if fields:
        text = re.sub(r"^:returns?:", "**Returns:**", text, flags=re.M)
        text = re.sub(r"^:param (\w+):", r"**\1:**", text, flags=re.M)
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        found = re.match(r"^(\s*)\.\. code-block:: *(\w*)", lines[i])
        if not found:
            out.append(lines[i])
            i += 1
            continue
        indent = len(found.group(1))
        out.append(f"```{found.group(2) or 'text'}")
        i += 1
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip()
                                  or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        depth = min(len(b) - len(b.lstrip()) for b in body if b.strip()) if body else 0
        out += [b[depth:] for b in body]
        out += ["```", ""]
    return "\n".join(out)


def hooks_reference() -> str:
    from evalfw.host.hookspecs import Hookspecs

    parts = []
    for name, function in vars(Hookspecs).items():
        if not name.startswith("evalfw_"):
            continue
        function = getattr(Hookspecs, name)
        returns = function.__annotations__.get("return", "None")
        signature = f"{inspect.signature(function).replace(return_annotation=inspect.Signature.empty)} -> {returns}"
        doc = inspect.getdoc(function) or ""
        parts.append(f"### `{name}` {{#{name.replace('_', '-')}}}\n\n"
                     f"```python\n@evalfw.hookimpl\ndef {name}{signature}: ...\n```\n\n"
                     f"{rest_to_markdown(doc)}\n")
    return "\n".join(parts)


GENERATORS: dict[str, Callable[[], str]] = {
    "cli": cli_reference,
    "config": config_reference,
    "hooks": hooks_reference,
}


def expand(markdown: str) -> str:
    """The page with each marker line replaced by its generated text."""
    def generated(found: re.Match[str]) -> str:
        name = found.group("name")
        if name not in GENERATORS:
            raise ValueError(f"unknown generated section {name!r} (known: {sorted(GENERATORS)})")
        return GENERATORS[name]()

    return MARKER.sub(generated, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs: fill in the generated sections of a page."""
    return expand(markdown)
