"""What a record says about the machine: Python, platform, package versions, plugins.

Only facts that can change a number (or explain why one changed) are kept. Environment
variables are never copied wholesale: only those in :data:`ENV_ALLOWLIST` (they change which
plugins load or how Python hashes), so a record never carries tokens or home paths.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from evalfw.io.text import display_path

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric

#: distributions whose version can change a score or a record
PACKAGES = ("evalfw", "numpy", "regex", "pluggy", "jsonschema", "PyYAML")
ENV_ALLOWLIST = ("EVALFW_DISABLE_PLUGINS", "EVALFW_DISABLE_PLUGIN_AUTOLOAD", "EVALFW_NATIVE",
                 "EVALFW_NO_KERNELS",
                 "PYTHONHASHSEED")


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def plugin_facts(host: PluginHost) -> list[dict[str, Any]]:
    """Every plugin the host loaded (and every one that failed, with its error)."""
    out = []
    for info in [*host.plugins, *host.broken]:
        facts = info.to_json()
        if "path" in facts:
            facts["path"] = display_path(facts["path"])
        out.append(facts)
    return out


def environment(host: PluginHost, metrics: Sequence[str] = ()) -> dict[str, Any]:
    """The record's environment; ``metrics`` (registered names) say which code computed
    their statistics (a compiled kernel or numpy: the same numbers either way)."""
    packages: dict[str, str | None] = {name: package_version(name) for name in PACKAGES}
    for info in host.plugins:
        if info.distribution:
            packages[info.distribution] = info.version
    return {
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "platform": platform.platform(),
        "packages": packages,
        "variables": {k: os.environ[k] for k in ENV_ALLOWLIST if k in os.environ},
        "implementations": implementations(host, metrics),
    }


def implementations(host: PluginHost, metrics: Sequence[str]) -> dict[str, str]:
    """Metric name -> which code computes its statistics, for the metrics that say."""
    out = {}
    for name in dict.fromkeys(metrics):
        # the metric registry holds Metric subclasses only (checked when they register)
        text = cast("type[Metric]", host.registry("metric").get(name)).implementation()
        if text:
            out[name] = text
    return out
