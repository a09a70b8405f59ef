"""How a component checks options beyond its schema (:class:`OptionChecker`): a typing
Protocol in a module of its own, so that components import without :mod:`typing` (type hints
and :mod:`evalfw.plugin.options` import it from here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, Protocol

from evalfw.errors import ConfigError


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


__all__ = ["OptionChecker"]
