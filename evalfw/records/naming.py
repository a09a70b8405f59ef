"""Where a run version lives: experiment names, the experiment directory, version names.

An experiment is one directory name under ``output_dir``; its versions are
``<UTC yyyymmddTHHMMSSZ>-<counter>`` directories, sorted by time, then counter, and a version
being written is a hidden ``.tmp-...`` directory. These rules are checked where a config names
an experiment and again where the store writes (:mod:`evalfw.records.store`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from evalfw.errors import ConfigError

TMP_PREFIX = ".tmp-"
#: an experiment name: one visible directory name (names starting with '.' are evalfw's own:
#: the statistics cache ``.cache`` and versions being written ``.tmp-*``; listings skip them)
NAME_RE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")
VERSION_RE = re.compile(r"^(\d{8}T\d{6}Z)-(\d+)$")


def version_key(name: str) -> tuple[str, int]:
    m = VERSION_RE.match(name)
    return (m.group(1), int(m.group(2))) if m else ("", -1)


def names_in(directory: Path) -> list[str]:
    """The entry names of ``directory`` as one listing sees them; [] when it is gone or not a
    directory. Other runs create, rename and remove entries at any moment, so a caller must
    expect a listed name to be gone when it looks at it (and look with errors handled)."""
    try:
        return os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []


def check_experiment_name(name: str) -> None:
    """A name must be one visible path component (the schema says so too; this guards the
    API). A full match: ``$`` would accept a final newline."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise ConfigError(
            f"experiment name {name!r} is not allowed: it must be one directory name of at most "
            "128 letters, digits, '.', '_' and '-', not starting with '.'"
        )


def experiment_dir(output_dir: Path, experiment: str) -> Path:
    """``output_dir/experiment``, refusing anything that would write outside ``output_dir``.

    For the record writer: call it right before creating versions. It refuses an experiment
    directory that is a symbolic link (a link could point anywhere, and a later run would write
    through it) or that is not a directory, and checks that the resolved directory is still a
    direct child of the resolved output directory.
    """
    check_experiment_name(experiment)
    target = output_dir / experiment
    if target.is_symlink():
        raise ConfigError(
            f"experiment directory {target} is a symbolic link; evalfw does not write runs "
            "through links. Remove the link or choose another experiment name or output_dir"
        )
    if target.exists() and not target.is_dir():
        raise ConfigError(f"experiment directory {target} exists and is not a directory")
    if output_dir.exists():
        if not output_dir.is_dir():
            raise ConfigError(f"output_dir {output_dir} exists and is not a directory")
        if target.resolve().parent != output_dir.resolve():
            raise ConfigError(f"experiment directory {target} would be outside {output_dir}")
    return target


__all__ = [
    "NAME_RE", "TMP_PREFIX", "VERSION_RE", "check_experiment_name", "experiment_dir",
    "names_in", "version_key",
]
