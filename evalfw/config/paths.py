"""Resolving the paths a config names: bases, ``{data_root}``, globs, existence, escapes.

Rules (also on the Configs page of the documentation, docs/configs.md):

- a relative path written in the config file resolves against the config file's directory;
  one given with ``--set`` (or inside a ``--set`` value) against the current directory;
- ``{data_root}`` may begin a data path; ``data_root`` itself resolves by the rule above, and the
  rest of the path is taken relative to it. No other ``{...}`` variables exist;
- ``*``, ``?`` and ``[...]`` make a glob, expanded in sorted order; directories never match; a
  glob that matches no file is an error naming the pattern;
- paths are joined, not made absolute, so a config named relative to the current directory
  yields paths relative to it (records show them as the user would write them).

Data files are only checked for existence here; reading them is the runner's job.
"""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

from evalfw.config._locate import KeyPath, Locations
from evalfw.errors import suggest
from evalfw.names import shown, unprintable
from evalfw.records.naming import check_experiment_name, experiment_dir

__all__ = ["DATA_ROOT", "PathResolver", "check_experiment_name", "experiment_dir"]

_VAR = re.compile(r"\{([^{}]*)\}")
_MAGIC = re.compile(r"[*?[]")
DATA_ROOT = "data_root"


class PathResolver:
    """Resolves path strings of one config, knowing where each value came from."""

    def __init__(self, locations: Locations, config_dir: Path) -> None:
        self.loc = locations
        self.config_dir = config_dir
        self.data_root: Path | None = None

    def base(self, path: KeyPath) -> Path:
        return Path(".") if self.loc.set_by(path) is not None else self.config_dir

    def set_data_root(self, text: str | None) -> None:
        if text is not None:
            self.data_root = self.join(text, (DATA_ROOT,), allow_vars=False)

    def join(self, text: str, path: KeyPath, *, allow_vars: bool = True) -> Path:
        """``text`` with ``{data_root}`` substituted, joined to its base (not resolved)."""
        for m in _VAR.finditer(text):
            if not allow_vars or m.group(1) != DATA_ROOT:
                hint = suggest(m.group(1), [DATA_ROOT]) if allow_vars else ""
                raise self.loc.error(path, (
                    f"unknown variable '{{{m.group(1)}}}' in {text!r}{hint}; the only variable "
                    f"is {{{DATA_ROOT}}}, at the start of a data path"))
            if m.start() != 0:
                raise self.loc.error(path, (
                    f"{{{DATA_ROOT}}} may only begin a path, as in '{{{DATA_ROOT}}}/en-de/ref.txt'; "
                    f"got {text!r}"))
        if text.startswith("{" + DATA_ROOT + "}"):
            if self.data_root is None:
                raise self.loc.error(path, (
                    f"{text!r} uses {{{DATA_ROOT}}} but data_root is not set; add "
                    "`data_root: DIR` to the config or pass --set data_root=DIR"))
            rest = text[len(DATA_ROOT) + 2:].lstrip("/\\")
            return self.data_root / rest if rest else self.data_root
        return self.base(path) / text

    def files(self, text: str, path: KeyPath, what: str) -> list[Path]:
        """The files ``text`` names (a glob may name several), checked to exist."""
        target = self.join(text, path)
        if not _MAGIC.search(text):
            return [self.existing_file(target, path, what, text)]
        # Only the part the user wrote is a pattern: glob metacharacters in the config's
        # directory or in data_root are literal.
        prefix = self.data_root if text.startswith("{") else self.base(path)
        pattern = str(target)
        if prefix is not None and prefix != Path(".") and not Path(text).is_absolute():
            head = str(prefix)
            if pattern.startswith(head):
                pattern = glob.escape(head) + pattern[len(head):]
        found = sorted(Path(p) for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
        if not found:
            raise self.loc.error(path, f"no file matches the pattern {shown(text, True)} (looked "
                                       f"for {shown(pattern)}) for {what}; check the pattern"
                                       + (" and data_root" if text.startswith("{") else ""))
        for file in found:
            self.printable(file, path, what)
        return found

    def printable(self, file: Path, path: KeyPath, what: str) -> Path:
        """``file``, refused when its name holds a character a terminal or a record cannot
        show as itself (a control or bidi character, or bytes that are not UTF-8)."""
        bad = unprintable(str(file))
        if bad is None:
            return file
        why = "is not valid UTF-8" if "U+DC80" <= bad <= "U+DCFF" else f"holds {bad}"
        raise self.loc.error(path, f"the name of file {shown(file)} ({what}) {why}; rename the "
                                   "file (names are printed in tables and kept in records)")

    def existing_file(self, target: Path, path: KeyPath, what: str, text: str) -> Path:
        if target.is_dir():
            raise self.loc.error(path, f"{target} is a directory; {what} must be a file")
        if not target.is_file():
            reason = "does not exist" if not target.exists() else "is not a regular file"
            hint = "check the path"
            if text.startswith("{" + DATA_ROOT + "}"):
                origin = self.loc.set_by((DATA_ROOT,))
                hint += f" and data_root ({self.data_root}" + (
                    f", from --set {origin})" if origin else ")")
            raise self.loc.error(path, f"file {shown(target)} {reason} ({what}); {hint}")
        return self.printable(target, path, what)

    def directory(self, text: str, path: KeyPath, what: str) -> Path:
        target = self.join(text, path)
        if not target.is_dir():
            raise self.loc.error(path, f"{what} {target} does not exist or is not a directory")
        return target
