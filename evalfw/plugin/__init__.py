"""The plugin API: what a plugin module imports to provide components.

``hookimpl`` marks a plugin's hook implementations (``@evalfw.hookimpl``); every hook is
declared in :mod:`evalfw.host.hookspecs`. :class:`evalfw.plugin.component.Component` is the base
of every component class.
"""

import pluggy

#: pluggy's project name and the entry-point group plugins are published under
PROJECT = "evalfw"

#: Decorator for hook implementations in plugins: ``@evalfw.hookimpl``.
hookimpl = pluggy.HookimplMarker(PROJECT)

__all__ = ["PROJECT", "hookimpl"]
