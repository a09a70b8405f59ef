"""What every pluggable component is: a class with a name, a version and an options schema.

A component's ``name`` is written once, on its class; the registry, CLI choices, schema enums,
signatures and ``evalfw plugins`` all derive from it. ``version`` is bumped whenever the
component's output could change, and ``options_schema`` (JSON Schema) describes the keyword
options ``__init__`` accepts; defaults in it are filled in, so recorded options are complete.

The contracts of each kind (tokenizer, counter, metric, reporter, ...) subclass
:class:`Component` in the package of that concept; ``evalfw.host.kinds`` lists them.
"""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from evalfw.names import unprintable
from evalfw.plugin.options import resolve_options

EMPTY_OPTIONS: Mapping[str, Any] = MappingProxyType(
    {"type": "object", "properties": {}, "additionalProperties": False}
)


class Component(ABC):
    """Base of every pluggable component.

    Subclasses set ``name`` and may set ``version``, ``description``, ``options_schema`` and
    ``imports`` (the modules the component imports only when it computes, such as a model
    library: ``evalfw plugins`` imports them and reports a plugin whose stack is broken).
    Contract classes (one per kind) set ``kind`` (the one word for the kind: registry key,
    config key, error messages) and ``plural`` (which names the hook
    ``evalfw_register_<plural>``).
    """

    kind: ClassVar[str] = "component"
    plural: ClassVar[str] = "components"
    name: ClassVar[str]
    version: ClassVar[str] = "1"
    description: ClassVar[str] = ""
    options_schema: ClassVar[Mapping[str, Any]] = EMPTY_OPTIONS
    imports: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **options: Any) -> None:
        self.options: Mapping[str, Any] = MappingProxyType(
            resolve_options(type(self), dict(options))
        )

    def option(self, key: str) -> Any:
        return self.options[key]

    def describe(self) -> str:
        """``name@version`` plus options, as it appears in signatures."""
        text = f"{self.name}@{self.version}"
        if self.options:
            inner = ",".join(f"{k}={_fmt(v)}" for k, v in sorted(self.options.items()))
            text += f"[{inner}]"
        return text

    def load_files(self) -> None:
        """Read now the files the component reads besides its inputs (a tokenizer's model),
        raising :class:`~evalfw.errors.EvalfwError` when one is missing or not the one its
        options ask for; none by default. ``evalfw verify`` calls it before re-running."""
        return None

    def __repr__(self) -> str:
        return f"<{self.kind} {self.describe()}>"


#: what a component's name may be: the rule of names in configs (``$defs/label`` of the
#: config schema), so a name never carries a newline, a control or a bidi character that
#: would spoof what a terminal shows
NAME_PATTERN = r"^[A-Za-z0-9._-]+$"
NAME_MAX = 128


def name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a component, or None."""
    if not isinstance(name, str):
        return f"its name is {type(name).__name__} {repr(name)[:40]}, not a string"
    if not name or len(name) > NAME_MAX or not re.fullmatch(NAME_PATTERN, name):
        return (f"its name {ascii(name)[:80]} is not 1 to {NAME_MAX} letters, digits, '.', '_' "
                "and '-'")
    return None


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    return str(value)


def declares(component: object, capability: str) -> bool:
    """Whether ``component``'s own class (not a base class of it) sets the capability flag
    ``capability`` to True.

    Fast paths are optional methods on the contracts (the joined-token lane, sacreBLEU's
    float32 resampling arithmetic), each guarded by a flag. A flag is
    never inherited: a subclass may change what the plain methods compute, so it has to
    declare again that its fast path still agrees with them. Any plugin class can opt in.
    """
    return vars(type(component)).get(capability) is True


__all__ = ["EMPTY_OPTIONS", "Component", "declares", "name_problem", "NAME_MAX",
           "NAME_PATTERN", "unprintable"]
