"""Plugin code that tries to control the process: end it, fork it, or keep it alive.

``SystemExit`` (``sys.exit()`` in a plugin) and other ``BaseException``s that are not
``KeyboardInterrupt`` pass through every ``except Exception``; without a guard, a smoothing
plugin calling ``sys.exit(0)`` would make ``evalfw score`` exit 0 with no output. evalfw itself
never raises them while working, so wherever plugin code runs (imports, hooks, components,
worker processes, the command line's safety net) they become a :class:`PluginError` naming the
module they came from.

Three more ways out are closed where plugin code is called (:func:`watched`, used by every
guarded call, :mod:`evalfw.plugin.boundary`):

- ``os._exit()`` called by plugin code while a command runs (:func:`exits_refused`) raises
  :class:`PluginExit` in its place, so it becomes the same one-line error instead of an exit
  with status 0 and no output. Forked worker processes and evalfw's own code exit as usual.
- ``os.fork()`` called by plugin code itself (not through ``multiprocessing`` or
  ``subprocess``, whose children never return into the caller) is refused once the call
  returns; the forked child is stopped when it returns into evalfw, so it stores and prints
  nothing and is no orphan working on.
- A non-daemon thread plugin code starts and leaves running would keep the process alive
  after the command ends: :func:`check_threads` refuses it before a run stores anything and
  when a command ends, and :func:`stuck` tells the command line to end the process at once
  rather than wait for it.
"""

from __future__ import annotations

import os
import signal
import sys
import sysconfig
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

from evalfw.errors import PluginError

_OWN = ("evalfw.", "pluggy", "importlib", "multiprocessing", "concurrent", "runpy")

#: the exit status of a forked child that returned into evalfw (its parent reports it)
FORKED_CHILD_STATUS = 70
#: seconds a command waits for threads plugin code left running before it refuses them
THREAD_GRACE_SECONDS = 2.0


def _is_foreign(module: str, filename: str) -> bool:
    if module == "evalfw" or module.startswith(_OWN) or module in sys.stdlib_module_names:
        return False
    return not filename.startswith(sysconfig.get_paths()["stdlib"])


def _frame_module(frame: FrameType) -> str:
    module = str(frame.f_globals.get("__name__", ""))
    return module.split(".")[0] if module.startswith("evalfw_local_plugin_") else module


def _foreign_frame(frame: FrameType | None) -> str | None:
    """``module (file:line)`` of ``frame`` when it is plugin code, else None."""
    if frame is None or not _is_foreign(_frame_module(frame), frame.f_code.co_filename):
        return None
    return f"{frame.f_globals.get('__name__', '?')} ({frame.f_code.co_filename}:{frame.f_lineno})"


def culprit(tb: TracebackType | None) -> str | None:
    """The innermost module of a traceback that is neither evalfw's nor the standard library's
    (the plugin that raised), or None."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        if _is_foreign(_frame_module(frame), frame.f_code.co_filename):
            found = f"{frame.f_globals.get('__name__', '')} ({frame.f_code.co_filename}:" \
                    f"{tb.tb_lineno})"
        tb = tb.tb_next
    return found


def escaped(exc: BaseException, doing: str = "") -> PluginError:
    """The plugin error to raise for a ``BaseException`` that escaped plugin code."""
    who: str | None
    if isinstance(exc, PluginExit):
        who, what = exc.where, exc.what
    else:
        who = culprit(exc.__traceback__)
        what = f"{type(exc).__name__}({', '.join(repr(a) for a in exc.args)})"
    return PluginError(
        f"plugin code {('in ' + who) if who else ''} raised {what}"
        f"{(' while ' + doing) if doing else ''}; a plugin may not end the process: fix or "
        "disable the plugin (--disable-plugin NAME)".replace("code  raised", "code raised"))


# ----------------------------------------------------------------------------- os._exit


class PluginExit(BaseException):
    """Raised in place of ``os._exit(status)`` called by plugin code (``where``) while a
    command runs: like ``SystemExit``, it passes through the plugin's ``except Exception``."""

    def __init__(self, what: str, where: str) -> None:
        super().__init__(what)
        self.what, self.where = what, where


_REAL_EXIT = os._exit
_guarded_pid: int | None = None


def _exit(status: int) -> None:
    if os.getpid() == _guarded_pid:
        where = _foreign_frame(sys._getframe(1))
        if where is not None:
            raise PluginExit(f"os._exit({status!r})", where)
    _REAL_EXIT(status)


@contextmanager
def exits_refused() -> Iterator[None]:
    """While a command runs in this process: ``os._exit()`` called by plugin code raises
    :class:`PluginExit` (other callers, and forked children, exit as usual)."""
    global _guarded_pid
    before, previous = os._exit, _guarded_pid
    _guarded_pid = os.getpid()
    os._exit = _exit  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit, _guarded_pid = before, previous


