"""The plugin host as components see it (:class:`Registry`, :class:`Components`) and how a
component checks options beyond its schema (:class:`OptionChecker`): typing Protocols, in a
module of their own so that components import without :mod:`typing`
(``evalfw.plugin.component`` and ``evalfw.plugin.options`` hand them out by name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from evalfw.errors import ConfigError

if TYPE_CHECKING:
    from evalfw.plugin.component import Component


class Registry(Protocol):
    """The components of one kind, as a plugin host holds them (see ``evalfw.host.registry``)."""

    def names(self) -> list[str]: ...

    def get(self, name: str) -> type[Component]: ...

    def entry(self, name: str) -> Any:
        """The class with its provider (``.cls``, ``.plugin``, ``.name``)."""

    def __contains__(self, name: object) -> bool: ...


class Components(Protocol):
    """What a component made of other components (a metric such as BLEU) may ask the plugin
    host for: the registry of a kind, and an instance of a named component."""

    def registry(self, kind: str) -> Registry: ...

    def component(self, kind: str, name: str, options: Any = None) -> Any: ...


class OptionChecker(Protocol):
    """How a component checks options beyond its own ``options_schema`` (a metric checking
    the components it is made of): errors are reported at a key path relative to the
    component's options, and the caller (a config loader) turns that path into a position
    (``file:line:col``). See ``evalfw.config._choices``."""

    def check(self, schema: Mapping[str, Any], value: Any, path: tuple[str | int, ...],
              note: str = "") -> None:
        """Validate ``value`` at ``path`` against ``schema``; ``note`` ends the message."""

    def fail(self, path: tuple[str | int, ...], message: str,
             error: type[ConfigError] = ConfigError) -> NoReturn:
        """Raise ``error`` (a ConfigError subclass) located at ``path``."""


__all__ = ["Components", "OptionChecker", "Registry"]
