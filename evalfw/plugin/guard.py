"""Plugin code that tries to end the process.

``SystemExit`` (``sys.exit()`` in a plugin) and other ``BaseException``s that are not
``KeyboardInterrupt`` pass through every ``except Exception``; without a guard, a smoothing
plugin calling ``sys.exit(0)`` would make ``evalfw score`` exit 0 with no output. evalfw itself
never raises them while working, so wherever plugin code runs (imports, hooks, components,
worker processes, the command line's safety net) they become a :class:`PluginError` naming the
module they came from.
"""

from __future__ import annotations

import sys
import sysconfig
from types import TracebackType

from evalfw.errors import PluginError

_OWN = ("evalfw.", "pluggy", "importlib", "multiprocessing", "concurrent", "runpy")


def _is_foreign(module: str, filename: str) -> bool:
    if module == "evalfw" or module.startswith(_OWN) or module in sys.stdlib_module_names:
        return False
    return not filename.startswith(sysconfig.get_paths()["stdlib"])


def culprit(tb: TracebackType | None) -> str | None:
    """The innermost module of a traceback that is neither evalfw's nor the standard library's
    (the plugin that raised), or None."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        module = str(frame.f_globals.get("__name__", ""))
        if _is_foreign(module.split(".")[0] if module.startswith("evalfw_local_plugin_")
                       else module, frame.f_code.co_filename):
            found = f"{module} ({frame.f_code.co_filename}:{tb.tb_lineno})"
        tb = tb.tb_next
    return found


def escaped(exc: BaseException, doing: str = "") -> PluginError:
    """The plugin error to raise for a ``BaseException`` that escaped plugin code."""
    who = culprit(exc.__traceback__)
    what = f"{type(exc).__name__}({', '.join(repr(a) for a in exc.args)})"
    return PluginError(
        f"plugin code {('in ' + who) if who else ''} raised {what}"
        f"{(' while ' + doing) if doing else ''}; a plugin may not end the process: fix or "
        "disable the plugin (--disable-plugin NAME)".replace("code  raised", "code raised"))


__all__ = ["culprit", "escaped"]
