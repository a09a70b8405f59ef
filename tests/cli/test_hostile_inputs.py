"""Hostile inputs on the command line: devices, FIFOs, oversized files and documents, control
characters and giant numbers. Each is refused early, on one line, with exit status 2, within a
few seconds and without reading the whole input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"
REF, HYP = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
HYP2 = str(SAMPLE / "sys" / "Strong.txt")
#: seconds any refusal may take (a process start included): nothing is read in full
QUICK = 20


def evalfw_cli(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "evalfw", *argv], capture_output=True,
                          text=True, env=full_env, timeout=QUICK, cwd=cwd, stdin=subprocess.DEVNULL)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The process ended with status 2 and an ``evalfw: error:`` last line naming ``words``."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("evalfw: error: "), done.stderr
    for word in words:
        assert word in last, (word, last)
    return last


def config_text(test_set_extra: str = "", top: str = "experiment: x\n") -> str:
    return (f"schema_version: 1\n{top}test_sets:\n  - name: t\n    langs: en-de\n"
            f"    references: [{REF}]\n    systems: {{A: {HYP}, B: {HYP2}}}\n{test_set_extra}"
            "metrics:\n  - name: bleu\n")


# ------------------------------------------------------------------------ devices and FIFOs

@pytest.mark.parametrize("argv, words", [
    (["score", "-r", REF, "-i", "/dev/zero"], ["/dev/zero", "character device"]),
    (["score", "-r", REF, "-i", "/dev/urandom"], ["/dev/urandom", "character device"]),
    (["score", "-r", "/dev/zero", "-i", HYP], ["/dev/zero", "character device"]),
    (["validate", "/dev/zero"], ["/dev/zero", "character device"]),
    (["run", "/dev/zero"], ["/dev/zero", "character device"]),
    (["score", "-r", REF, "-i", "/"], ["/", "directory"]),
])
def test_devices_and_directories_are_refused_before_reading(argv, words):
    refused(evalfw_cli(*argv), *words)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("where", ["hypothesis", "reference", "config", "config input"])
def test_a_fifo_without_a_writer_is_refused_not_waited_for(tmp_path, where):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    if where == "hypothesis":
        done = evalfw_cli("score", "-r", REF, "-i", str(fifo))
    elif where == "reference":
        done = evalfw_cli("score", "-r", str(fifo), "-i", HYP)
    elif where == "config":
        done = evalfw_cli("validate", str(fifo))
    else:
        (tmp_path / "c.yaml").write_text(config_text().replace(HYP2, str(fifo)), "utf-8")
        done = evalfw_cli("run", "c.yaml", "--quiet", cwd=tmp_path)
    last = refused(done, "pipe")
    assert "FIFO" in last or "not a regular file" in last
    assert time.monotonic() - started < QUICK


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_verify_reports_an_input_replaced_by_a_fifo(tmp_path):
    (tmp_path / "sys.txt").write_bytes(Path(HYP).read_bytes())
    (tmp_path / "c.yaml").write_text(config_text().replace(HYP, "sys.txt"), "utf-8")
    assert evalfw_cli("run", "c.yaml", "--quiet", cwd=tmp_path).returncode == 0
    (tmp_path / "sys.txt").unlink()
    os.mkfifo(tmp_path / "sys.txt")
    done = evalfw_cli("verify", "x", cwd=tmp_path)
    # an input that cannot be read cannot be verified: exit 2, saying which and why
    assert done.returncode == 2, done.stderr
    assert "FIFO" in done.stdout and "sys.txt" in done.stdout, done.stdout


def test_a_sparse_file_larger_than_the_limit_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(4 << 30)  # 4 GiB that cost no disk
    last = refused(evalfw_cli("score", "-r", REF, "-i", str(big)), "big.txt", "limit")
    assert "EVALFW_MAX_INPUT_BYTES" in last


def test_the_input_limit_holds_while_reading_standard_input():
    done = subprocess.run([sys.executable, "-m", "evalfw", "score", "-r", REF, "-i", "-"],
                          input=b"a b c\n" * 1000, capture_output=True, timeout=QUICK,
                          env={**os.environ, "EVALFW_MAX_INPUT_BYTES": "5000"})
    assert done.returncode == 2 and b"more than the limit of 5,000 bytes" in done.stderr


# ------------------------------------------------------------------------ configs

def test_a_config_over_the_size_limit_is_refused_before_parsing(tmp_path):
    from evalfw.limits import MAX_CONFIG_BYTES

    (tmp_path / "c.yaml").write_bytes(b"# padding\n" * (MAX_CONFIG_BYTES // 10 + 1))
    refused(evalfw_cli("validate", "c.yaml", cwd=tmp_path), "c.yaml", "limit")


def test_a_document_of_millions_of_nodes_is_refused_early_for_its_size(tmp_path):
    # 3.8 MB: under the byte limit, but about 1.9 million YAML nodes
    (tmp_path / "c.yaml").write_text("x: [" + ",".join(["1"] * 1_900_000) + "]\n", "utf-8")
    started = time.monotonic()
    last = refused(evalfw_cli("validate", "c.yaml", cwd=tmp_path), "c.yaml", "values")
    assert "alias" not in last
    assert time.monotonic() - started < QUICK


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b"])
@pytest.mark.parametrize("where", ["value", "comment"])
def test_a_control_character_in_a_config_is_named_with_its_position(tmp_path, char, where):
    text = config_text()
    if where == "comment":
        text = text.replace("experiment: x\n", f"experiment: x  # note{char}\n")
    else:
        text = text.replace("experiment: x\n", f"experiment: x{char}y\n")
    (tmp_path / "c.yaml").write_text(text, "utf-8")
    last = refused(evalfw_cli("validate", "c.yaml", cwd=tmp_path), "c.yaml:2:")
    assert f"U+{ord(char):04X}" in last or repr(char)[1:-1] in last, last


def test_a_control_character_in_a_set_value_is_refused(tmp_path):
    (tmp_path / "c.yaml").write_text(config_text(), "utf-8")
    last = refused(evalfw_cli("run", "c.yaml", "--set", "experiment=a\x1bb", cwd=tmp_path),
                   "--set")
    assert "\x1b" not in last  # the message escapes what it shows


@pytest.mark.parametrize("how", ["config", "set"])
def test_a_giant_integer_is_refused_without_a_traceback(tmp_path, how):
    digits = "9" * 5000
    if how == "config":
        (tmp_path / "c.yaml").write_text(config_text(top=f"experiment: x\nseed: {digits}\n"),
                                         "utf-8")
        done = evalfw_cli("validate", "c.yaml", cwd=tmp_path)
    else:
        (tmp_path / "c.yaml").write_text(config_text(), "utf-8")
        done = evalfw_cli("run", "c.yaml", "--set", f"seed={digits}", cwd=tmp_path)
    last = refused(done, "digit")
    assert len(last) < 400  # the number is not echoed back in full


def test_validate_json_reports_a_refused_device():
    done = evalfw_cli("validate", "/dev/zero", "--json")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    if done.stdout.strip():
        json.loads(done.stdout)
