"""BLEU's options: their JSON Schema, the checks of the components they name, and the schema
``evalfw schema`` shows with the installed components' names and options.

A metric entry of a config (``metric: bleu``, the default) takes these keys; so do
``evalfw score`` flags and :func:`evalfw.corpus_bleu` keyword arguments
(:mod:`evalfw.metrics.bleu.spec` resolves them). A component is chosen by name or as
``{name: ..., <options>}``; a mapping without ``name`` adjusts the options of the component the
preset chose. Errors are reported through an :class:`~evalfw.plugin.options.OptionChecker`,
at key paths relative to the metric entry, so a config names ``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalfw.errors import EvalfwError
from evalfw.metrics.bleu.spec import ALIASES, COMPONENT_KEYS, DEFAULT_PRESET

if TYPE_CHECKING:
    from evalfw.plugin.component import Components
    from evalfw.plugin.options import OptionChecker

#: a component chosen by name, or as {name: ..., <options>}
_COMPONENT: dict[str, Any] = {
    "description": "A component name, or {name: ..., <options>}; without name, options adjust "
                   "the preset's choice.",
    "type": ["string", "object"],
    "minLength": 1,
    "properties": {"name": {"type": "string", "minLength": 1}},
}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "preset": {"description": "Bundle of component choices (default sacrebleu).",
                   "type": "string", "minLength": 1, "default": DEFAULT_PRESET},
        **{key: dict(_COMPONENT) for key in COMPONENT_KEYS},
        "precision": {**_COMPONENT, "description": "Older name of 'counter'."},
        "max_order": {"type": "integer", "minimum": 1, "maximum": 100},
        "lowercase": {"type": "boolean"},
        "effective_order": {"type": "boolean"},
        "auto_reweigh": {"type": "boolean"},
        "smooth_value": {"type": "number"},
        "weights": {
            "description": "One weight tuple, or several (one score each).",
            "type": "array",
            "minItems": 1,
            "items": {"anyOf": [{"type": "number"},
                                {"type": "array", "minItems": 1, "items": {"type": "number"}}]},
        },
    },
    "additionalProperties": False,
}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _entry_class(host: Components, kind: str, name: str, path: tuple[str | int, ...],
                 checker: OptionChecker) -> Any:
    try:
        return host.registry(kind).get(name)
    except EvalfwError as exc:  # unknown name (with suggestions) or two providers
        checker.fail(path, str(exc), type(exc))


def check_choice(host: Components, kind: str, value: Any, path: tuple[str | int, ...],
                 checker: OptionChecker, preset_choice: Any = None) -> None:
    """Check one component choice (``preset_choice``: what the preset picked for the slot)."""
    if isinstance(value, str):
        _entry_class(host, kind, value, path, checker)
        return
    options = {k: v for k, v in value.items() if k != "name"}
    if "name" in value:
        cls = _entry_class(host, kind, value["name"], (*path, "name"), checker)
    else:
        base = {"name": preset_choice} if isinstance(preset_choice, str) else dict(
            preset_choice or {})
        if not base.get("name"):
            checker.fail(path, f"no {kind.replace('_', ' ')} name given; write "
                               f"{{name: <{kind}>, ...}} (see `evalfw plugins --all`)")
        cls = _entry_class(host, kind, base.pop("name"), path, checker)
        options = {**base, **options}  # the preset's options, adjusted by the config's
    checker.check(_plain(cls.options_schema), options, path,
                  f" (options of {kind.replace('_', ' ')} '{cls.name}')")


def check_components(options: Mapping[str, Any], host: Components,
                     checker: OptionChecker) -> None:
    """Every component a BLEU metric entry names exists, and its options fit its schema."""
    preset_name = options.get("preset", DEFAULT_PRESET)
    preset = _entry_class(host, "preset", preset_name, ("preset",), checker)
    settings = getattr(preset, "settings", {}) or {}
    settings = {ALIASES.get(k, k): v for k, v in settings.items()}
    for alias, key in ALIASES.items():
        if alias in options and key in options:
            checker.fail((alias,), f"'{alias}' and '{key}' both choose the {key}; "
                                   f"give '{key}' only")
    for key in COMPONENT_KEYS:
        for written in (key, *(a for a, k in ALIASES.items() if k == key)):
            if written in options:
                check_choice(host, key, options[written], (written,), checker, settings.get(key))


def check_test_set_tokenizer(value: Any, host: Components, checker: OptionChecker) -> None:
    """A test set's default tokenizer (``test_sets[i].tokenizer``)."""
    check_choice(host, "tokenizer", value, (), checker)


# --------------------------------------------------------------------------- evalfw schema


def _choices_text(host: Components, kind: str) -> str:
    registry = host.registry(kind)
    out = []
    for name in registry.names():
        description = registry.get(name).description
        out.append(f"{name}: {description}" if description else name)
    return "; ".join(out)


def component_schema(host: Components, kind: str) -> dict[str, Any]:
    """A component of ``kind`` by name or with options, each name's options as ``if/then``."""
    registry = host.registry(kind)
    names = registry.names()
    cases = []
    for name in names:
        cls = registry.get(name)
        options = _plain(cls.options_schema)
        for k in ("$schema", "$id"):  # an embedded $id would change the base of every $ref
            options.pop(k, None)
        options["properties"] = {"name": {"const": name}, **options.get("properties", {})}
        if cls.description:
            options.setdefault("description", cls.description)
        cases.append({"if": {"required": ["name"], "properties": {"name": {"const": name}}},
                      "then": options})
    return {
        "description": f"A {kind.replace('_', ' ')} by name, or {{name: ..., <options>}}. "
                       + _choices_text(host, kind),
        "anyOf": [
            {"type": "string", "enum": names},
            {"type": "object", "properties": {"name": {"enum": names}}, "allOf": cases},
        ],
    }


def config_schema(host: Components) -> dict[str, Any]:
    """:data:`OPTIONS_SCHEMA` with the installed presets and components (names, options)."""
    schema = _plain(OPTIONS_SCHEMA)
    props = schema["properties"]
    for key in COMPONENT_KEYS:
        props[key] = component_schema(host, key)
    props["precision"] = {**component_schema(host, "counter"),
                          "description": "Older name of 'counter'."}
    presets = host.registry("preset")
    props["preset"] = {**props["preset"], "enum": presets.names(),
                       "description": _choices_text(host, "preset")}
    return schema


__all__ = ["OPTIONS_SCHEMA", "check_choice", "check_components", "check_test_set_tokenizer",
           "component_schema", "config_schema"]
