"""Helpers for the config tests: a plugin host with the built-in components that exist yet.

The built-in tokenizers and reporters may not exist when these tests are written; the
stand-ins below take their names until they do, and are never used once they exist (the real
host is preferred whenever every built-in module imports).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import evalfw
from evalfw.components import Reporter, Tokenizer
from evalfw.plugin.host import BUILTIN_PLUGINS, PluginHost

HERE = Path(__file__).parent
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


class StandIns:
    """Registers stand-ins for the kinds whose built-in module is missing."""

    def __init__(self, missing: set[str]) -> None:
        self.missing = missing

    @evalfw.hookimpl
    def evalfw_register_tokenizers(self) -> list[type[Tokenizer]]:
        if "evalfw.builtin.tokenizers" not in self.missing:
            return []
        return [type(f"Tok{n}", (_StandInTokenizer,), {"name": n}) for n in ("13a", "none")]

    @evalfw.hookimpl
    def evalfw_register_reporters(self) -> list[type[Reporter]]:
        if "evalfw.builtin.reporters" not in self.missing:
            return []
        names = ("table", "json", "csv", "markdown", "latex")
        return [type(f"Rep{n}", (_StandInReporter,), {"name": n}) for n in names]


def make_host(*extra: Any) -> PluginHost:
    """The real built-in host when it is complete; otherwise what exists plus stand-ins."""
    modules, missing = [], set()
    for name in BUILTIN_PLUGINS:
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            missing.add(name)
    if not missing:
        return PluginHost.create(autoload=False, extra_plugins=extra)
    return PluginHost.create(autoload=False, builtins=False,
                             extra_plugins=[*modules, StandIns(missing), *extra])
