"""Validating a component's options against its ``options_schema`` and filling defaults."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evalfw.errors import ConfigError, suggest

if TYPE_CHECKING:
    from evalfw.components import Component


def resolve_options(cls: type[Component], options: dict[str, Any]) -> dict[str, Any]:
    """Return ``options`` with schema defaults filled in; raise ConfigError when invalid."""
    import jsonschema

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
    resolved = {k: v["default"] for k, v in props.items() if "default" in v}
    resolved.update(options)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(resolved), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        where = ".".join(str(p) for p in err.path) or "(options)"
        raise ConfigError(f"{cls.kind} '{cls.name}' option {where}: {err.message}")
    return resolved
