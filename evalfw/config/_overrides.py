"""``--set key.path=value``: command-line overrides applied to a config before validation.

The value is parsed as YAML (so ``3`` is a number, ``[a, b]`` a list, ``{name: add-k}`` a
mapping) with the same safe loader as config files. Missing mapping keys along the path are
created; list indices must exist. Each override replaces the value at its path and every
position below it, so errors inside an overridden value name the ``--set`` option, and paths in
it resolve against the current directory rather than the config file's.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evalfw.config._locate import KeyPath, Locations, format_path, parse_path
from evalfw.config._yamlload import parse_yaml
from evalfw.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Override:
    """One ``--set`` option: the text as given, its key path and parsed value."""

    text: str
    path: KeyPath
    value: Any

    def to_json(self) -> dict[str, Any]:
        return {"set": self.text, "path": format_path(self.path), "value": self.value}


def parse_override(text: str) -> Override:
    """``"metrics[0].max_order=3"`` -> Override; raises ConfigError naming the option."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(
            f"--set {text}: expected KEY=VALUE, e.g. --set metrics[0].max_order=3"
        )
    try:
        path = parse_path(key.strip())
    except ConfigError as exc:
        raise ConfigError(f"--set {text}: {exc}") from None
    # shown in messages: never a raw control character (an ESC would drive the terminal)
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    shown = shown if len(shown) <= 80 else f"{shown[:60]}... ({len(text):,} characters)"
    value = parse_yaml(raw, Locations(f"--set {shown}"), root=path) if raw.strip() else ""
    return Override(text, path, value)


def apply_overrides(data: Any, overrides: Iterable[Override], locations: Locations) -> Any:
    """Apply ``overrides`` in order to ``data`` (changed in place; the new root is returned)."""
    for ov in overrides:
        if not isinstance(data, dict):
            raise ConfigError(f"--set {ov.text}: the config's top level is not a mapping")
        node: Any = data
        for i, part in enumerate(ov.path[:-1]):
            node = _step(node, part, ov.path[i + 1], ov, ov.path[: i + 1])
        _assign(node, ov.path[-1], ov, ov.path[:-1])
        locations.override(ov.path, ov.text)
    return data


def _check(container: Any, part: str | int, ov: Override, where: KeyPath) -> None:
    if isinstance(part, int):
        if not isinstance(container, list):
            raise ConfigError(
                f"--set {ov.text}: {format_path(where)} is not a list, so [{part}] does not apply"
            )
        if part >= len(container):
            raise ConfigError(
                f"--set {ov.text}: {format_path(where)} has {len(container)} item(s); index "
                f"{part} is out of range (indices start at 0)"
            )
    elif not isinstance(container, dict):
        raise ConfigError(
            f"--set {ov.text}: {format_path(where)} is not a mapping, so key '{part}' does not apply"
        )


def _step(container: Any, part: str | int, nxt: str | int, ov: Override, where: KeyPath) -> Any:
    _check(container, part, ov, where[:-1])
    if isinstance(part, str) and container.get(part) is None:
        # create what the path needs, e.g. --set significance.method=x without a significance
        container[part] = [] if isinstance(nxt, int) else {}
    return container[part]


def _assign(container: Any, part: str | int, ov: Override, where: KeyPath) -> None:
    _check(container, part, ov, where)
    container[part] = ov.value


def add_set_option(parser: argparse.ArgumentParser) -> None:
    """The ``--set`` option, shared by every command that reads a config."""
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="override a config value before validation (repeatable); VALUE is YAML, "
        "e.g. --set metrics[0].max_order=3 --set data_root=../shared/data/wmt22; "
        "paths given here are relative to the current directory",
    )
