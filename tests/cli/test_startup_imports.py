"""`evalfw --help`, `--version` and every `evalfw COMMAND --help` start without numpy or
jsonschema: each is checked in a fresh interpreter, whose loaded modules are listed after the
command printed its text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "jsonschema")

PROBE = """
import json, sys
from evalfw.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.__stderr__.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def loaded_by(*argv: str) -> tuple[set[str], str]:
    """Top-level packages loaded by ``evalfw ARGV``, and what it printed."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, timeout=60, check=False, cwd=ROOT,
                          env={**os.environ, "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1"})  # built-ins
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return {name.split(".")[0] for name in json.loads(line[len("MODULES "):])}, done.stdout


@pytest.mark.parametrize("argv", [("--help",), ("--version",),
                                  *((name, "--help") for name in COMMANDS)],
                         ids=lambda a: " ".join(a))
def test_help_and_version_import_no_heavy_package(argv: tuple[str, ...]) -> None:
    modules, printed = loaded_by(*argv)
    assert printed.strip(), f"evalfw {' '.join(argv)} printed nothing"
    heavy = set(HEAVY) & modules
    assert not heavy, f"`evalfw {' '.join(argv)}` imported {sorted(heavy)}"


def test_probe_sees_a_heavy_import() -> None:
    # the probe itself must be able to fail: a command that computes does load numpy
    modules, _ = loaded_by("validate", "configs/wmt.yaml")
    assert "jsonschema" in modules
