"""Choosing a component by name in options: checking the choice, and describing it in a schema.

A choice is a name or ``{name: ..., <options>}``. Checking one looks the name up in the plugin
host's registry of its kind ("did you mean", the available names and, when plugins failed to
load, which) and checks the options against the chosen class's own ``options_schema``, a
third party's or a built-in's alike. Configs (reporters, a test set's tokenizer) and metrics
made of components (BLEU) use the same functions; errors go through an
:class:`~evalfw.plugin.options.OptionChecker`, so a config reports them at ``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError, PluginError

if TYPE_CHECKING:
    from evalfw.plugin.options import OptionChecker
    from evalfw.plugin.protocols import Components

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class ComponentChoice:
    """A component chosen by name with options, as in a config."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


def plain(value: Any) -> Any:
    """A deep copy with every Mapping made a dict and every tuple a list (plugins may declare
    their ``options_schema`` as read-only mappings; jsonschema wants JSON types)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def lookup(host: Components, kind: str, name: str, path: Path, checker: OptionChecker) -> Any:
    """The registry entry (class and provider) of ``name``, or an error at ``path``."""
    try:
        return host.registry(kind).entry(name)
    except EvalfwError as exc:  # unknown name (with suggestions) or two providers
        checker.fail(path, str(exc), type(exc))  # type: ignore[arg-type]


def schema_problem(schema: Any) -> str | None:
    """Why ``schema`` cannot be a component's ``options_schema`` (not a mapping, not a valid
    JSON Schema, a ``$ref`` outside the schema itself, which validation would fetch), or
    None."""
    import jsonschema

    if not isinstance(schema, Mapping):
        return f"it is {type(schema).__name__}, not a mapping"
    try:
        found = plain(schema)
    except RecursionError:
        return "it is nested too deeply"
    # a property may be called "$ref" (a mapping then): only strings are references
    remote = next((v for k, v in _pairs(found) if k in ("$ref", "$dynamicRef")
                   and isinstance(v, str) and not v.startswith("#")), None)
    if remote is not None:
        return f"it refers to {remote[:80]!r}; an options schema may refer only to itself"
    if _plainly_valid(found):
        return None  # most schemas: valid without importing jsonschema
    try:
        jsonschema.Draft202012Validator.check_schema(found)
    except jsonschema.SchemaError as exc:
        return str(exc.message)
    except RecursionError:
        return "it is nested too deeply"
    return None


def _plainly_valid(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` is in the flat language :mod:`evalfw.plugin.options` validates
    itself, with every keyword's argument of the type JSON Schema requires."""
    from evalfw.plugin.options import is_flat

    if not is_flat(schema, {}):
        return False
    subs = [schema, *schema.get("properties", {}).values()]
    return all(isinstance(sub.get(k, ""), str) for sub in subs for k in ("description", "title")) \
        and all(isinstance(sub.get("enum", []), list) and sub.get("type") != []
                for sub in subs[1:])


def _pairs(value: Any) -> list[tuple[str, Any]]:
    """Every (key, value) of every mapping nested in ``value``."""
    out: list[tuple[str, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out += item.items()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return out


def check_schema_valid(entry: Any, kind: str) -> dict[str, Any]:
    """The entry's options schema as plain JSON, after checking it is a valid JSON Schema."""
    problem = schema_problem(entry.cls.options_schema)
    if problem is not None:
        raise PluginError(
            f"{entry.plugin.provider}: {kind.replace('_', ' ')} '{entry.name}' has an invalid "
            f"options_schema: {problem}; report this to the plugin's author")
    schema: dict[str, Any] = plain(entry.cls.options_schema)
    return schema


def check_choice(host: Components, kind: str, value: Any, path: Path, checker: OptionChecker,
                 default: Any = None) -> None:
    """Check one choice of a ``kind`` component at ``path``. ``default`` is the choice a
    mapping without ``name`` adjusts (what a BLEU preset picked for the slot)."""
    if isinstance(value, str):
        lookup(host, kind, value, path, checker)
        return
    options = {k: v for k, v in value.items() if k != "name"}
    if "name" in value:
        entry = lookup(host, kind, value["name"], (*path, "name"), checker)
    else:
        base = {"name": default} if isinstance(default, str) else dict(default or {})
        if not base.get("name"):
            checker.fail(path, f"no {kind.replace('_', ' ')} name given; write "
                               f"{{name: <{kind}>, ...}} (see `evalfw plugins --all`)")
        entry = lookup(host, kind, base.pop("name"), path, checker)
        options = {**base, **options}  # the default's options, adjusted by the given ones
    checker.check(check_schema_valid(entry, kind), options, path,
                  f" (options of {kind.replace('_', ' ')} '{entry.name}')")


def choices_text(host: Components, kind: str) -> str:
    """``name: description; ...`` of every registered component of ``kind``."""
    registry = host.registry(kind)
    out = []
    for name in registry.names():
        description = registry.get(name).description
        out.append(f"{name}: {description}" if description else name)
    return "; ".join(out)


def component_schema(host: Components, kind: str) -> dict[str, Any]:
    """A component of ``kind`` by name or with options, each name's options as ``if/then``
    (for ``evalfw schema``: editors complete names and check options)."""
    registry = host.registry(kind)
    names = registry.names()
    cases = []
    for name in names:
        cls = registry.get(name)
        options = plain(cls.options_schema)
        for k in ("$schema", "$id"):  # an embedded $id would change the base of every $ref
            options.pop(k, None)
        options["properties"] = {"name": {"const": name}, **options.get("properties", {})}
        if cls.description:
            options.setdefault("description", cls.description)
        cases.append({"if": {"required": ["name"], "properties": {"name": {"const": name}}},
                      "then": options})
    return {
        "description": f"A {kind.replace('_', ' ')} by name, or {{name: ..., <options>}}. "
                       + choices_text(host, kind),
        "anyOf": [
            {"type": "string", "enum": names},
            {"type": "object", "properties": {"name": {"enum": names}}, "allOf": cases},
        ],
    }


__all__ = ["ComponentChoice", "check_choice", "check_schema_valid", "choices_text",
           "component_schema", "lookup", "plain", "schema_problem"]
