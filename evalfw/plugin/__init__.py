"""Plugin machinery: hook specifications, the plugin host, registries and option checking."""

import pluggy

from evalfw.plugin.hookspecs import PROJECT

#: Decorator for hook implementations in plugins: ``@evalfw.hookimpl``.
hookimpl = pluggy.HookimplMarker(PROJECT)

__all__ = ["hookimpl", "PROJECT"]
