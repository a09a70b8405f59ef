"""Entry points of group ``evalfw``, without paying for ``importlib.metadata`` when none exist.

Importing ``importlib.metadata`` and walking every distribution costs about 30 ms of CPU, more
than scoring a WMT test set. Most environments have no evalfw plugin installed, so a cheap
pre-scan looks for an ``[evalfw]`` section in the ``entry_points.txt`` of every
``*.dist-info`` / ``*.egg-info`` directory on ``sys.path``. Only if one is found (or the
environment has a place the pre-scan cannot look into: a zip on ``sys.path``, a custom
distribution finder) is ``importlib.metadata`` asked, so its answer, and its rules for which
of two copies of a distribution wins, are the ones that count.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import importlib.metadata

_META_DIRS = (".dist-info", ".egg-info")


def _declares_group(text: str, group: str) -> bool:
    """Whether an ``entry_points.txt`` has a ``[group]`` section (the header rule of
    importlib.metadata: a stripped line in brackets, brackets stripped)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]") and line.strip("[]") == group:
            return True
    return False


def _standard_finders_only() -> bool:
    """False when some meta-path finder other than the path finder can yield distributions
    (importlib.metadata would ask it; the pre-scan cannot)."""
    from importlib.machinery import PathFinder

    return all(f is PathFinder or not hasattr(f, "find_distributions") or _path_metadata(f)
               for f in sys.meta_path)


def _path_metadata(finder: object) -> bool:
    """The ``importlib_metadata`` backport's finder (installed by importing it, as Dask does):
    it reads the same ``*.dist-info``/``*.egg-info`` directories of the path as the standard
    library, so the pre-scan still answers for it."""
    kind = type(finder)
    return kind.__module__ == "importlib_metadata" and kind.__name__ == "MetadataPathFinder"


def maybe_present(group: str, path: list[str] | None = None) -> bool:
    """False only when no distribution on ``path`` (default ``sys.path``) can declare an
    entry point of ``group``; True when one does or when that cannot be told cheaply."""
    if not _standard_finders_only():
        return True
    for entry in sys.path if path is None else path:
        try:
            with os.scandir(entry or ".") as it:
                names = [d.name for d in it if d.name.endswith(_META_DIRS)]
        except NotADirectoryError:
            return True  # a zip (or other file) on the path: let importlib.metadata look
        except OSError:
            continue  # missing or unreadable: importlib.metadata finds nothing there either
        for name in names:
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"),
                          encoding="utf-8") as f:
                    text = f.read()
            except (FileNotFoundError, NotADirectoryError):
                continue  # no entry points (or an .egg-info file: PKG-INFO only)
            except (OSError, UnicodeDecodeError):
                return True  # unreadable here: importlib.metadata decides
            if _declares_group(text, group):
                return True
    return False


def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
    """Entry points of ``group`` sorted by (distribution, name): the load order."""
    if not maybe_present(group):
        return []
    import importlib.metadata

    eps = importlib.metadata.entry_points(group=group)

    def key(ep: importlib.metadata.EntryPoint) -> tuple[str, str]:
        return ((ep.dist.name if ep.dist else ""), ep.name)

    return sorted(eps, key=key)
