"""The plugin host: one pluggy manager per run, passed explicitly.

Load order (documented, deterministic): built-in plugin modules, then entry points of group
``evalfw`` sorted by (distribution, name), then ``*.py`` files of plugin directories in name
order, then objects given by the caller. A plugin that fails to load is recorded with its error
and skipped; commands that do not need it keep working.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from evalfw.errors import PluginError
from evalfw.host.hookspecs import Hookspecs
from evalfw.host.kinds import BY_KIND, HOOKS
from evalfw.host.kinds import hook_name as kind_hook
from evalfw.host.registry import ComponentEntry, ComponentRegistry, PluginInfo
from evalfw.plugin import PROJECT
from evalfw.plugin.choices import schema_problem
from evalfw.plugin.component import Component, name_problem

if TYPE_CHECKING:
    import importlib.metadata

    from evalfw.metrics.base import Metric

#: the built-in plugin modules, registered first and through the same hooks as any plugin
BUILTIN_PLUGINS = (
    "evalfw.metrics.bleu.plugin",
    "evalfw.metrics.chrf.plugin",
    "evalfw.metrics.ter.plugin",
    "evalfw.metrics.segment_scores",
    "evalfw.metrics.human",
    "evalfw.tokenizers.plugin",
    "evalfw.metrics.bleu.counting.clipped",
    "evalfw.metrics.bleu.families.brevity",
    "evalfw.metrics.bleu.families.sacrebleu",
    "evalfw.metrics.bleu.families.nltk",
    "evalfw.metrics.bleu.families.paper",
    "evalfw.metrics.bleu.families.moses",
    "evalfw.metrics.bleu.presets",
    "evalfw.reports.plugin",
    "evalfw.analysis.bucketers",
    "evalfw.executors.plugin",
    "evalfw.checks.plugin",
)

ENV_DISABLE = "EVALFW_DISABLE_PLUGINS"
ENV_NO_AUTOLOAD = "EVALFW_DISABLE_PLUGIN_AUTOLOAD"


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    """Entry points of group ``evalfw`` sorted by (distribution, name): the load order."""
    import importlib.metadata  # a large package (email, zipfile): only hosts that autoload

    found = importlib.metadata.entry_points(group=PROJECT)
    return sorted(found, key=lambda ep: (ep.dist.name if ep.dist else "", ep.name))


def read_plugin_file(path: Path) -> bytes:
    """A plugin file's source, read as an input is: a regular file (a FIFO or a device is
    refused before a byte is read) of at most MAX_PLUGIN_FILE_BYTES."""
    from evalfw.io.text import read_bytes
    from evalfw.limits import MAX_PLUGIN_FILE_BYTES

    return read_bytes(path, f"plugin file {path}", limit=MAX_PLUGIN_FILE_BYTES,
                      error=PluginError, variable=None, what="plugin file")


class PluginHost:
    """Loaded plugins and the component registries built from them."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(PROJECT)
        self.pm.add_hookspecs(Hookspecs)
        self.plugins: list[PluginInfo] = []
        self.broken: list[PluginInfo] = []
        # Built per kind on first use: resolving a BLEU spec never calls the reporter, executor
        # or metric hooks, so their modules are imported only by commands that use them.
        self._registries: dict[str, ComponentRegistry] = {}

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(
        cls,
        *,
        autoload: bool | None = None,
        plugin_dirs: Sequence[str | os.PathLike[str]] = (),
        extra_plugins: Iterable[Any] = (),
        disabled: Iterable[str] = (),
        builtins: bool = True,
    ) -> PluginHost:
        host = cls()
        blocked = set(disabled) | {
            n.strip() for n in os.environ.get(ENV_DISABLE, "").split(",") if n.strip()
        }
        for name in blocked:
            host.pm.set_blocked(name)
        if builtins:
            for modname in BUILTIN_PLUGINS:
                host._register(importlib.import_module(modname), PluginInfo(modname, "builtin"))
        if autoload is None:
            autoload = os.environ.get(ENV_NO_AUTOLOAD, "") in ("", "0")
        if autoload:
            for ep in _entry_points():
                host._load_entry_point(ep, blocked)
        for d in plugin_dirs:
            host.load_plugin_dir(Path(d), blocked)
        for i, obj in enumerate(extra_plugins):
            name = getattr(obj, "__name__", None) or f"{type(obj).__name__}-{i}"
            host._register(obj, PluginInfo(str(name), "object"))
        return host

    def _register(self, plugin: Any, info: PluginInfo) -> None:
        if self.pm.is_blocked(info.name):
            return
        try:
            self.pm.register(plugin, name=info.name)
            self.pm.check_pending()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # pluggy's errors; SystemExit from plugin code too
            if self.pm.is_registered(plugin):
                self.pm.unregister(plugin)
            self._broken(info, exc)
            return
        self.plugins.append(info)
        self._registries = {}

    def _broken(self, info: PluginInfo, exc: BaseException | str) -> None:
        err = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
        broken = PluginInfo(info.name, info.source, info.distribution, info.version,
                            info.path, info.sha256, error=err)
        self.broken.append(broken)

    def _load_entry_point(self, ep: importlib.metadata.EntryPoint, blocked: set[str]) -> None:
        dist = ep.dist.name if ep.dist else None
        version = ep.dist.version if ep.dist else None
        info = PluginInfo(ep.name, "entrypoint", dist, version)
        if ep.name in blocked or (dist and dist in blocked):
            return
        try:
            from evalfw.plugin.guard import watched

            with watched(partial(_loading, info)):  # no fork, no lasting thread
                plugin = ep.load()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # any import-time failure of third-party code, exit too
            self._broken(info, exc)
            return
        self._register(plugin, info)

    def load_plugin_dir(self, directory: Path, blocked: set[str] | None = None) -> None:
        """Register every ``*.py`` file of ``directory`` (a local plugin directory)."""
        if not directory.is_dir():
            raise PluginError(
                f"plugin directory {directory} does not exist or is not a directory; "
                "create it or fix the path"
            )
        for path in sorted(directory.glob("*.py")):
            if path.name.startswith("_"):
                continue
            name = path.stem
            if blocked and name in blocked:
                continue
            try:
                source = read_plugin_file(path)
            except PluginError as exc:
                self._broken(PluginInfo(name, "file", path=str(path)), str(exc))
                continue
            info = PluginInfo(name, "file", path=str(path),
                              sha256=hashlib.sha256(source).hexdigest())
            modname = f"evalfw_local_plugin_{name}_{info.sha256[:12]}"  # type: ignore[index]
            try:
                from evalfw.plugin.guard import watched

                with watched(partial(_loading, info)):
                    module = sys.modules.get(modname) or _import_file(modname, path, source)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit from plugin code too
                self._broken(info, exc)
                continue
            self._register(module, info)

    # ------------------------------------------------------------------ registries

    @property
    def registries(self) -> dict[str, ComponentRegistry]:
        """Every kind's registry (built now for the kinds not used yet)."""
        return {base.kind: self.registry(base.kind) for base in HOOKS.values()}

    def registry(self, kind: str) -> ComponentRegistry:
        reg = self._registries.get(kind)
        if reg is None:
            reg = self._registries[kind] = self._build_registry(BY_KIND[kind])
        return reg

    def _build_registry(self, base: type[Component]) -> ComponentRegistry:
        # Hook implementations are called one by one (not through pluggy's hook caller) so that
        # every returned class, and every error, is attributed to the plugin that produced it.
        # Registration order (built-ins first) decides which provider a collision blames.
        by_name = {p.name: p for p in self.plugins}
        reg = ComponentRegistry(base.kind, tuple(self.broken))
        hook_name = kind_hook(base)
        for impl in getattr(self.pm.hook, hook_name).get_hookimpls():
            info = by_name.get(impl.plugin_name, PluginInfo(impl.plugin_name, "object"))
            try:
                classes = list(impl.function() or ())
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # SystemExit from plugin code too
                raise PluginError(
                    f"{info.provider} raised in {hook_name}: {type(exc).__name__}: {exc}"
                ) from exc
            for cls in classes:
                _check_component(cls, base, info, hook_name)
                problem = _component_problem(cls, base, info)
                if problem is None:
                    reg.add(ComponentEntry(cls, info))
                else:  # skipped as a plugin that fails to load: named where it is wanted
                    self._broken(info, problem)
                    reg.note_broken(self.broken[-1])
        return reg

    def components_of(self, plugin_name: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for kind, reg in self.registries.items():
            names = [e.name for e in reg if e.plugin.name == plugin_name]
            for name, entries in reg.conflicts.items():
                names += [name for e in entries[1:] if e.plugin.name == plugin_name]
            if names:
                out[kind] = sorted(names)
        return out

    def component(self, kind: str, name: str, options: Any = None) -> Any:
        """Instantiate component ``name`` of ``kind`` with ``options``."""
        return self.registry(kind).create(name, options)

    def metric(self, name: str, options: Mapping[str, Any] | None = None, *,
               definition: Mapping[str, Any] | None = None) -> Metric:
        """Metric ``name`` with ``options`` (or rebuilt from a recorded ``definition``),
        every call into it checked at the plugin boundary (:mod:`evalfw.metrics.boundary`)."""
        from evalfw.metrics.boundary import build

        return build(self.registry("metric").entry(name), options, self, definition)


def _loading(info: PluginInfo) -> str:
    """Who runs while a plugin is imported."""
    return info.provider + " (loading)"


def _import_file(modname: str, path: Path, source: bytes) -> ModuleType:
    """The module of a plugin file, executed from the ``source`` that was read and hashed
    (not read again: the code that runs is the code whose sha256 is recorded)."""
    module = ModuleType(modname)
    module.__file__ = str(path)
    sys.modules[modname] = module
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[modname]
        raise
    return module


def _check_component(cls: Any, base: type[Component], info: PluginInfo, hook: str) -> None:
    """Refuse a class a plugin returned that is not a component of ``base``'s kind, or whose
    name, version, options schema (or, for a metric, direction and scale) evalfw cannot use;
    the message names the plugin."""
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise PluginError(
            f"{info.provider} returned {cls!r} from {hook}; expected a subclass of "
            f"{base.__module__}.{base.__name__}"
        )
    if getattr(cls, "name", None) is None:
        raise PluginError(f"{info.provider}: {base.kind.replace('_', ' ')} class "
                          f"{cls.__qualname__} has no 'name' class attribute")


def _component_problem(cls: type[Component], base: type[Component], info: PluginInfo
                       ) -> str | None:
    """Why evalfw cannot use a component class a plugin registered (its name, version,
    options schema, or for a metric its direction and scale), or None."""
    problem = name_problem(cls.name)
    if problem is None and not isinstance(getattr(cls, "version", None), (str, property)):
        problem = f"its version is {cls.version!r}, not a string"
    if problem is None and info.source != "builtin":  # the built-ins' are checked by tests
        found = schema_problem(getattr(cls, "options_schema", None))
        problem = None if found is None else f"its options_schema is invalid: {found}"
    if problem is None and base.kind == "metric":
        from evalfw.metrics.boundary import class_problem

        problem = class_problem(cls)  # type: ignore[arg-type]
    if problem is None:
        return None
    return (f"{base.kind.replace('_', ' ')} class {cls.__qualname__}: {problem}; report this "
            "to the plugin's author")


__all__ = ["BUILTIN_PLUGINS", "ENV_DISABLE", "ENV_NO_AUTOLOAD", "PluginHost"]
