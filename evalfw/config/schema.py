"""The experiment JSON Schema (draft 2020-12) and turning its violations into our messages.

``experiment.schema.json`` is the static part shipped with the package. :func:`combined_schema`
adds what only the loaded plugins know: the component names of each kind and, per component,
its own ``options_schema`` (as ``if name == X then <X's options>``), so that editors can
complete and check a config including third-party components.

Validation itself reports the first violation in document order as one line
``file:line:col: key.path: what was expected``; see :func:`check_schema`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

import jsonschema
from jsonschema.exceptions import ValidationError

from evalfw.config._locate import KeyPath, Locations
from evalfw.config.model import DEFAULT_METRIC, ENTRY_KEYS
from evalfw.errors import ConfigError, suggest
from evalfw.limits import LIMITS
from evalfw.plugin.choices import choices_text, component_schema, plain

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric

_TYPE_WORDS = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "true or false", "array": "a list", "object": "a mapping", "null": "null",
}


@cache
def _static_text() -> str:
    return resources.files("evalfw.config").joinpath("experiment.schema.json").read_text("utf-8")


#: integer settings of the shipped schema whose bounds are taken from :data:`LIMITS`, so a
#: value refused in a config is refused on the command line too (and the other way round)
BOUNDED: dict[tuple[str, ...], str] = {
    ("seed",): "seed",
    ("significance", "samples"): "samples",
    ("significance", "ar_trials"): "ar_trials",
    ("significance", "worst_segments"): "worst_segments",
}


def static_schema() -> dict[str, Any]:
    """A fresh copy of the shipped schema (no plugin knowledge), bounds from :data:`LIMITS`,
    the significance corrections and families from :mod:`evalfw.analysis.results`."""
    from evalfw.analysis.results import CORRECTIONS, FAMILIES

    schema: dict[str, Any] = json.loads(_static_text())
    for path, key in BOUNDED.items():
        node = schema
        for name in path:
            node = node["properties"][name]
        node["minimum"], node["maximum"] = LIMITS[key].low, LIMITS[key].high
    significance = schema["properties"]["significance"]["properties"]
    # the choices the analysis implements, written once there
    significance["correction"]["enum"] = list(CORRECTIONS)
    significance["family"]["enum"] = list(FAMILIES)
    return schema


def combined_schema(host: PluginHost) -> dict[str, Any]:
    """The static schema plus what the plugins know: metric names with each metric's options
    (``if metric == X then X's options``), reporter and tokenizer names with their options."""
    schema = static_schema()
    defs = schema["$defs"]
    defs["component_reporter"] = component_schema(host, "reporter")
    defs["component_tokenizer"] = component_schema(host, "tokenizer")
    defs["component_executor"] = component_schema(host, "executor")
    schema["properties"]["executor"] = {**schema["properties"]["executor"],
                                        "$ref": "#/$defs/component_executor"}
    defs["test_set"]["properties"]["tokenizer"] = {"$ref": "#/$defs/component_tokenizer"}
    schema["properties"]["reports"]["items"] = {"$ref": "#/$defs/component_reporter"}
    defs["component_check"] = component_schema(host, "check")
    schema["properties"]["checks"]["anyOf"][1]["items"] = {"$ref": "#/$defs/component_check"}
    metric = defs["metric"]
    metrics = host.registry("metric")
    metric["properties"]["metric"] = {**metric["properties"]["metric"],
                                      "enum": metrics.names(),
                                      "description": choices_text(host, "metric")}
    cases = []
    for name in metrics.names():
        # the metric registry holds Metric subclasses only (checked when they register)
        options = plain(cast("type[Metric]", metrics.get(name)).config_schema(host))
        props = {**{k: metric["properties"][k] for k in ENTRY_KEYS},
                 **options.get("properties", {})}
        when: dict[str, Any] = {"properties": {"metric": {"const": name}}}
        if name == DEFAULT_METRIC:  # an entry without ``metric`` is a BLEU entry
            when = {"anyOf": [{"not": {"required": ["metric"]}}, when]}
        else:
            when["required"] = ["metric"]
        cases.append({"if": when, "then": {"properties": props,
                                           "additionalProperties": False}})
    metric["allOf"] = cases
    return schema


# --------------------------------------------------------------------------- error messages


def check_schema(schema: Mapping[str, Any], instance: Any, locations: Locations,
                 prefix: KeyPath = ()) -> None:
    """Raise ConfigError for the first violation (in document order) of ``schema``."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(validator.iter_errors(instance))
    if not errors:
        return
    err = min(errors, key=lambda e: locations.sort_key((*prefix, *e.absolute_path)))
    raise explain(err, locations, prefix)


def _describe(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    kind = next((w for t, w in _TYPE_WORDS.items()
                 if jsonschema.Draft202012Validator.TYPE_CHECKER.is_type(value, t)), "a value")
    text = json.dumps(value, ensure_ascii=False, default=str)
    return f"{kind} {text if len(text) <= 60 else text[:57] + '...'}"


def _expected_types(types: Any) -> str:
    types = [types] if isinstance(types, str) else list(types)
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types)


def explain(err: ValidationError, locations: Locations, prefix: KeyPath = ()) -> ConfigError:
    """One ValidationError as ``<where>: <key path>: <what was expected>``."""
    if err.validator in ("anyOf", "oneOf") and err.context:
        deeper = [e for e in err.context if e.relative_path]
        if deeper:  # one alternative got further: its complaint is the useful one
            return explain(max(deeper, key=lambda e: len(e.relative_path)), locations, prefix)
        types = [e.validator_value for e in err.context if e.validator == "type"]
        if types:
            flat = [t for ts in types for t in ([ts] if isinstance(ts, str) else ts)]
            return locations.error((*prefix, *err.absolute_path),
                                   f"expected {_expected_types(flat)}, got {_describe(err.instance)}")
    path: KeyPath = (*prefix, *err.absolute_path)
    v, want, got = err.validator, err.validator_value, err.instance
    schema = err.schema if isinstance(err.schema, Mapping) else {}
    if v == "additionalProperties" and isinstance(got, Mapping):
        allowed = sorted(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        extra = next((k for k in got if k not in allowed
                      and not any(re.search(p, k) for p in patterns)), None)
        if extra is None:
            return locations.error(path, err.message)
        return locations.error((*path, extra), (
            f"unknown key '{extra}'{suggest(extra, allowed)}; "
            f"allowed keys: {', '.join(allowed) or 'none'}"), key=True)
    if v == "required":
        missing = [k for k in want if k not in got]
        return locations.error(path, f"missing required key '{missing[0]}'")
    if v == "type":
        msg = f"expected {_expected_types(want)}, got {_describe(got)}"
    elif v == "const" and path == ("schema_version",):
        msg = f"unsupported schema_version {got!r}; this evalfw reads schema_version {want}"
    elif v in ("const", "enum"):
        options = [want] if v == "const" else list(want)
        hint = suggest(got, [str(o) for o in options]) if isinstance(got, str) else ""
        msg = f"expected {' or '.join(json.dumps(o) for o in options)}, got {_describe(got)}{hint}"
    elif v == "minLength":
        msg = "must not be empty"
    elif v == "minItems":
        msg = f"needs at least {want} item{'s' if want != 1 else ''}, got {len(got)}"
    elif v == "minProperties":
        msg = f"needs at least {want} entr{'ies' if want != 1 else 'y'}"
    elif v == "uniqueItems":
        msg = f"items must be unique, got {_describe(got)}"
    elif v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        op = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">",
              "exclusiveMaximum": "<"}[v]
        msg = f"expected a number {op} {want}, got {_describe(got)}"
    else:
        msg = err.message
    if "x-expected" in schema and v not in ("type", "required"):
        msg = f"expected {schema['x-expected']}, got {_describe(got)}"
    return locations.error(path, msg)


__all__ = ["BOUNDED", "check_schema", "combined_schema", "explain", "static_schema"]
