"""The command line under misbehaving plugins, odd file names, Ctrl-C and output switches:
one ``evalfw: error:`` line, ``evalfw: interrupted`` (130), output that always parses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.runs import REPO

SAMPLE = REPO / "configs" / "sample" / "en-de"
REF, HYP = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
HYP2 = str(SAMPLE / "sys" / "Strong.txt")

EXITING_SMOOTHER = """\
import sys
import evalfw


class Quitter(evalfw.Smoother):
    name = "quitter"
    version = "1"
    scale = 100

    def smooth(self, counts):
        raise SystemExit({code})


@evalfw.hookimpl
def evalfw_register_smoothers():
    return [Quitter]
"""

BAD_REPORTERS = """\
import evalfw


class Raises(evalfw.Reporter):
    name = "raises"
    version = "1"

    def render(self, record):
        raise RuntimeError("boom")


class NotText(evalfw.Reporter):
    name = "not-text"
    version = "1"

    def render(self, record):
        return 42


class Exits(evalfw.Reporter):
    name = "exits"
    version = "1"

    def render(self, record):
        raise SystemExit(0)


@evalfw.hookimpl
def evalfw_register_reporters():
    return [Raises, NotText, Exits]
"""


def evalfw_cli(*argv: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1", **kw.pop("env", {})}
    return subprocess.run([sys.executable, "-m", "evalfw", *argv], capture_output=True,
                          env=env, timeout=120, **kw)


def one_line(err: str) -> str:
    assert err.startswith("evalfw: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("code", [0, 3, "'bye'"])
def test_a_smoother_that_exits_is_a_plugin_error(tmp_path, capsys, code):
    plugins = tmp_path / "p"
    plugins.mkdir()
    (plugins / "quit.py").write_text(EXITING_SMOOTHER.format(code=code), "utf-8")
    status = main(["score", "-r", REF, "-i", HYP, "--smooth", "quitter",
                   "--plugins-dir", str(plugins)])
    err = one_line(capsys.readouterr().err)
    assert status == 2 and "SystemExit" in err and "quit.py" in err


def test_a_smoother_that_exits_in_a_worker_process_is_a_plugin_error(tmp_path):
    plugins = tmp_path / "p"
    plugins.mkdir()
    (plugins / "quit.py").write_text(EXITING_SMOOTHER.format(code=0), "utf-8")
    write_config(tmp_path, "quit", "{name: q, smoothing: quitter}", "plugin_dirs: [p]\n")
    done = evalfw_cli("run", "c.yaml", "--jobs", "2", "--quiet", "--no-cache", cwd=tmp_path)
    err = one_line(done.stderr.decode())
    assert done.returncode == 2 and "SystemExit" in err
    assert not (tmp_path / "runs" / "quit").exists() or not any((tmp_path / "runs" / "quit")
                                                               .iterdir())


def test_a_plugin_module_exiting_on_import_is_reported_not_obeyed(tmp_path):
    plugins = tmp_path / "p"
    plugins.mkdir()
    (plugins / "bye.py").write_text("import sys\nsys.exit(3)\n", "utf-8")
    listed = evalfw_cli("plugins", "--plugins-dir", str(plugins), "--json")
    assert listed.returncode == 0
    rows = json.loads(listed.stdout)
    assert any(r["name"] == "bye" and "SystemExit" in (r.get("error") or "") for r in rows)
    scored = evalfw_cli("score", "-r", REF, "-i", HYP, "--plugins-dir", str(plugins), "-b")
    assert scored.returncode == 0 and scored.stdout.strip()


@pytest.mark.parametrize("name, what", [("raises", "RuntimeError"), ("not-text", "int"),
                                        ("exits", "SystemExit")])
def test_misbehaving_reporters_are_named(tmp_path, monkeypatch, capsys, name, what):
    plugins = tmp_path / "p"
    plugins.mkdir()
    (plugins / "reporters.py").write_text(BAD_REPORTERS, "utf-8")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(f"""\
schema_version: 1
experiment: rep
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [{REF}]
    systems: {{A: {HYP}}}
metrics:
  - name: bleu
