"""The border between evalfw and a plugin component's code, for every kind whose methods
evalfw calls with its own data (metrics, :mod:`evalfw.metrics.boundary`; any kind that
declares a :class:`Contract`).

A guarded component (:func:`guard`) has each method of its kind's contract shadowed on the
instance by a :class:`Checked` call that

- hands the plugin read-only views of evalfw's data (:func:`readonly`: lists become tuples,
  numpy arrays views with ``writeable=False``, mappings read-only proxies), so a plugin cannot
  change what another metric scores, or what is stored, by writing into its arguments;
- turns anything the plugin raises (MemoryError and RecursionError included; evalfw's own
  errors pass as they are) into one :class:`BoundaryError` line naming the plugin, the kind,
  the class, the method and, where the contract can locate it, the first segment that fails;
- refuses a process fork or a running thread the call leaves behind
  (:mod:`evalfw.plugin.guard`);
- checks what it returns with the contract's check for the method, which gives the value as
  evalfw keeps it or refuses it (:class:`Refused`, with the first offending segment).

A caller that knows more about where the call happened (a test set and a system) adds it with
:meth:`BoundaryError.located`. The guard is against mistakes, not a sandbox: plugin code runs
in evalfw's process with its rights.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from evalfw.errors import EvalfwError, PluginError


class Refused(Exception):
    """A returned value evalfw does not accept: ``reason``, and the 0-based ``segment`` it
    concerns (None when it is not one segment's)."""

    def __init__(self, reason: str, segment: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.segment = segment


class Origin:
    """A component class with the plugin it came from, for messages about a component that is
    not built yet (its ``create`` raised)."""

    def __init__(self, cls: type[Any], plugin: Any) -> None:
        self.cls = cls
        self._evalfw_plugin = plugin


def provider(component: Any) -> str:
    """The plugin a component (or component class) comes from, as messages name it."""
    info = getattr(component, "_evalfw_plugin", None)
    if info is not None:
        return str(info.provider)
    return f"the plugin of module {_class(component).__module__}"


def _class(component: Any) -> type[Any]:
    if isinstance(component, Origin):
        return component.cls
    return component if isinstance(component, type) else type(component)


def who(component: Any, method: str) -> str:
    """``<plugin>: <kind> '<name>' (<module>.<class>).<method>``."""
    cls = _class(component)
    name = getattr(cls, "name", "?")
    kind = getattr(cls, "kind", "component")
    # a plugin file's module has a made-up name: the provider names its file already
    where = cls.__qualname__ if cls.__module__.startswith("evalfw_local_plugin_") \
        else f"{cls.__module__}.{cls.__qualname__}"
    return f"{provider(component)}: {kind} '{name}' ({where}).{method}"


def one_line(exc: BaseException) -> str:
    """``Type: message`` of an exception on one line of at most about 200 characters."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # a hostile __str__
        text = ""
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def advice(component: Any) -> str:
    """What to do about a plugin that failed."""
    info = getattr(component, "_evalfw_plugin", None)
    name = info.name if info is not None else "NAME"
    return f"; nothing was stored: fix the plugin or disable it (--disable-plugin {name})"


class BoundaryError(PluginError):
    """Plugin code raised, or returned a value evalfw refuses: ``what`` happened, at the
    0-based ``segment`` when one segment is to blame (its number counted from ``offset``, so
    a caller computing a shard can say where in the test set it is), in ``place`` (``test set
    'en-de', system 'A'``) when the caller knows it."""

    def __init__(self, what: str, advice: str = "", segment: int | None = None,
                 offset: int = 0, place: str = "") -> None:
        self.parts = (what, advice, segment, offset, place)
        at = [place] if place else []
        if segment is not None:
            at.append(f"first at segment {segment + offset + 1}")
        where = f" ({', '.join(at)})" if at else ""
        super().__init__(f"{what}{where}{advice}")

    @property
    def segment(self) -> int | None:
        return self.parts[2]

    def _copy(self, segment: int | None, offset: int, place: str) -> BoundaryError:
        what, advice, *_ = self.parts
        out = BoundaryError(what, advice, segment, offset, place)
        out.__cause__ = self.__cause__  # what the plugin raised, for --debug
        return out

    def shifted(self, offset: int) -> BoundaryError:
        """The same error, for segments counted from ``offset``."""
        return self._copy(self.parts[2], offset, self.parts[4])

    def at_segment(self, segment: int | None) -> BoundaryError:
        """The same error, blaming ``segment`` (when it blamed none)."""
        old = self.parts[2]
        return self._copy(old if old is not None else segment, self.parts[3], self.parts[4])

    def located(self, place: str) -> BoundaryError:
        """The same error, in ``place`` (kept when it names one already)."""
        return self._copy(self.parts[2], self.parts[3], self.parts[4] or place)

    def __reduce__(self) -> Any:  # from a worker process, with its parts
        return (BoundaryError, self.parts)


def place(test_set: str | None, system: str | None) -> str:
    """``test set 'en-de', system 'A'`` (either part left out when unknown), names escaped."""
    from evalfw.names import shown

    parts = []
    if test_set:
        parts.append(f"test set {shown(test_set, quote=True)}")
    if system:
        parts.append(f"system {shown(system, quote=True)}")
    return ", ".join(parts)


def raised(component: Any, method: str, exc: BaseException, segment: int | None = None
           ) -> BoundaryError:
    """The error for ``exc`` raised by plugin code in ``method``; when it came from deeper
    plugin code than the component's own (a component of another plugin), that code is
    named."""
    from evalfw.plugin.guard import PluginExit, culprit

    where = culprit(exc.__traceback__)
    what = one_line(exc)
    if isinstance(exc, PluginExit):
        what, where = exc.what, exc.where
    if where is not None and not where.startswith(_class(component).__module__ + " "):
        return BoundaryError(f"{who(component, method)} raised {what} in {where}",
                             "; nothing was stored: fix or disable the plugin of that code "
                             "(--disable-plugin NAME)", segment)
    return BoundaryError(f"{who(component, method)} raised {what}", advice(component), segment)


def refused(component: Any, method: str, found: Refused) -> BoundaryError:
    """The error for a value ``method`` returned that evalfw refuses."""
    return BoundaryError(f"{who(component, method)} returned {found.reason}",
                         advice(component), found.segment)


def call(component: Any, method: str, function: Callable[..., Any], *args: Any,
         locate: Callable[[], int | None] | None = None, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``, a plugin's code: whatever it raises becomes one
    PluginError naming ``method`` (``locate()`` finds the first failing segment); a fork or a
    thread it leaves running is refused (:func:`evalfw.plugin.guard.watched`)."""
    from evalfw.plugin.guard import culprit, watched

    try:
        with watched(lambda: who(component, method)):
            return function(*args, **kwargs)
    except BoundaryError as exc:  # a component inside the call (BLEU's smoothing) refused
        if exc.segment is None and locate is not None:
            raise exc.at_segment(_located(locate)) from exc.__cause__
        raise
    except (EvalfwError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # MemoryError, RecursionError, SystemExit from plugin code
        if isinstance(exc, MemoryError) and culprit(exc.__traceback__) is None:
            raise  # evalfw's own code ran out of memory (a built-in metric's): not a plugin's
        where = None
        if locate is not None and not isinstance(exc, MemoryError):
            where = _located(locate)
        raise raised(component, method, exc, where) from exc


def _located(locate: Callable[[], int | None]) -> int | None:
    try:
        return locate()
    except (KeyboardInterrupt, MemoryError):
        raise
    except BaseException:  # locating is a courtesy; the first error is the one
        return None


def checked(component: Any, method: str, value: Any, check: Callable[..., Any],
            *args: Any) -> Any:
    """``check(value, *args)``, refusing the value in the name of ``method``."""
    try:
        return check(value, *args)
    except Refused as found:
        raise refused(component, method, found) from None


# ----------------------------------------------------------------------------- read-only data

#: types whose values cannot be changed in place: passed as they are
_IMMUTABLE = (str, bytes, int, float, bool, complex, type(None), frozenset, range)


def readonly(value: Any, depth: int = 3) -> Any:
    """``value`` as plugin code may receive it: a view it cannot write through.

    A numpy array becomes a view with ``writeable=False`` (no copy); a list or tuple a tuple
    of such values; a mapping a read-only proxy of such values; an object whose class has a
    ``readonly_view()`` (a :class:`~evalfw.metrics.base.SegmentContext`) that view; an
    iterator yields such values. Nesting is followed ``depth`` levels deep (reference streams
    are two); strings and numbers are immutable already, and other objects pass as they are
    (a metric's own reference preparation is its own)."""
    if isinstance(value, _IMMUTABLE):
        return value
    np = sys.modules.get("numpy")  # an array can only come from a loaded numpy
    if np is not None and isinstance(value, np.ndarray):
        # always a view: one of an array evalfw keeps read-only (stored statistics) cannot be
        # made writeable again, as that array itself could
        view = value.view()
        view.flags.writeable = False
        return view
    if depth <= 0:
        return value
    if type(value) in (list, tuple):  # a named tuple is a metric's own value: as it is
        items = tuple(value)
        kinds = set(map(type, items))
        if kinds <= {str, type(None)}:  # lines of text: the common case, one pass in C
            return items
        return tuple(readonly(v, depth - 1) for v in items)
    if type(value) in (dict, MappingProxyType):
        return MappingProxyType({k: readonly(v, depth - 1) for k, v in value.items()})
    view = getattr(type(value), "readonly_view", None)
    if view is not None:  # evalfw's own value objects (a SegmentContext) know their views
        return view(value)
    if hasattr(value, "__next__"):  # a generator of arrays (scales resolved over systems)
        return (readonly(v, depth - 1) for v in value)
    return value


# ----------------------------------------------------------------------------- contracts


@dataclass(frozen=True)
class Contract:
    """What evalfw checks of one kind's components.

    ``checks``: method -> ``check(component, value, *args, **kwargs)`` of what the method
    returned (the value as evalfw uses it from then on, or :class:`Refused`); every method
    named here is guarded. ``attributes``: attribute (or property) -> ``check(value)``, read
    once on the instance when it is guarded. ``locators``: method -> ``locate(component,
    function, args)``, the first segment whose data alone makes the plugin's ``function``
    raise (None: unknown), for the message.
    """

    checks: Mapping[str, Callable[..., Any]]
    attributes: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    locators: Mapping[str, Callable[[Any, Callable[..., Any], tuple[Any, ...]], int | None]] \
        = field(default_factory=dict)


class Checked:
    """A component method as evalfw calls it (see the module docstring): the plugin's method
    on read-only arguments, then the contract's check on what it returned."""

    def __init__(self, component: Any, method: str, contract: Contract) -> None:
        self.component = component
        self.method = method
        self.contract = contract

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        component, method = self.component, self.method
        function = getattr(type(component), method).__get__(component)
        args = tuple(readonly(a) for a in args)
        kwargs = {k: readonly(v) for k, v in kwargs.items()}
        find = self.contract.locators.get(method)
        locate = (lambda: find(component, function, args)) if find is not None else None
        value = call(component, method, function, *args, locate=locate, **kwargs)
        try:
            return self.contract.checks[method](component, value, *args, **kwargs)
        except Refused as found:
            if found.segment is None and locate is not None and method != "score_rows":
                found.segment = _located(locate)
            raise refused(component, method, found) from None


def guard(component: Any, contract: Contract) -> Any:
    """``component`` with every method of ``contract`` checked (idempotent)."""
    first = next(iter(contract.checks))
    if isinstance(vars(component).get(first), Checked):
        return component
    for attribute, check in contract.attributes.items():
        value = call(component, attribute, getattr, component, attribute, None)
        checked(component, attribute, value, check)
    for method in contract.checks:
        object.__setattr__(component, method, Checked(component, method, contract))
    return component


__all__ = ["advice", "BoundaryError", "call", "Checked", "checked", "Contract", "guard",
           "one_line", "Origin", "place", "provider", "raised", "readonly", "refused",
           "Refused", "who"]
