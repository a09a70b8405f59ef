"""The plugin API: what a plugin module imports to provide components.

``hookimpl`` marks a plugin's hook implementations (``@evalfw.hookimpl``); every hook is
declared in :mod:`evalfw.host.hookspecs`. :class:`evalfw.plugin.component.Component` is the base
of every component class.

pluggy is imported when ``hookimpl`` is first asked for (a plugin module or the host), not by
code that only uses components.
"""

from __future__ import annotations

from typing import Any

#: pluggy's project name and the entry-point group plugins are published under
PROJECT = "evalfw"


def __getattr__(name: str) -> Any:
    if name != "hookimpl":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import pluggy

    #: Decorator for hook implementations in plugins: ``@evalfw.hookimpl``.
    marker = pluggy.HookimplMarker(PROJECT)
    globals()["hookimpl"] = marker
    return marker


__all__ = ["PROJECT", "hookimpl"]
