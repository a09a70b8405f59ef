"""Name -> component class tables, one per kind, with provenance and collision checks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from evalfw.errors import ComponentConflictError, UnknownComponentError, suggest
from evalfw.plugin.component import Component, unprintable


@dataclass(frozen=True, slots=True)
class PluginInfo:
    """Where a plugin came from: ``source`` is builtin, entrypoint, file or object."""

    name: str
    source: str
    distribution: str | None = None
    version: str | None = None
    path: str | None = None
    sha256: str | None = None
    error: str | None = None

    @property
    def provider(self) -> str:
        """The plugin as messages name it (a control or bidi character in a name or path an
        installed package chose is shown escaped, never printed raw)."""
        name = _shown(self.name)
        if self.distribution:
            return f"plugin '{name}' ({_shown(self.distribution)} {_shown(str(self.version))})"
        if self.path:
            return f"plugin '{name}' ({_shown(self.path)})"
        return f"plugin '{name}'"

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (
            ("name", self.name), ("source", self.source), ("distribution", self.distribution),
            ("version", self.version), ("path", self.path), ("sha256", self.sha256),
            ("error", self.error),
        ) if v is not None}


def _shown(text: str) -> str:
    return ascii(text)[1:-1] if unprintable(text) else text


@dataclass(frozen=True, slots=True)
class ComponentEntry:
    cls: type[Component]
    plugin: PluginInfo

    @property
    def name(self) -> str:
        return self.cls.name


class ComponentRegistry:
    """The components of one kind. A name provided twice is recorded as a conflict and
    raises, naming both providers, whenever that name is used: installing a plugin must never
    silently change what an existing name computes."""

    def __init__(self, kind: str, broken: tuple[PluginInfo, ...] = ()) -> None:
        self.kind = kind
        self._entries: dict[str, ComponentEntry] = {}
        self._conflicts: dict[str, list[ComponentEntry]] = {}
        self._broken = broken

    def add(self, entry: ComponentEntry) -> None:
        name = entry.name
        if name in self._entries:
            self._conflicts.setdefault(name, [self._entries[name]]).append(entry)
        else:
            self._entries[name] = entry

    def note_broken(self, info: PluginInfo) -> None:
        """A plugin whose component of this kind cannot be used: named, with its error,
        when a lookup fails."""
        self._broken = (*self._broken, info)

    def names(self) -> list[str]:
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[ComponentEntry]:
        return iter(self._entries[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def conflicts(self) -> Mapping[str, list[ComponentEntry]]:
        return self._conflicts

    def conflict_message(self, name: str) -> str:
        entries = self._conflicts[name]
        who = " and ".join(e.plugin.provider for e in entries)
        culprit = entries[-1].plugin.name
        return (
            f"{self.kind} '{name}' is provided by both {who}; a name may have one provider. "
            f"Uninstall one of them or run with --disable-plugin {culprit}"
        )

    def entry(self, name: str) -> ComponentEntry:
        if name in self._conflicts:
            raise ComponentConflictError(self.conflict_message(name))
        try:
            return self._entries[name]
        except KeyError:
            pass
        msg = (
            f"unknown {self.kind.replace('_', ' ')} '{name}'{suggest(name, self._entries)}; "
            f"available: {', '.join(self.names()) or 'none'}"
        )
        for info in self._broken:
            msg += f"; note: {info.provider} failed to load: {info.error}"
        raise UnknownComponentError(msg)

    def get(self, name: str) -> type[Component]:
        return self.entry(name).cls

    def create(self, name: str, options: Mapping[str, Any] | None = None) -> Any:
        entry = self.entry(name)
        component = entry.cls(**dict(options or {}))
        # Remembered so that errors raised while computing can name the plugin responsible.
        component._evalfw_plugin = entry.plugin  # type: ignore[attr-defined]
        return component


__all__ = ["ComponentEntry", "ComponentRegistry", "PluginInfo"]
