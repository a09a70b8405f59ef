"""Metrics that travel to other processes (cluster workers) as their definitions.

A metric holds its components (tokenizers, smoothing) in read-only mappings that do not
pickle. :func:`make_portable` teaches ``pickle`` to send each registered metric class as
``(class, definition)``; the receiving process rebuilds it with
:meth:`~evalfw.metrics.base.Metric.from_definition` and a plugin host of its own, as
``verify`` rebuilds a recorded metric. The class travels by reference, so the receiving
process must be able to import it (evalfw's metrics, installed plugin packages).

Plugin *files* (``--plugins-dir``, ``plugin_dirs:``) are not installed where the metric
lands, so when the host loaded any, each metric travels with their sources (read once, when
first pickled, and checked against the sha256 recorded when they were loaded): the receiving
process checks each source's sha256 again, imports it under the module name it has here, and
registers it in the host that rebuilds the metric. A plugin file that cannot be imported
there (it needs a package the worker lacks) fails with one line naming the file.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import importlib
import socket
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evalfw.errors import PluginError
from evalfw.host.host import read_plugin_file

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric

#: this process's hosts that rebuild metrics, by the plugin files they carry (none: the
#: default plugins)
_hosts: dict[tuple[str, ...], PluginHost] = {}


@dataclass(frozen=True)
class PluginSource:
    """A plugin file as it travels: its module name here, path, bytes and sha256."""

    module: str
    path: str
    source: bytes
    sha256: str


def _host(modules: tuple[ModuleType, ...] = ()) -> PluginHost:
    """This process's host with the default plugins and ``modules`` (made once each)."""
    key = tuple(m.__name__ for m in modules)
    if key not in _hosts:
        from evalfw.host.host import PluginHost

        _hosts[key] = PluginHost.create(extra_plugins=modules)
    return _hosts[key]


def rebuild(cls: type[Metric], definition: Mapping[str, Any], plugin: Any = None) -> Metric:
    """A metric unpickled here, built with this process's plugin host (made once), checked
    at the plugin boundary as where it was made (``plugin``: where it came from there)."""
    return _rebuilt(cls, definition, _host(), plugin)


def _rebuilt(cls: type[Metric], definition: Mapping[str, Any], host: PluginHost,
             plugin: Any) -> Metric:
    from evalfw.host.registry import ComponentEntry, PluginInfo
    from evalfw.metrics.boundary import build

    # errors name the plugin as the client knows it (a plugin file's module has another
    # name in this process's host)
    registry = host.registry("metric")
    name = getattr(cls, "name", None)
    if plugin is None and isinstance(name, str) and name in registry and registry.get(name) is cls:
        plugin = registry.entry(name).plugin
    entry = ComponentEntry(cls, plugin or PluginInfo(cls.__module__, "object"))
    return build(entry, None, host, definition)


def rebuild_shipped(files: tuple[PluginSource, ...], module: str, qualname: str,
                    definition: Mapping[str, Any], plugin: Any = None) -> Metric:
    """A metric unpickled here with the plugin files it travelled with (installed first)."""
    modules = tuple(install(f) for f in files)
    cls: Any = importlib.import_module(module)
    for part in qualname.split("."):
        cls = getattr(cls, part)
    return _rebuilt(cls, definition, _host(modules), plugin)


def install(file: PluginSource) -> ModuleType:
    """The module of a plugin file that travelled here: imported from its source once per
    process, under its name on the client, after checking its sha256."""
    found = sys.modules.get(file.module)
    if found is not None:  # the client itself, or an earlier run on this worker
        return found
    where = f"plugin file {file.path} on {socket.gethostname()}"
    digest = hashlib.sha256(file.source).hexdigest()
    if digest != file.sha256:
        raise PluginError(f"{where} arrived with sha256 {digest[:12]}..., not the "
                          f"{file.sha256[:12]}... that was loaded; nothing was stored")
    module = ModuleType(file.module)
    module.__file__ = file.path
    sys.modules[file.module] = module
    try:
        exec(compile(file.source, file.path, "exec"), module.__dict__)
    except BaseException as exc:
        del sys.modules[file.module]
        raise PluginError(
            f"{where} could not be imported: {type(exc).__name__}: {exc}; every worker needs "
            "what the plugin imports (pip install it there, or install the plugin as a "
            "package on the workers)") from None
    return module


def plugin_files(host: PluginHost) -> tuple[tuple[str, str, str], ...]:
    """(module name, path, sha256) of each plugin file ``host`` loaded."""
    return tuple((getattr(host.pm.get_plugin(info.name), "__name__", info.name), info.path,
                  str(info.sha256))
                 for info in host.plugins if info.source == "file" and info.path is not None)


def read_files(files: tuple[tuple[str, str, str], ...]) -> tuple[PluginSource, ...]:
    """The plugin files as they travel (refused when one changed since it was loaded)."""
    out = []
    for module, path, sha256 in files:
        source = read_plugin_file(Path(path))
        if hashlib.sha256(source).hexdigest() != sha256:
            raise PluginError(f"plugin file {path} changed since it was loaded; run again "
                              "(workers must run the code this run loaded)")
        out.append(PluginSource(module, path, source, sha256))
    return tuple(out)


class _Reducer:
    """``copyreg``'s reducer of the metric classes of one host."""

    def __init__(self, files: tuple[tuple[str, str, str], ...]) -> None:
        self.names = files

    @functools.cached_property
    def files(self) -> tuple[PluginSource, ...]:  # read once, when a metric is first pickled
        return read_files(self.names)

    def __call__(self, metric: Any) -> tuple[Any, ...]:  # a Metric (copyreg types it loosely)
        from evalfw.plugin.choices import plain

        cls = type(metric)
        definition = plain(metric.definition())
        plugin = getattr(metric, "_evalfw_plugin", None)
        if not self.names:
            return rebuild, (cls, definition, plugin)
        return rebuild_shipped, (self.files, cls.__module__, cls.__qualname__, definition,
                                 plugin)


def make_portable(host: PluginHost) -> None:
    """Register every metric class of ``host`` with ``pickle`` (idempotent)."""
    reducer = _Reducer(plugin_files(host))
    registry = host.registry("metric")
    for name in registry.names():
        copyreg.pickle(registry.get(name), reducer)


__all__ = ["install", "make_portable", "plugin_files", "PluginSource", "read_files", "rebuild",
           "rebuild_shipped"]
