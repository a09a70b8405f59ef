"""Validating a component's options against its ``options_schema`` and filling defaults.

Most schemas are flat: an object whose properties each use a few scalar keywords (``type``,
``enum``, ``minimum``...). Those are checked here directly, with jsonschema's exact semantics
and messages, because importing jsonschema costs more than scoring a small test set. Any
schema or value outside that small language (arrays, nested objects, other keywords, values
that are not plain scalars) goes to jsonschema itself, so both paths always agree.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from evalfw.errors import ConfigError, suggest

if TYPE_CHECKING:
    from evalfw.plugin.option_checker import OptionChecker as OptionChecker

#: top-level keywords the flat validator understands (annotations included)
_TOP_KEYWORDS = frozenset({"type", "properties", "additionalProperties", "description", "title"})
#: per-property keywords the flat validator understands
_PROP_KEYWORDS = frozenset({"type", "enum", "minimum", "maximum", "exclusiveMinimum",
                            "exclusiveMaximum", "default", "description", "title"})
#: JSON Schema's type names (an unknown one makes jsonschema raise: leave it to jsonschema)
_TYPES = frozenset({"integer", "number", "boolean", "string", "null", "object", "array"})
#: values (and enum members, bounds) the flat validator compares itself
_SCALARS = (bool, int, float, str, type(None))


def resolve_options(cls: type[Any], options: dict[str, Any]) -> dict[str, Any]:
    """Return ``options`` with schema defaults filled in; raise ConfigError when invalid.
    ``cls`` is a component class (its ``kind``, ``name`` and ``options_schema`` are read)."""
    schema = dict(cls.options_schema)
    props: dict[str, Any] = dict(schema.get("properties", {}))
    unknown = [k for k in options if k not in props]
    if unknown and schema.get("additionalProperties", True) is False:
        key = unknown[0]
        allowed = ", ".join(sorted(props)) or "none"
        raise ConfigError(
            f"{cls.kind} '{cls.name}' has no option '{key}'{suggest(key, props)}; "
            f"its options are: {allowed}"
        )
    resolved = {k: v["default"] for k, v in props.items() if isinstance(v, dict) and "default" in v}
    resolved.update(options)
    found = first_error(schema, resolved)
    if found is not None:
        where, message = found
        raise ConfigError(f"{cls.kind} '{cls.name}' option {where}: {message}")
    for key, value in resolved.items():  # JSON has no inf or NaN: a schema's number is finite
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{cls.kind} '{cls.name}' option {key}: {value!r} is not a finite "
                              "number")
    return resolved


def first_error(schema: dict[str, Any], values: dict[str, Any]) -> tuple[str, str] | None:
    """(where, message) of the error jsonschema lists first for ``values``, or None."""
    if is_flat(schema, values):
        return _flat_first_error(schema, values)
    return jsonschema_first_error(schema, values)


def jsonschema_first_error(schema: dict[str, Any], values: dict[str, Any]) -> tuple[str, str] | None:
    """The general path: jsonschema (Draft 2020-12), first error by instance path."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(values), key=lambda e: list(e.path))
    if not errors:
        return None
    err = errors[0]
    return ".".join(str(p) for p in err.path) or "(options)", err.message


def is_flat(schema: dict[str, Any], values: dict[str, Any]) -> bool:
    """Whether ``schema`` and ``values`` are in the small language checked here directly."""
    if not set(schema) <= _TOP_KEYWORDS or schema.get("type", "object") != "object":
        return False
    if not isinstance(schema.get("additionalProperties", True), bool):
        return False
    props = schema.get("properties", {})
    if not isinstance(props, dict):
        return False
    for key, sub in props.items():
        if not isinstance(sub, dict) or not set(sub) <= _PROP_KEYWORDS:
            return False
        types = sub.get("type", [])
        types = types if isinstance(types, list) else [types]
        if not all(isinstance(t, str) and t in _TYPES for t in types):
            return False
        if not all(type(e) in _SCALARS for e in sub.get("enum", [])):
            return False
        bounds = [sub[k] for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
                  if k in sub]
        if not all(type(b) in (int, float) for b in bounds):
            return False
        if key in values and type(values[key]) not in _SCALARS:
            return False
    return True


def _flat_first_error(schema: dict[str, Any], values: dict[str, Any]) -> tuple[str, str] | None:
    # jsonschema reports errors property by property in schema order, keyword by keyword in
    # subschema order; the caller sorts them by path (stable), so the first error belongs
    # to the smallest property name that has one.
    props = schema.get("properties", {})
    for key in sorted(k for k in props if k in values):
        for message in _property_errors(props[key], values[key]):
            return key, message
    return None


def _property_errors(sub: dict[str, Any], value: Any) -> Iterator[str]:
    is_number = type(value) in (int, float)
    for keyword, arg in sub.items():
        if keyword == "type":
            types = arg if isinstance(arg, list) else [arg]
            if not any(_is_type(value, t) for t in types):
                yield f"{value!r} is not of type {', '.join(repr(t) for t in types)}"
        elif keyword == "enum":
            if all(not _equal(each, value) for each in arg):
                yield f"{value!r} is not one of {arg!r}"
        elif not is_number:
            continue  # the bounds apply to numbers only
        elif keyword == "minimum" and value < arg:
            yield f"{value!r} is less than the minimum of {arg!r}"
        elif keyword == "maximum" and value > arg:
            yield f"{value!r} is greater than the maximum of {arg!r}"
        elif keyword == "exclusiveMinimum" and value <= arg:
            yield f"{value!r} is less than or equal to the minimum of {arg!r}"
        elif keyword == "exclusiveMaximum" and value >= arg:
            yield f"{value!r} is greater than or equal to the maximum of {arg!r}"


def _is_type(value: Any, name: str) -> bool:
    """jsonschema's Draft 2020-12 type checker, for plain scalars (1.0 is an integer)."""
    kind = type(value)
    if name == "integer":
        return kind is int or (kind is float and value.is_integer())
    return {
        "number": kind in (int, float), "boolean": kind is bool, "string": kind is str,
        "null": value is None, "object": False, "array": False,
    }.get(name, False)


def _equal(one: Any, two: Any) -> bool:
    """jsonschema's ``equal`` on scalars: True and 1 (False and 0) differ, 1 and 1.0 do not."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, bool) or isinstance(two, bool):
        return False  # one of them is a bool and they are not the same object
    return bool(one == two)


class PlainChecker:
    """An :class:`OptionChecker` without positions: errors name the key path only (used when
    options come from Python calls or the command line rather than a config file)."""

    def check(self, schema: Mapping[str, Any], value: Any, path: tuple[str | int, ...],
              note: str = "") -> None:
        found = first_error(dict(schema), value) if isinstance(value, dict) else \
            jsonschema_first_error(dict(schema), value)
        if found is not None:
            where, message = found
            self.fail(path, f"{where}: {message}{note}")

    def fail(self, path: tuple[str | int, ...], message: str,
             error: type[ConfigError] = ConfigError) -> NoReturn:
        where = ".".join(str(p) for p in path)
        raise error(f"{where}: {message}" if where else message)


__all__ = [
    "first_error", "is_flat", "jsonschema_first_error", "OptionChecker", "PlainChecker", "resolve_options",
]


def __getattr__(name: str) -> Any:
    if name == "OptionChecker":  # typing's Protocol, in a module of its own
        from evalfw.plugin.option_checker import OptionChecker

        return OptionChecker
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
