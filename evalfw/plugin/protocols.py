"""The plugin host as components see it (:class:`Registry`, :class:`Components`): typing
Protocols, in a module of their own so that components import without :mod:`typing` (type
hints import them from here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

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


__all__ = ["Components", "Registry"]
