"""Tampered and oversized records: every reader (show, verify, compare, runs) fails with one
line naming the problem, never a traceback, a huge allocation or a silent success."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import signal
import zipfile
from pathlib import Path

import numpy as np
import pytest

from evalfw.cli.main import main
from tests.support.runs import mini


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two stored versions of one small experiment, in the current directory."""
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"the cat sat on the mat\nhello there world\n",
         b"the cat sat on a mat\nhello world\n", b"a cat on the mat\nthere world\n",
         extra="    level: [corpus, sentence]")
    for _ in range(2):
        assert main(["run", "mini.yaml", "--quiet"]) == 0
    return tmp_path


def versions(project: Path) -> list[Path]:
    return sorted((project / "runs" / "mini").iterdir())


def record_of(version: Path) -> dict:
    return json.loads((version / "record.json").read_text("utf-8"))


def write_segments(version: Path, arrays: dict[str, np.ndarray] | bytes) -> None:
    """Replace segments.npz and update its sha256 in record.json, as an attacker would."""
    if isinstance(arrays, bytes):
        data = arrays
    else:
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        data = buf.getvalue()
    (version / "segments.npz").write_bytes(data)
    record = record_of(version)
    record["segments"]["sha256"] = hashlib.sha256(data).hexdigest()
    (version / "record.json").write_text(json.dumps(record), "utf-8")


def arrays_of(version: Path) -> dict[str, np.ndarray]:
    with np.load(version / "segments.npz") as npz:
        return {k: npz[k] for k in npz.files}


def one_line_error(capsys, *argv: str, status: int = 2) -> str:
    assert main(list(argv)) == status
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def readers(version: Path, segments: bool = False) -> list[list[str]]:
    """The commands that read a version (``show`` reads no segments file)."""
    return [*([] if segments else [["show", str(version)]]), ["verify", str(version)],
            ["compare", str(versions(version.parents[2])[0]), str(version)]]


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a": ' + "9" * 5001 + "}",
                                  '{"a": 1' + "0" * 400 + ".5e999}", '{"a": NaN}',
                                  "\udcff".encode("utf-8", "surrogatepass").decode("latin-1")])
def test_unreadable_record_json_is_one_line_everywhere_and_listed(project, body, capsys):
    old, new = versions(project)
    (new / "record.json").write_text(body, "utf-8", errors="surrogateescape")
    for argv in readers(new):
        one_line_error(capsys, *argv)
    assert main(["runs", "mini", "--format", "json"]) == 0
    listed = {e["version"]: e for e in json.loads(capsys.readouterr().out)}
    assert "error" in listed[new.name] and "error" not in listed[old.name]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", ["record.json", "segments.npz"])
def test_a_fifo_in_a_version_is_refused_without_waiting_for_a_writer(project, name, capsys):
    _old, new = versions(project)
    (new / name).unlink()
    os.mkfifo(new / name)  # opening it for reading would block until a writer comes

    def hung(*_: object) -> None:
        raise AssertionError(f"reading a version whose {name} is a FIFO waits for a writer")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        for argv in readers(new, segments=name == "segments.npz"):
            err = one_line_error(capsys, *argv)
            # a record.json that is no regular file means no run there
            assert "FIFO" in err if name == "segments.npz" else "no run" in err
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_deep_but_parseable_record_is_refused_before_the_schema(project, capsys):
    _old, new = versions(project)
    record = record_of(new)
    record["extra"] = json.loads("[" * 500 + "]" * 500)
    (new / "record.json").write_text(json.dumps(record), "utf-8")
    assert "nested" in one_line_error(capsys, "show", str(new))


def test_an_extra_array_is_refused_without_being_unpacked(project, capsys, monkeypatch):
    _old, new = versions(project)
    arrays = arrays_of(new)
    write_segments(new, {**arrays, "bomb": np.zeros(4_000_000, dtype=np.int64)})
    for argv in readers(new, segments=True):
        assert "unexpected member(s) bomb.npy" in one_line_error(capsys, *argv)


def test_declared_sizes_are_checked_against_the_limit_before_reading(project, capsys,
                                                                       monkeypatch):
    _old, new = versions(project)
    monkeypatch.setenv("EVALFW_MAX_SEGMENTS_BYTES", "200")
    assert "EVALFW_MAX_SEGMENTS_BYTES" in one_line_error(capsys, "verify", str(new))


def test_a_member_larger_than_its_shape_is_refused(project, capsys):
    _old, new = versions(project)
    arrays = arrays_of(new)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            member = io.BytesIO()
            np.save(member, arr)
            zf.writestr(f"{name}.npy", member.getvalue() + b"\0" * (1 << 20))
    write_segments(new, buf.getvalue())
    assert "declares" in one_line_error(capsys, "verify", str(new))


def test_object_arrays_are_never_unpickled(project, tmp_path, capsys):
    _old, new = versions(project)
    marker = tmp_path / "unpickled"

    class Payload:
        def __reduce__(self):
            return (marker.write_text, ("x",))

    arrays = arrays_of(new)
    name = next(iter(arrays))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for key, arr in arrays.items():
            member = io.BytesIO()
            if key == name:
                obj = np.empty(len(arr), dtype=object)
                obj[:] = [Payload()] * len(arr)
                np.save(member, obj, allow_pickle=True)
            else:
                np.save(member, arr)
            zf.writestr(f"{key}.npy", member.getvalue())
    write_segments(new, buf.getvalue())
    for argv in readers(new, segments=True):
        assert "dtype object" in one_line_error(capsys, *argv)
    assert not marker.exists() and pickle  # the payload was built, never loaded


@pytest.mark.parametrize("damage", ["truncated", "wrong shape", "missing", "unknown cell",
                                    "nan", "float statistics"])
def test_damaged_segments_are_one_line_errors(project, damage, capsys):
    _old, new = versions(project)
    arrays = arrays_of(new)
    record = record_of(new)
    stats = record["results"][0]["segments"]
    sentence = next(r["sentence_scores"] for r in record["results"] if "sentence_scores" in r)
    if damage == "truncated":
        write_segments(new, (new / "segments.npz").read_bytes()[:-100])
    elif damage == "wrong shape":
        write_segments(new, {**arrays, stats: arrays[stats][:1]})
    elif damage == "missing":
        write_segments(new, {k: v for k, v in arrays.items() if k != stats})
    elif damage == "unknown cell":
        record["results"][0]["segments"] = "c999"
        (new / "record.json").write_text(json.dumps(record), "utf-8")
    elif damage == "nan":
        write_segments(new, {**arrays, sentence: np.full_like(arrays[sentence], np.nan)})
    else:
        write_segments(new, {**arrays, stats: arrays[stats].astype(np.float32)})
    for argv in readers(new, segments=True):
        assert main(argv) in (1, 2)
        err = capsys.readouterr().err
        assert err.startswith("evalfw: error: ") and "Traceback" not in err


def test_negative_counts_are_invalid_statistics_not_a_comparison(project, capsys):
    old, new = versions(project)
    arrays = arrays_of(new)
    stats = record_of(new)["results"][0]["segments"]
    write_segments(new, {**arrays, stats: -arrays[stats] - 1})
    err = one_line_error(capsys, "compare", str(old), str(new))
    assert "not valid" in err and "p=1.0" not in err
    assert main(["verify", str(new)]) == 1
