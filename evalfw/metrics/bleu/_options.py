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

from evalfw.limits import LIMITS
from evalfw.metrics.bleu.spec import ALIASES, COMPONENT_KEYS, DEFAULT_PRESET
from evalfw.plugin.choices import (
    check_choice,
    choices_text,
    component_schema,
    lookup,
    plain,
)

if TYPE_CHECKING:
    from evalfw.plugin.options import OptionChecker
    from evalfw.plugin.protocols import Components

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
        "max_order": LIMITS["max_order"].schema(),
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


def parse_weights(text: str) -> list[list[float]]:
    """``--weights``: comma-separated numbers, several tuples separated by ``;``."""
    try:
        return [[float(x) for x in part.split(",")] for part in text.split(";") if part.strip()]
    except ValueError:
        raise ValueError(f"expected numbers like 0.25,0.25,0.25,0.25, got {text!r}") from None


def check_components(options: Mapping[str, Any], host: Components,
                     checker: OptionChecker) -> None:
    """Every component a BLEU metric entry names exists, and its options fit its schema."""
    preset_name = options.get("preset", DEFAULT_PRESET)
    preset = lookup(host, "preset", preset_name, ("preset",), checker).cls
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


# --------------------------------------------------------------------------- evalfw schema


def config_schema(host: Components) -> dict[str, Any]:
    """:data:`OPTIONS_SCHEMA` with the installed presets and components (names, options)."""
    schema: dict[str, Any] = plain(OPTIONS_SCHEMA)
    props = schema["properties"]
    for key in COMPONENT_KEYS:
        props[key] = component_schema(host, key)
    props["precision"] = {**component_schema(host, "counter"),
                          "description": "Older name of 'counter'."}
    presets = host.registry("preset")
    props["preset"] = {**props["preset"], "enum": presets.names(),
                       "description": choices_text(host, "preset")}
    return schema


__all__ = ["OPTIONS_SCHEMA", "check_components", "config_schema", "parse_weights"]
