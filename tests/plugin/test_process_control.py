"""Plugin code that tries to control the process: ``os._exit``, ``os.fork`` or a non-daemon
thread left running becomes one ``evalfw: error:`` line naming the plugin, exit status 2, and
nothing stored; the command never hangs and leaves no process behind. Each case runs the real
command in a subprocess with a timeout, so a regression fails instead of hanging the suite."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "configs" / "sample" / "en-de"
REF, HYP = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
TIMEOUT = 120

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

PLUGIN = """\
import os, threading, time
import numpy as np
import evalfw

MODE = os.environ["EVIL_MODE"]
if MODE == "import-fork":  # at import time, outside any call evalfw makes
    os.fork()

def wait_forever():
    time.sleep(3600)

class Evil(evalfw.Metric):
    name = "evil"

    def segment_statistics(self, hypotheses, references):
        if MODE == "exit":
            os._exit(0)
        if MODE == "fork":
            pid = os.fork()
            if pid:
                with open(os.environ["EVIL_PIDS"], "a") as f:
                    f.write(f"{pid}\\n")
        if MODE == "thread":
            threading.Thread(target=wait_forever, name="waiter").start()
        if MODE == "sleeper":
            threading.Thread(target=time.sleep, args=(3600,)).start()
        if MODE == "joined":
            t = threading.Thread(target=time.sleep, args=(0.01,))
            t.start()
            t.join()
        if MODE == "pool":  # processes started the way a library starts them
            import multiprocessing
            import subprocess
            import sys
            pool = multiprocessing.get_context("fork").Pool(2)
            try:
                assert pool.map(len, hypotheses) == [len(h) for h in hypotheses]
            finally:  # ended as a pool should be: its workers finish, none is killed
                pool.close()
                pool.join()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
        return np.ones((len(hypotheses), 1), dtype=np.int64)

    def score(self, statistics):
        return float(statistics.sum())

    def signature(self, nrefs):
        return "evil"

@evalfw.hookimpl
def evalfw_register_metrics():
    return [Evil]
"""

CONFIG = f"""\
schema_version: 1
experiment: evil
output_dir: runs
plugin_dirs: [plugins]
test_sets:
  - name: t
    langs: en-de
    references: [{REF}]
    systems: {{"*": "{SAMPLE / 'sys'}/*.txt"}}
metrics:
  - name: bleu
  - name: evil
    metric: evil
"""


def evalfw(tmp: Path, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp / "plugins").mkdir(exist_ok=True)
    (tmp / "plugins" / "evil.py").write_text(PLUGIN, "utf-8")
    (tmp / "c.yaml").write_text(CONFIG, "utf-8")
    env = {**os.environ, "EVIL_MODE": mode, "EVIL_PIDS": str(tmp / "pids"),
           "EVALFW_CONFIG_DIR": str(tmp / "config"), "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run([sys.executable, "-m", "evalfw", *args], capture_output=True,
                          text=True, env=env, cwd=tmp, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)


SCORE = ("score", "-r", REF, "-i", HYP, "-m", "bleu", "evil", "--plugins-dir", "plugins")
COMMANDS = {"score": SCORE, "run": ("run", "c.yaml", "--quiet", "--no-cache"),
            "run --jobs 2": ("run", "c.yaml", "--quiet", "--no-cache", "--jobs", "2")}


def one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: error: "), done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def nothing_stored(tmp: Path) -> None:
    versions = tmp / "runs" / "evil"
    assert not versions.exists() or not [p for p in versions.iterdir()
                                         if not p.name.startswith(".")]


@pytest.mark.parametrize("command", ["score", "run"])
def test_os_exit_in_a_plugin_is_an_error_naming_it(tmp_path, command):
    done = evalfw(tmp_path, "exit", *COMMANDS[command])
    one_line(done, "plugin 'evil'", "metric 'evil'", "segment_statistics", "os._exit(0)")
    assert done.stdout == ""
    nothing_stored(tmp_path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@pytest.mark.parametrize("command", ["score", "run", "run --jobs 2"])
def test_a_fork_in_a_plugin_is_an_error_and_its_child_does_not_go_on(tmp_path, command):
    done = evalfw(tmp_path, "fork", *COMMANDS[command])
    one_line(done, "plugin 'evil'", "called os.fork()", "nothing was stored")
    assert done.stdout == ""  # the child printed no scores either
    nothing_stored(tmp_path)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids), "a forked child is still running"


def test_a_fork_when_the_plugin_is_imported_leaves_it_out(tmp_path):
    done = evalfw(tmp_path, "import-fork", "plugins", "--plugins-dir", "plugins")
    assert done.returncode == 0, done.stderr
    assert "called os.fork()" in done.stdout and done.stdout.count("evil  [") == 1
    done = evalfw(tmp_path, "import-fork", *COMMANDS["score"])
    one_line(done, "metric 'evil'")  # not loaded: an unknown metric
    assert done.stdout == ""


@pytest.mark.parametrize("command", ["score", "run"])
@pytest.mark.parametrize("mode", ["thread", "sleeper"])
def test_a_thread_left_running_is_an_error_and_the_command_ends(tmp_path, command, mode):
    started = time.monotonic()
    done = evalfw(tmp_path, mode, *COMMANDS[command])
    line = one_line(done, "plugin 'evil'", "left it running")
    assert "waiter" in line or mode == "sleeper"
    assert time.monotonic() - started < TIMEOUT / 2
    nothing_stored(tmp_path)


@pytest.mark.parametrize("mode", ["joined", "pool"])
def test_threads_and_processes_a_plugin_ends_itself_are_fine(tmp_path, mode):
    done = evalfw(tmp_path, mode, *COMMANDS["run"])
    assert done.returncode == 0, done.stderr
    assert [p for p in (tmp_path / "runs" / "evil").iterdir() if not p.name.startswith(".")]


def test_sigterm_while_waiting_for_threads_at_exit_prints_no_traceback(tmp_path):
    """A command whose own (non-plugin) thread keeps the interpreter waiting at exit ends on
    SIGTERM like any other command: no traceback from inside the interpreter's wait."""
    code = ("import sys, threading, time\n"
            "from evalfw.cli import _start\n"
            "threading.Thread(target=time.sleep, args=(30,)).start()\n"
            "sys.argv = ['evalfw', 'plugins']\n"
            "_start.start(True)\n")
    proc = subprocess.Popen([sys.executable, "-u", "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None and proc.stdout.readline()  # the command is printing
        time.sleep(2)  # ... and has ended: the interpreter waits for the thread
        proc.terminate()
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    assert "Traceback" not in err, err
    assert proc.returncode != 0


def test_a_plugins_child_processes_die_of_sigterm_as_processes_do(tmp_path):
    """The command line turns SIGTERM into an exception in its own process; a child a plugin
    forks (a multiprocessing pool, which ends its workers with SIGTERM) gets the default."""
    code = ("import multiprocessing, signal, sys\n"
            "import evalfw.plugin.guard\n"
            "from evalfw.cli import _start\n"
            "signal.signal(signal.SIGTERM, _start._terminate)\n"
            "def handler(_):\n"
            "    return repr(signal.getsignal(signal.SIGTERM))\n"
            "pool = multiprocessing.get_context('fork').Pool(1)\n"
            "print(pool.map(handler, [0])[0], signal.getsignal(signal.SIGTERM).__name__)\n"
            "pool.close()\n"
            "pool.join()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["<Handlers.SIG_DFL:", "0>", "_terminate"], done.stdout
