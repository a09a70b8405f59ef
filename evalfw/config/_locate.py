"""Key paths (``metrics[1].smoothing.k``) and where each value of a config came from.

Every config error names a place: ``file:line:col`` for values read from YAML, or the
``--set`` option that supplied the value. :class:`Locations` maps key paths to those places
and answers for the nearest enclosing value when a path has no entry of its own (a key
that is missing has no position, but the mapping that should hold it has).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from evalfw.errors import ConfigError

#: A key path: mapping keys (str) and list indices (int), outermost first.
KeyPath = tuple[str | int, ...]

# Keys printed bare after a dot; anything else (a system named "*", a key with a dot) is quoted
# in brackets so that the printed path parses back to the same key path.
_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_TOKEN = re.compile(
    r"""\.?(?P<bare>[A-Za-z_][A-Za-z0-9_-]*)     # .key
      | \[(?P<index>[0-9]+)\]                     # [3]
      | \[(?P<q>["'])(?P<quoted>.*?)(?P=q)\]      # ["any key"]
    """,
    re.VERBOSE,
)


def format_path(path: KeyPath) -> str:
    """``("metrics", 1, "smoothing", "k")`` -> ``metrics[1].smoothing.k``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _BARE_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += '["' + part + '"]' if '"' not in part else "['" + part + "']"
    return out or "(top level)"


def parse_path(text: str) -> KeyPath:
    """Inverse of :func:`format_path`; raises ConfigError (without a place) when malformed."""
    parts: list[str | int] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or (pos == 0 and text.startswith(".")) or (
            pos > 0 and m.group("bare") and not text.startswith(".", pos)
        ):
            raise ConfigError(
                f"malformed key path {text!r} at character {pos + 1}; write keys separated by "
                "dots and list indices in brackets, e.g. metrics[0].smoothing.value"
            )
        if m.group("index") is not None:
            parts.append(int(m.group("index")))
        else:
            parts.append(m.group("bare") if m.group("bare") is not None else m.group("quoted"))
        pos = m.end()
    if not parts:
        raise ConfigError("empty key path; write e.g. --set seed=1")
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class Mark:
    """A 1-based line and column in a config file."""

    line: int
    column: int


@dataclass
class Locations:
    """Where the values of one config document came from."""

    source: str  # the config file as the user named it, or "<mapping>" for in-memory configs
    values: dict[KeyPath, Mark] = field(default_factory=dict)
    keys: dict[KeyPath, Mark] = field(default_factory=dict)
    #: key path -> the ``--set`` text that replaced the value there (and everything below it)
    overridden: dict[KeyPath, str] = field(default_factory=dict)

    def drop(self, prefix: KeyPath) -> None:
        """Forget positions at and below ``prefix`` (its value was replaced)."""
        n = len(prefix)
        for table in (self.values, self.keys):
            for path in [p for p in table if p[:n] == prefix]:
                del table[path]

    def override(self, path: KeyPath, text: str) -> None:
        self.drop(path)
        self.overridden[path] = text

    def set_by(self, path: KeyPath) -> str | None:
        """The ``--set`` text that supplied ``path`` (or an enclosing value), if any."""
        for n in range(len(path), -1, -1):
            if path[:n] in self.overridden:
                return self.overridden[path[:n]]
        return None

    def sort_key(self, path: KeyPath) -> tuple[int, int, int]:
        """Orders problems as they appear in the document (``--set`` values first)."""
        for n in range(len(path), -1, -1):
            if path[:n] in self.overridden:
                return (0, 0, len(path))
            mark = self.values.get(path[:n])
            if mark is not None:
                return (mark.line, mark.column, len(path))
        return (0, 0, len(path))

    def where(self, path: KeyPath, *, key: bool = False) -> str:
        """``file:line:col`` of ``path`` (of its key when ``key``), or ``--set ...``."""
        for n in range(len(path), -1, -1):
            sub = path[:n]
            if sub in self.overridden:
                return f"--set {self.overridden[sub]}"
            mark = (self.keys.get(sub) if key and n == len(path) else None) or self.values.get(sub)
            if mark is not None:
                return f"{self.source}:{mark.line}:{mark.column}"
        return self.source

    def error(self, path: KeyPath, message: str, *, key: bool = False,
              cls: type[ConfigError] = ConfigError) -> ConfigError:
        """A ConfigError ``<where>: <key path>: <message>`` (always one line)."""
        message = " ".join(message.split("\n"))
        return cls(f"{self.where(path, key=key)}: {format_path(path)}: {message}")
