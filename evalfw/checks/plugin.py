"""Registers the built-in checks through the same hook as any third-party check (the classes
are imported inside the hook: a command that never runs checks does not load them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    from evalfw.checks.base import Check


@hookimpl
def evalfw_register_checks() -> list[type[Check]]:
    from evalfw.checks.builtin import BUILTIN
    from evalfw.checks.language import Language

    return [*BUILTIN, Language]


__all__ = ["evalfw_register_checks"]
