"""Running the real ``sacrebleu`` 2.6.0 command and the ``evalfw-sacrebleu`` drop-in on the same
arguments, files and environment, and what to compare: standard output (bytes), the exit
status and, when the command stops with an error, the last line of standard error.

sacreBLEU always runs as its console script in a subprocess. The drop-in runs either as its
console script too, or in this process through ``evalfw.compat.sacrebleu._cli.main`` (what the
console script calls, with ``sys.argv[1:]``), with its own standard streams, environment and
working directory, and ``prog="sacrebleu"`` so argparse's messages name the same program.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.support.cli import sacrebleu_command

#: variables that change what either command prints; each run sets only its own
CONTROLLED = ("SACREBLEU_SEED", "SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU")


@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: bytes
    stderr: str

    def last_error_line(self, prog: str = "evalfw-sacrebleu") -> str:
        """The last line of standard error, the program's name written as sacreBLEU's."""
        lines = self.stderr.rstrip("\n").split("\n")
        return lines[-1].replace(prog, "sacrebleu") if lines else ""


def _environment(env: dict[str, str]) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in CONTROLLED}
    return {**base, **env}


def run_sacrebleu(args: list[str], cwd: Path, stdin: bytes = b"",
                  env: dict[str, str] | None = None, timeout: float = 300) -> Outcome:
    done = subprocess.run([sacrebleu_command(), *args], input=stdin, capture_output=True,
                          cwd=cwd, env=_environment(env or {}), timeout=timeout)
    return Outcome(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def dropin_command() -> list[str]:
    """The drop-in's console script of this interpreter's environment, or ``python -m``."""
    here = Path(sys.executable).parent / "evalfw-sacrebleu"
    return [str(here)] if here.is_file() else [sys.executable, "-m", "evalfw.compat.sacrebleu"]


def run_dropin_process(args: list[str], cwd: Path, stdin: bytes = b"",
                       env: dict[str, str] | None = None, command: list[str] | None = None,
                       timeout: float = 300) -> Outcome:
    done = subprocess.run([*(command or dropin_command()), *args], input=stdin,
                          capture_output=True, cwd=cwd, env=_environment(env or {}),
                          timeout=timeout)
    return Outcome(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


@contextmanager
def _process_state(cwd: Path, env: dict[str, str], stdin: bytes):
    """This process's streams, environment and directory for one in-process run."""
    saved_env = dict(os.environ)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_dir = os.getcwd()
    saved_pipe = signal.getsignal(signal.SIGPIPE)
    out, err = io.BytesIO(), io.BytesIO()
    try:
        for key in CONTROLLED:
            os.environ.pop(key, None)
        os.environ.update(env)
        os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
        yield out, err
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_dir)
        os.environ.clear()
        os.environ.update(saved_env)
        signal.signal(signal.SIGPIPE, saved_pipe)
        from evalfw.compat._common import set_warning_sink

        set_warning_sink(None)


def run_dropin(args: list[str], cwd: Path, stdin: bytes = b"",
               env: dict[str, str] | None = None) -> Outcome:
    """The drop-in in this process (see the module docstring)."""
    from evalfw.compat.sacrebleu._cli import main

    with _process_state(cwd, env or {}, stdin) as (out, err):
        try:
            status = main(args, prog="sacrebleu")
        except SystemExit as stop:  # argparse: usage errors, --help, --version
            status = stop.code if isinstance(stop.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        return Outcome(status, out.getvalue(), err.getvalue().decode("utf-8", "replace"))


def assert_same(theirs: Outcome, ours: Outcome, what: str, prog: str = "sacrebleu") -> None:
    """Same status, same standard output, and on failure the same last line of stderr."""
    assert ours.status == theirs.status, (
        f"{what}: status {ours.status}, sacreBLEU {theirs.status}\n"
        f"ours: {ours.stderr[-2000:]}\nsacreBLEU: {theirs.stderr[-2000:]}")
    assert ours.stdout == theirs.stdout, (
        f"{what}: standard output differs\nours:\n{ours.stdout.decode(errors='replace')}\n"
        f"sacreBLEU:\n{theirs.stdout.decode(errors='replace')}")
    if theirs.status != 0:
        assert ours.last_error_line(prog) == theirs.last_error_line(), (
            f"{what}: last line of standard error\nours: {ours.stderr[-2000:]}\n"
            f"sacreBLEU: {theirs.stderr[-2000:]}")


__all__ = ["assert_same", "dropin_command", "Outcome", "run_dropin", "run_dropin_process",
           "run_sacrebleu"]
