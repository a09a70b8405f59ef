"""Every file evalfw opens is checked like an input: a plugin file, the trust list and each
cache file are read only when they are regular files of a bounded size; a FIFO or a device
there is one line naming it, never a hang or a read without end. Each command runs in a
subprocess with a timeout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"
REF, HYP = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
QUICK = 30

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

CONFIG = f"""\
schema_version: 1
experiment: x
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [{REF}]
    systems: {{A: {HYP}}}
metrics:
  - name: bleu
"""


def evalfw(tmp: Path, *args: str, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "EVALFW_CONFIG_DIR": str(tmp / "config"),
            "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "evalfw", *args], capture_output=True,
                          text=True, env=full, cwd=tmp, timeout=QUICK, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_plugin_file_that_is_not_a_regular_file_is_named_not_read(tmp_path, kind):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    bad = plugins / "bad.py"
    if kind == "fifo":
        os.mkfifo(bad)
    else:
        bad.symlink_to("/dev/zero")
    done = evalfw(tmp_path, "score", "-r", REF, "-i", HYP, "--plugins-dir", "plugins")
    assert done.returncode == 0, done.stderr  # BLEU needs nothing from it
    listed = evalfw(tmp_path, "plugins", "--plugins-dir", "plugins")
    assert listed.returncode == 0, listed.stderr
    assert "bad" in listed.stdout and "not a regular file" in listed.stdout, listed.stdout


def test_a_plugin_file_over_the_size_limit_is_named(tmp_path):
    from evalfw.limits import MAX_PLUGIN_FILE_BYTES

    plugins = tmp_path / "plugins"
    plugins.mkdir()
    with open(plugins / "huge.py", "wb") as fh:
        fh.truncate(MAX_PLUGIN_FILE_BYTES + 1)
    listed = evalfw(tmp_path, "plugins", "--plugins-dir", "plugins")
    assert "huge" in listed.stdout and "more than the limit" in listed.stdout, listed.stdout


@pytest.mark.parametrize("command", [("trust", "list"), ("run", "c.yaml"),
                                     ("trust", "add", ".")])
def test_a_fifo_at_the_trust_list_is_named(tmp_path, command):
    (tmp_path / "config").mkdir()
    os.mkfifo(tmp_path / "config" / "trusted-paths.json")
    (tmp_path / "c.yaml").write_text(CONFIG, "utf-8")
    done = evalfw(tmp_path, *command)
    assert "Traceback" not in done.stderr
    assert "trusted-paths.json" in done.stderr and "FIFO" in done.stderr, done.stderr
    if command[0] == "run":  # the run stands; only noting its files failed
        assert done.returncode == 0 and list((tmp_path / "runs" / "x").iterdir())
    else:
        assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_a_trust_list_nested_deeply_is_damaged_not_a_recursion_error(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "c.yaml").write_text(CONFIG, "utf-8")
    assert evalfw(tmp_path, "run", "c.yaml", "--quiet").returncode == 0
    (tmp_path / "config" / "trusted-paths.json").write_text("[" * 100_000 + "]" * 100_000)
    done = evalfw(tmp_path, "run", "c.yaml")
    assert done.returncode == 0 and "nested too deeply" in done.stderr, done.stderr
    for command in (("trust", "list"), ("trust", "add", "."), ("verify", "x")):
        done = evalfw(tmp_path, *command)
        assert "RecursionError" not in done.stderr and "Traceback" not in done.stderr, command
        assert "nested too deeply" in done.stderr, (command, done.stderr)


def test_a_fifo_in_the_statistics_cache_is_recomputed_with_a_warning(tmp_path):
    (tmp_path / "c.yaml").write_text(CONFIG, "utf-8")
    assert evalfw(tmp_path, "run", "c.yaml", "--quiet").returncode == 0
    entry = sorted((tmp_path / "runs" / ".cache" / "stats").rglob("*.npz"))[0]
    entry.unlink()
    os.mkfifo(entry)
    done = evalfw(tmp_path, "run", "c.yaml")
    assert done.returncode == 0, done.stderr
    assert "statistics cache entry" in done.stderr and "FIFO" in done.stderr, done.stderr


def test_a_fifo_as_a_reference_is_refused_before_the_run_estimates_its_work(tmp_path):
    os.mkfifo(tmp_path / "ref.txt")
    (tmp_path / "c.yaml").write_text(CONFIG.replace(REF, "ref.txt"), "utf-8")
    done = evalfw(tmp_path, "run", "c.yaml", "--quiet")
    assert done.returncode == 2 and "ref.txt" in done.stderr, done.stderr
    assert "FIFO" in done.stderr or "not a regular file" in done.stderr


def test_a_fifo_at_the_segment_score_cache_is_not_waited_for(tmp_path):
    from evalfw.metrics._score_cache import ScoreCache

    os.mkfifo(tmp_path / "s.sqlite")
    with pytest.warns(UserWarning, match="not a regular file"):
        cache = ScoreCache(tmp_path / "s.sqlite")
    assert cache.get(["a"]) == {}

