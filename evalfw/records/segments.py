"""Reading ``segments.npz`` as untrusted data: bounded, checked, never code.

The archive is a zip of ``.npy`` members. Before anything is decompressed, its directory is
checked against the record: exactly the arrays the record's results name (no extra, no missing
member), each no larger than the size its declared shape needs, all together within
:func:`evalfw.limits.max_segments_bytes`. Each array's header is read first: only integer or
float dtypes (pickled objects are never loaded), the shape the record implies (one row per
segment of its test set). Floats must be finite. Metric-specific value ranges (negative counts,
matches above totals) are checked where the metric is known (``Metric.check_statistics``).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Mapping
from typing import IO, Any

import numpy as np

from evalfw.errors import RecordError
from evalfw.limits import MAX_STATISTICS_COLUMNS, max_segments_bytes

#: what evalfw writes: counts as int32 where they fit, else int64; scores as float64
#: (little-endian, the .npy default; ``dtype.str`` spells them i4, i8, f8)
STORED_DTYPES = ("i4", "i8", "f8")

#: the arrays of one schema-1 cell (BLEU's counts), named ``<cell>.<name>``
V1_ARRAYS = ("hyp_len", "ref_lens", "matches", "totals")


def expected_arrays(record: Mapping[str, Any]) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Array name -> (rows, allowed numbers of dimensions) for every array the record names
    (statistics cells, sentence scores, human judgements)."""
    rows = {ts["name"]: int(ts["segments"]) for ts in record["test_sets"]}
    v1 = record["segments"].get("format") == "npz-1"
    out: dict[str, tuple[int, tuple[int, ...]]] = {}
    for r in record["results"]:
        n = rows.get(r["test_set"])
        if n is None:
            raise RecordError(f"result {r['test_set']}/{r['system']}/{r['metric']} names a test "
                              "set the record does not have")
        if v1:
            for name in V1_ARRAYS:
                out[f"{r['segments']}.{name}"] = (n, (1, 2))
        else:
            out[r["segments"]] = (n, (2,))
        if "sentence_scores" in r:
            out[r["sentence_scores"]] = (n, (1,))
    for j in record.get("judgements", ()):  # human judgements: [score, judged] rows
        n = rows.get(j["test_set"])
        if n is None:
            raise RecordError(f"judgements '{j['name']}' name a test set the record does not "
                              "have")
        for system in j["systems"]:
            if "segments" in system:
                out[system["segments"]] = (n, (2,))
    return out


def _header(f: IO[bytes]) -> tuple[tuple[int, ...], np.dtype[Any]]:
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        shape, _fortran, dtype = np.lib.format.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, _fortran, dtype = np.lib.format.read_array_header_2_0(f)
    else:
        raise ValueError(f"unsupported .npy format version {version}")
    return shape, dtype


def _check_member(name: str, info: zipfile.ZipInfo, shape: tuple[int, ...],
                  dtype: np.dtype[Any], rows: int, ndims: tuple[int, ...]) -> str | None:
    if dtype.hasobject or dtype.str.lstrip("<=|") not in STORED_DTYPES:
        return (f"array {name} has dtype {dtype}; evalfw stores only "
                f"{', '.join(STORED_DTYPES)} arrays")
    if len(shape) not in ndims or shape[0] != rows:
        want = "rows" if ndims == (2,) else "values"
        return f"array {name} has shape {shape}; the record implies {rows} {want}"
    if len(shape) == 2 and shape[1] > MAX_STATISTICS_COLUMNS:
        return f"array {name} has {shape[1]} columns (at most {MAX_STATISTICS_COLUMNS})"
    need = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if info.file_size > need + 65536:  # header and padding are small
        return (f"member {info.filename} declares {info.file_size} bytes where its shape "
                f"needs {need}")
    return None


def read_segments(data: bytes, record: Mapping[str, Any], shown: str) -> dict[str, np.ndarray]:
    """The arrays of a segments file's bytes (already matched against the recorded sha256),
    checked against ``record``; any problem is a :class:`RecordError` naming it."""
    expected = expected_arrays(record)
    limit = max_segments_bytes()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = {i.filename: i for i in zf.infolist()}
            members = {f"{k}.npy": k for k in expected}
            extra = sorted(set(infos) - set(members))
            if extra:
                raise RecordError(f"{shown}: unexpected member(s) {', '.join(extra[:5])}; the "
                                  "record names no such array")
            missing = sorted(members[m] for m in members if m not in infos)
            if missing:
                raise RecordError(f"{shown}: array(s) {', '.join(missing[:5])} named by the "
                                  "record are missing")
            declared = sum(i.file_size for i in infos.values())
            if declared > limit:
                raise RecordError(f"{shown}: its arrays declare {declared} bytes unpacked, more "
                                  f"than the limit of {limit} (EVALFW_MAX_SEGMENTS_BYTES)")
            out = {}
            for member, name in members.items():
                info = infos[member]
                rows, ndims = expected[name]
                with zf.open(info) as f:
                    shape, dtype = _header(f)
                problem = _check_member(name, info, shape, dtype, rows, ndims)
                if problem is not None:
                    raise RecordError(f"{shown}: {problem}")
                with zf.open(info) as f:
                    arr = np.lib.format.read_array(f, allow_pickle=False)
                if arr.dtype.kind == "f" and not np.isfinite(arr).all():
                    raise RecordError(f"{shown}: array {name} holds NaN or infinite values")
                out[name] = arr.astype(np.int64) if arr.dtype.kind == "i" else arr
            return out
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError,
            NotImplementedError) as exc:
        raise RecordError(f"{shown}: the segments file is damaged ({type(exc).__name__}: "
                          f"{exc})") from None


__all__ = ["expected_arrays", "read_segments", "STORED_DTYPES", "V1_ARRAYS"]
