"""The record document: its JSON Schema, validation, canonical encoding and hashing.

A record is plain JSON data. Floats are written with ``repr`` precision (Python's ``json``
does that), so every score reads back bit-identical; NaN and infinity are refused.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from importlib import resources
from typing import Any

from evalfw.errors import RecordError

SCHEMA_VERSION = 3
#: schema files of the record versions this evalfw reads (it writes the newest)
SCHEMA_FILES = {1: "record-1.schema.json", 2: "record-2.schema.json", 3: "record.schema.json"}
RECORD_FILE = "record.json"
SEGMENTS_FILE = "segments.npz"
#: the segments file's layout written now (records of schema 1 hold "npz-1")
SEGMENTS_FORMAT = "npz-2"


@functools.cache
def record_schema(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """The record JSON Schema (draft 2020-12) of ``version``, shipped in this package."""
    text = resources.files("evalfw.records").joinpath(SCHEMA_FILES[version]).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate_record(record: Any, where: str = "record") -> None:
    """Raise RecordError naming the first schema violation (key path and message)."""
    import jsonschema

    if isinstance(record, dict) and isinstance(record.get("schema_version"), int) \
            and record["schema_version"] > SCHEMA_VERSION:
        raise RecordError(
            f"{where}: record schema_version {record['schema_version']} is newer than this "
            f"evalfw understands ({SCHEMA_VERSION}); upgrade evalfw to read it")
    version = record.get("schema_version") if isinstance(record, dict) else None
    if not (type(version) is int and version in SCHEMA_FILES):
        version = SCHEMA_VERSION  # the current schema names what is wrong with it
    validator = jsonschema.Draft202012Validator(record_schema(version))
    errors = sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
        raise RecordError(f"{where}: record{path}: {err.message} (record schema "
                          f"v{version}); the record is malformed or was edited by hand")
    check_names(record, where)


#: the fields of each list of a record that name something (printed in every report)
NAME_FIELDS: dict[str, tuple[str, ...]] = {
    "test_sets": ("name", "langs", "source"),
    "metrics": ("name", "metric", "label"),
    "specs": ("test_set", "metric", "signature", "sacrebleu_signature"),
    "results": ("test_set", "system", "metric", "level"),
    "inputs": ("path", "test_set", "system", "role"),
}


def _names(record: Mapping[str, Any]) -> Any:
    """(key path, value) of every name a record holds."""
    for key in ("experiment", "version"):
        yield key, record.get(key)
    for section, fields in NAME_FIELDS.items():
        for i, item in enumerate(record.get(section) or ()):
            for name in fields:
                yield f"{section}[{i}].{name}", item.get(name)
            if section == "test_sets":
                for j, system in enumerate(item.get("systems") or ()):
                    for name in ("name", "path", "label"):
                        yield f"{section}[{i}].systems[{j}].{name}", system.get(name)
                for j, path in enumerate(item.get("references") or ()):
                    yield f"{section}[{i}].references[{j}]", path


def check_names(record: Mapping[str, Any], where: str = "record") -> None:
    """Refuse a record whose names hold a character a terminal would not show as itself (a
    control or bidi character): evalfw checks every name before it writes one, so such a
    record was edited."""
    from evalfw.names import shown, unprintable

    for path, value in _names(record):
        bad = unprintable(value) if isinstance(value, str) else None
        if bad is not None:
            raise RecordError(f"{where}: record.{path} holds the character {bad} "
                              f"({shown(value, True)}); evalfw never writes one there: the "
                              "record was edited or damaged")


def _default(value: Any) -> Any:
    # numpy scalars and Fractions sneak in from plugins; everything else is a bug to report
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    if isinstance(value, Mapping):  # read-only config mappings (MappingProxyType)
        return dict(value)
    if isinstance(value, Fraction):
        return float(value)
    raise TypeError(f"cannot store {type(value).__name__} {value!r} in a record")


def dumps(data: Any, *, indent: int | None = 1) -> str:
    """JSON text of ``data`` (UTF-8 characters kept, NaN refused)."""
    return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False, default=_default)


def canonical_sha256(data: Any) -> str:
    """sha256 of the canonical JSON form (sorted keys, no spaces): a stable content hash."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False, default=_default)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def plain(data: Any) -> Any:
    """``data`` as it reads back from JSON (tuples become lists, and so on)."""
    return json.loads(dumps(data, indent=None))


__all__ = [
    "canonical_sha256", "check_names", "dumps", "NAME_FIELDS", "plain", "RECORD_FILE",
    "record_schema", "SCHEMA_FILES",
    "SCHEMA_VERSION", "SEGMENTS_FILE", "SEGMENTS_FORMAT", "validate_record",
]
