"""The per-user trust list: the files your own runs read, and directories you trust by hand,
which ``evalfw verify`` may read besides the current directory (like git's
``safe.directory``).

``evalfw run`` (and :func:`evalfw.run`) notes every file it read when it stores a version:
the config and every input (sources, references, system outputs, score files), symbolic
links resolved. ``verify`` then reads a record's files when they are under the current
directory, under a ``--data-root``, under a directory of the list, or *are* a file of the
list. A record from elsewhere naming a file no run of yours read (even one beside your data)
is still refused; the list holds files, not their directories, unless you add a directory
yourself. Code is never trusted this way: plugin directories a record names load only with
``--plugins-dir`` (:mod:`evalfw.runner._trust`).

The list lives in ``$EVALFW_CONFIG_DIR/trusted-paths.json``, else
``$XDG_CONFIG_HOME/evalfw/``, else ``~/.config/evalfw/``. Concurrent runs update it under a
lock and replace it atomically; files that no longer exist are dropped whenever it is written.
``evalfw trust list|add|remove`` shows and edits it.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalfw.errors import RecordError
from evalfw.io.text import read_bytes
from evalfw.limits import MAX_TRUST_LIST_BYTES

ENV_DIR = "EVALFW_CONFIG_DIR"
FILE = "trusted-paths.json"
FORMAT = 1


def config_dir() -> Path:
    """``$EVALFW_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/evalfw``, else ``~/.config/evalfw``."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "evalfw"


def list_path() -> Path:
    return config_dir() / FILE


def real(path: str | os.PathLike[str]) -> str:
    """The absolute path with every symbolic link resolved (what the list compares)."""
    return os.path.realpath(os.path.abspath(path))


@dataclass(frozen=True)
class TrustList:
    """Directories trusted by hand (everything under them) and files runs read."""

    directories: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "directories": list(self.directories),
                "files": list(self.files)}

    def allows(self, path: str | os.PathLike[str]) -> bool:
        target = real(path)
        return target in self.files or any(
            target == d or target.startswith(d.rstrip(os.sep) + os.sep) for d in self.directories)


def _parse(data: bytes, where: Path) -> TrustList:
    try:
        doc = json.loads(data.decode("utf-8"))
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"not a format-{FORMAT} trust list")
        lists = [doc.get(k, []) for k in ("directories", "files")]
        if not all(isinstance(v, list) and all(isinstance(p, str) and os.path.isabs(p)
                                               for p in v) for v in lists):
            raise ValueError("'directories' and 'files' must be lists of absolute paths")
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise RecordError(f"the trust list {where} is damaged ({why}); remove it (runs note "
                          "their files again) or fix it") from None
    return TrustList(tuple(lists[0]), tuple(lists[1]))


def read(where: Path | None = None) -> TrustList:
    """The list (empty when there is none yet)."""
    where = where or list_path()
    if not os.path.lexists(where):
        return TrustList()
    # a regular file of a bounded size: a FIFO there would wait for a writer forever
    data = read_bytes(where, f"the trust list {where}", limit=MAX_TRUST_LIST_BYTES,
                      error=RecordError, variable=None, what="trust list",
                      missing="runs note their files in it again")
    return _parse(data, where)


@contextlib.contextmanager
def _locked(where: Path) -> Iterator[None]:
    """An exclusive lock for read-modify-write of the list (concurrent runs)."""
    where.parent.mkdir(parents=True, exist_ok=True)
    lock = where.with_suffix(".lock")
    if os.path.lexists(lock) and not os.path.isfile(lock) or os.path.islink(lock):
        raise RecordError(f"{lock} is not a regular file; remove it (it is the trust list's "
                          "lock)")
    with open(lock, "a+b") as fh:
        try:
            import fcntl
        except ImportError:  # no advisory locks here: the atomic replace still keeps it whole
            yield
            return
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _write(where: Path, trust: TrustList) -> None:
    fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=".trusted-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(trust.to_json(), fh, indent=1)
            fh.write("\n")
        os.replace(tmp, where)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _update(change: Any, where: Path | None = None) -> TrustList:
    where = where or list_path()
    with _locked(where):
        old = read(where)
        new = change(old)
        # files that are gone cannot be read by verify anyway; keep the list short
        new = TrustList(new.directories, tuple(f for f in new.files if os.path.isfile(f)))
        if new != old:
            _write(where, new)
        return new


def note_files(paths: Iterable[str | os.PathLike[str]], where: Path | None = None) -> None:
    """Add the files a run read (raises OSError when the list cannot be written)."""
    found = [real(p) for p in paths]

    def add(old: TrustList) -> TrustList:
        return TrustList(old.directories, tuple(dict.fromkeys([*old.files, *found])))

    _update(add, where)


def add_directory(path: str | os.PathLike[str], where: Path | None = None) -> str:
    """Trust everything under ``path`` (an existing directory); returns it resolved."""
    target = real(path)
    if not os.path.isdir(target):
        raise RecordError(f"{path} is not a directory; `evalfw trust add` takes the directory "
                          "holding the data (runs note the files they read themselves)")
    try:
        _update(lambda old: TrustList(tuple(dict.fromkeys([*old.directories, target])),
                                      old.files), where)
    except OSError as exc:
        raise RecordError(f"cannot write the trust list {where or list_path()}: "
                          f"{exc.strerror or exc}; set {ENV_DIR} to a writable directory") from None
    return target


def remove(path: str | os.PathLike[str], where: Path | None = None) -> list[str]:
    """Remove ``path`` from the list: a directory entry, a file entry, and every file entry
    under ``path``; returns what was removed."""
    target = real(path)
    prefix = target.rstrip(os.sep) + os.sep
    removed: list[str] = []

    def drop(old: TrustList) -> TrustList:
        keep_dirs = tuple(d for d in old.directories if d != target)
        keep_files = tuple(f for f in old.files if f != target and not f.startswith(prefix))
        removed.extend([d for d in old.directories if d not in keep_dirs]
                       + [f for f in old.files if f not in keep_files])
        return TrustList(keep_dirs, keep_files)

    try:
        _update(drop, where)
    except OSError as exc:
        raise RecordError(f"cannot write the trust list {where or list_path()}: "
                          f"{exc.strerror or exc}") from None
    return removed


__all__ = ["add_directory", "config_dir", "ENV_DIR", "list_path", "note_files", "read", "remove",
           "TrustList"]