""", "utf-8")
    assert main(["run", "c.yaml", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["show", "rep", "--format", name, "--plugins-dir", str(plugins)]) == 2
    err = one_line(capsys.readouterr().err)
    assert what in err and (name in err or "reporters.py" in err)


def test_json_output_is_valid_utf8_for_a_file_name_that_is_not(tmp_path):
    odd = os.fsencode(tmp_path) + b"/sys-\xff\xfe.txt"
    with open(odd, "wb") as f:
        f.write(Path(HYP).read_bytes())
    for argv in (["score", "-r", REF, "-i", HYP, odd, "--format", "json"],
                 ["score", "-r", REF, "-i", HYP, odd, "--json", "--paired-bs",
                  "--paired-bs-n", "20"]):
        done = evalfw_cli(*argv)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout.decode("utf-8"))  # strict UTF-8, then JSON
        assert data


#: the console entry point, started after a line on stderr that says the interpreter is up
#: (its signal handler installed, ``site`` imported): what runs after that line is evalfw's
ANNOUNCED_ENTRY = ("import sys; sys.stderr.write('up\\n'); sys.stderr.flush(); "
                   "from evalfw.cli.entry import main; main()")


@pytest.mark.parametrize("after", [0.01, 0.02, 0.05, 0.1, 0.2, 0.4])
def test_ctrl_c_at_any_moment_is_interrupted_not_a_traceback(after):
    # from evalfw's first instructions (importing the package, numpy, the plugins) to the middle
    # of the work; 10 ms after the line is the time the import statement that leads into
    # evalfw's entry point takes on a busy machine (the statement is not evalfw's)
    proc = subprocess.Popen([sys.executable, "-c", ANNOUNCED_ENTRY, "score", "-r", REF, "-i",
                             HYP, HYP2, "--paired-bs", "--paired-bs-n", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert proc.stderr is not None and proc.stderr.readline() == b"up\n"
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    text = err.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    # the one line, after at most the warnings the command gives before it computes
    lines = text.splitlines()
    assert proc.returncode == 130 and lines[-1:] == ["evalfw: interrupted"], (proc.returncode, text)
    assert all(line.startswith("evalfw: warning: ") for line in lines[:-1]), text


def test_importing_evalfw_changes_nothing_in_the_users_process():
    code = ("import os, sys; before = dict(os.environ); import evalfw; "
            "print(dict(os.environ) == before, 'numpy' in sys.modules, 'pluggy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items()
                               if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")})
    assert done.stdout.split() == ["True", "False", "False"], done.stderr


def write_config(tmp_path: Path, experiment: str, metric: str, extra: str = "") -> None:
    """c.yaml in tmp_path: two sample systems of one test set and one metric entry."""
    (tmp_path / "c.yaml").write_text(
        f"schema_version: 1\nexperiment: {experiment}\noutput_dir: runs\n{extra}"
        f"test_sets:\n  - name: t\n    langs: en-de\n    references: [{REF}]\n"
        f"    systems: {{A: {HYP}, B: {HYP2}}}\nmetrics:\n  - {metric}\n", "utf-8")


def stored_run(tmp_path: Path) -> None:
    write_config(tmp_path, "js", "name: bleu")


@pytest.mark.parametrize("switch", [["--json"], ["--format", "json"]])
def test_every_printing_command_takes_json_both_ways(tmp_path, monkeypatch, capsys, switch):
    monkeypatch.chdir(tmp_path)
    stored_run(tmp_path)
    commands = [["score", "-r", REF, "-i", HYP], ["run", "c.yaml", "--quiet"],
                ["validate", "c.yaml"], ["show", "js"], ["verify", "js", "--data-root", str(REPO)],
                ["runs"], ["compare", "js", "js", "-n", "10"], ["plugins", "--all"], ["schema"]]
    for argv in commands:
        assert main([*argv, *switch]) == 0, argv
        out = capsys.readouterr().out
        assert json.loads(out) is not None, argv


def test_abbreviations_are_not_options(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "-r", REF, "-i", HYP, "--lower"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: evalfw score" in err and "unrecognized arguments: --lower" in err
