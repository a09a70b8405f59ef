"""The versioned record store: ``<output_dir>/<experiment>/<version>/``.

A version is written completely inside a hidden temporary directory of the experiment
directory (``.tmp-<host>-<pid>-<random>``) and then renamed to its final name in one
``os.rename``. Renaming a directory onto an existing non-empty one fails, so two runs that
pick the same name cannot overwrite each other: the loser takes the next counter and tries
again. A failed or interrupted run removes its temporary directory; one killed outright
(SIGKILL) leaves it behind, hidden from listings, and the next run of the experiment removes
it once its process is gone.

Several runs may store versions of one experiment at once, and ``evalfw runs prune`` may
remove versions meanwhile: every step here expects an entry it listed a moment ago to be
renamed or gone when it looks at it (a temporary directory becoming a version, a version being
pruned), and then leaves it alone instead of failing.

Version names are ``<UTC yyyymmddTHHMMSSZ>-<counter>`` and sort by time, then counter.
"""

from __future__ import annotations

import errno
import io
import os
import secrets
import shutil
import socket
import time
import zipfile
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from evalfw.errors import RecordError
from evalfw.records.document import RECORD_FILE, SEGMENTS_FILE, dumps, validate_record
from evalfw.records.naming import TMP_PREFIX, experiment_dir, names_in, version_key

#: temporary directories of other hosts (shared file systems) are removed after this long
STALE_SECONDS = 24 * 3600

#: extra files of a version: file name -> text, computed from the final record
Extras = Callable[[Mapping[str, Any]], Mapping[str, str]]


def make_experiment_dir(output_dir: Path, experiment: str) -> Path:
    """Create ``output_dir/experiment`` after checking it stays inside ``output_dir`` (no
    ``..``, no symbolic link), and check again once it exists."""
    exp = experiment_dir(output_dir, experiment)
    try:
        exp.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"cannot create {exp}: {exc.strerror or exc}; choose a writable "
                          "output_dir") from None
    return experiment_dir(output_dir, experiment)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale(exp_dir: Path) -> list[str]:
    """Remove temporary directories left by runs that were killed; returns their names."""
    host = socket.gethostname()
    removed = []
    for name in names_in(exp_dir):
        if not name.startswith(TMP_PREFIX):
            continue
        entry = exp_dir / name
        parts = name[len(TMP_PREFIX):].rsplit("-", 2)
        try:
            same_host, pid = parts[0] == host, int(parts[1])
        except (IndexError, ValueError):
            same_host, pid = False, -1
        try:
            age = time.time() - os.lstat(entry).st_mtime
        except FileNotFoundError:
            continue  # its run renamed it to a version (or removed it) since the listing
        if (same_host and pid != os.getpid() and not _pid_alive(pid)) or age > STALE_SECONDS:
            shutil.rmtree(entry, ignore_errors=True)  # gone meanwhile: nothing left to do
            removed.append(name)
    return removed


def _next_name(exp_dir: Path, stamp: str) -> str:
    taken = [version_key(name)[1] for name in names_in(exp_dir) if name.startswith(stamp)]
    return f"{stamp}-{max(taken, default=0) + 1:03d}"


def _write(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


#: zlib level of ``segments.npz``: level 1 compresses a WMT22 sweep's statistics about seven
#: times faster than ``np.savez_compressed``'s default (6), for a file about a fifth larger.
#: Only the bytes' sha256 is recorded; readers and ``verify`` compare the arrays, never
#: re-encode them, so records written at any level read alike.
SEGMENTS_LEVEL = 1


def encode_segments(arrays: Mapping[str, np.ndarray]) -> bytes:
    """The arrays as ``np.savez_compressed`` lays them out (one ``<key>.npy`` member each,
    deflated; ``np.load`` reads it), integers in the smallest safe width."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", allowZip64=True) as archive:
        for key, arr in arrays.items():
            if arr.dtype.kind == "i" and (arr.size == 0 or (arr.min() >= -(2**31)
                                                            and arr.max() < 2**31)):
                arr = arr.astype(np.int32)
            member = io.BytesIO()
            np.lib.format.write_array(member, arr, allow_pickle=False)
            # a fixed timestamp: the same arrays give the same bytes, hence the same sha256
            archive.writestr(zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0)),
                             member.getvalue(), zipfile.ZIP_DEFLATED, SEGMENTS_LEVEL)
    return buf.getvalue()


def write_version(output_dir: Path, experiment: str, record: dict[str, Any],
                  segments: bytes, extras: Extras | None = None) -> Path:
    """Store ``record`` (its ``version`` is filled in here) and return the version directory.

    ``segments`` are the bytes of ``segments.npz`` (their sha256 is already in the record).
    """
    exp_dir = make_experiment_dir(output_dir, experiment)
    clean_stale(exp_dir)
    tmp = exp_dir / f"{TMP_PREFIX}{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        tmp.mkdir()
        _write(tmp / SEGMENTS_FILE, segments)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        for _attempt in range(1000):
            record["version"] = _next_name(exp_dir, stamp)
            validate_record(record, "new record")
            _write(tmp / RECORD_FILE, dumps(record).encode("utf-8") + b"\n")
            for name, text in (extras(record) if extras else {}).items():
                _write(tmp / name, text.encode("utf-8"))
            final: Path = exp_dir / record["version"]
            try:
                os.rename(tmp, final)
            except OSError as exc:
                if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
                    continue  # another run took this name between listing and renaming
                raise
            _fsync_dir(exp_dir)
            return final
        raise RecordError(f"could not claim a version name in {exp_dir} after 1000 attempts")
    except OSError as exc:
        raise RecordError(
            f"cannot write the run record under {exp_dir}: {exc.strerror or exc}"
            f"{' (disk full)' if exc.errno == errno.ENOSPC else ''}; nothing was stored; "
            "free space or choose a writable output_dir") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = [
    "clean_stale", "encode_segments", "Extras", "make_experiment_dir", "STALE_SECONDS",
    "write_version",
]