# ----------------------------------------------------------------------------- os.fork

#: plugin code that called os.fork() in this process, not yet reported (the parent's side)
_forks: list[str] = []
#: set in a child forked by plugin code: who forked it
_forked_by: str | None = None
_forking: str | None = None


def _before_fork() -> None:
    global _forking
    # the frame that called os.fork (or os.forkpty): multiprocessing's, or plugin code's
    _forking = _foreign_frame(sys._getframe(1))


def _after_fork_parent() -> None:
    global _forking
    if _forking is not None:
        _forks.append(_forking)
    _forking = None


def _after_fork_child() -> None:
    global _forking, _forked_by
    if _forking is not None:
        _forked_by = _forking
        _forks.clear()
    _forking = None
    # the command line turns SIGTERM and SIGHUP into an exception in its own process; a child
    # (a plugin's multiprocessing pool, which ends its workers with SIGTERM) dies of them as
    # processes do (evalfw's own workers set their signals when they start)
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and getattr(signal.getsignal(signum), "__module__", "") \
                == "evalfw.cli._start":
            signal.signal(signum, signal.SIG_DFL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_parent,
                        after_in_child=_after_fork_child)


# ----------------------------------------------------------------------------- threads

#: threads plugin code started and left running: (thread, who started it)
_threads: list[tuple[threading.Thread, str]] = []


def _would_hang(thread: threading.Thread) -> bool:
    """A live non-daemon thread the interpreter would wait for at exit (a
    ``concurrent.futures`` pool's workers are ended by the pool's own exit hook: they do not
    count)."""
    if thread.daemon or not thread.is_alive() or thread is threading.main_thread() \
            or thread is threading.current_thread():
        return False
    target = getattr(thread, "_target", None) or thread.run
    return not str(getattr(target, "__module__", "") or "").startswith("concurrent.futures")


@contextmanager
def watched(who: Callable[[], str]) -> Iterator[None]:
    """Around a call into plugin code (``who()`` names it): a fork the code made itself is
    refused when the call returns, and its child stopped as it returns into evalfw; a
    non-daemon thread the code started and left running is noted for :func:`check_threads`."""
    forks = len(_forks)
    before = threading.active_count()
    alive = set(threading.enumerate()) if before > 1 else None
    try:
        yield
    finally:
        if _forked_by is not None:  # a child of the plugin's fork came back into evalfw
            _REAL_EXIT(FORKED_CHILD_STATUS)
    if len(_forks) > forks:
        where = _forks[forks]
        del _forks[forks:]
        raise PluginError(f"{who()} called os.fork() in {where}; plugin code may not fork "
                          "evalfw's process (its child would go on running evalfw): start "
                          "processes with subprocess or multiprocessing; nothing was stored: "
                          "fix or disable the plugin (--disable-plugin NAME)")
    if threading.active_count() > before:
        for thread in threading.enumerate():
            if (alive is None or thread not in alive) and _would_hang(thread):
                _threads.append((thread, who()))


def check_threads(grace: float = THREAD_GRACE_SECONDS) -> None:
    """Refuse a thread plugin code started and left running (after waiting ``grace`` seconds
    in all for such threads to end): the process would not end while it runs. A fork plugin
    code made outside a guarded call (at import) is refused here too, and its child stopped."""
    if _forked_by is not None:  # the child of such a fork got this far: it does no more
        _REAL_EXIT(FORKED_CHILD_STATUS)
    if _forks:
        where = _forks[0]
        _forks.clear()
        raise PluginError(f"plugin code in {where} called os.fork(); plugin code may not fork "
                          "evalfw's process: start processes with subprocess or "
                          "multiprocessing; nothing was stored: fix or disable the plugin "
                          "(--disable-plugin NAME)")

    stop = time.monotonic() + grace
    for thread, _ in list(_threads):
        thread.join(max(0.0, stop - time.monotonic()))
    _threads[:] = [(t, w) for t, w in _threads if t.is_alive()]
    if _threads:
        thread, who = _threads[0]
        raise PluginError(f"{who} started thread '{thread.name}' and left it running; evalfw "
                          "would wait for it forever at exit: plugin code must end (join) "
                          "its threads or make them daemon threads; nothing was stored: fix "
                          "or disable the plugin (--disable-plugin NAME)")


def stuck() -> bool:
    """Whether a thread left running by plugin code would keep the process from ending."""
    return any(t.is_alive() for t, _ in _threads)


__all__ = ["check_threads", "culprit", "escaped", "exits_refused", "FORKED_CHILD_STATUS",
           "PluginExit", "stuck", "THREAD_GRACE_SECONDS", "watched"]
