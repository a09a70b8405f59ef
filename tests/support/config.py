"""Helpers for the config tests: a plugin host with the built-in components that exist yet.

The built-in tokenizers and reporters may not exist when these tests are written; the
stand-ins below take the names the tests need until they do, and are never used for a name a
built-in provides.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import evalfw
from evalfw.host.host import BUILTIN_PLUGINS, PluginHost
from evalfw.reports.base import Reporter
from evalfw.tokenizers.base import Tokenizer

HERE = Path(__file__).resolve().parents[1] / "config" / "fixtures"
PLUGIN_DIR = HERE / "plugins"
SAMPLE = HERE / "sample"


class _StandInTokenizer(Tokenizer):
    name = "stand-in"

    def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
        return [line.split() for line in lines]


class _StandInReporter(Reporter):
    name = "stand-in"

    def render(self, record: Mapping[str, Any]) -> str:
        return ""


#: the names the config tests use, by kind
NEEDED = {"tokenizer": ("13a", "none"), "reporter": ("table", "json", "csv", "markdown", "latex")}


class StandIns:
    """Registers stand-ins for the needed names no built-in provides (yet)."""

    def __init__(self, missing: dict[str, list[str]]) -> None:
        self.missing = missing

    @evalfw.hookimpl
    def evalfw_register_tokenizers(self) -> list[type[Tokenizer]]:
        return [type(f"Tok{n}", (_StandInTokenizer,), {"name": n})
                for n in self.missing.get("tokenizer", ())]

    @evalfw.hookimpl
    def evalfw_register_reporters(self) -> list[type[Reporter]]:
        return [type(f"Rep{n}", (_StandInReporter,), {"name": n})
                for n in self.missing.get("reporter", ())]


def make_host(*extra: Any) -> PluginHost:
    """The real built-in host when it is complete; otherwise what exists plus stand-ins."""
    try:
        host = PluginHost.create(autoload=False, extra_plugins=extra)
        if all(n in host.registry(k) for k, names in NEEDED.items() for n in names):
            return host
    except ModuleNotFoundError:
        pass
    modules = []
    for name in BUILTIN_PLUGINS:
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    host = PluginHost.create(autoload=False, builtins=False, extra_plugins=[*modules, *extra])
    missing = {kind: [n for n in names if n not in host.registry(kind)]
               for kind, names in NEEDED.items()}
    if not any(missing.values()):
        return host
    return PluginHost.create(autoload=False, builtins=False,
                             extra_plugins=[*modules, StandIns(missing), *extra])
