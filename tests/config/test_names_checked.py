"""Every name and path is checked after parsing, wherever it comes from (a config value
written with a YAML escape, a file name matched by a glob, a record, the command line), and
escaped wherever it is printed: no control or bidi character reaches a terminal or a report
raw, and no name goes into a CSV file as a spreadsheet formula."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalfw.cli.main import main

SAMPLE = Path(__file__).resolve().parents[2] / "configs" / "sample" / "en-de"
REF = SAMPLE / "ref.A.txt"
WEAK = SAMPLE / "sys" / "Weak.txt"
RAW = ("\x1b", "\x07", "\x00", "\u202e", "\u2066", "\x9b")

CONFIG = """\
schema_version: 1
experiment: names
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems: {systems}
metrics:
  - name: bleu
reports: [table, csv, latex, markdown]
"""


def no_raw(*texts: str) -> None:
    for text in texts:
        for char in RAW:
            assert char not in text, (char, text)


def project(tmp: Path, systems: str, top: str = "") -> None:
    (tmp / "ref.txt").write_bytes(REF.read_bytes())
    (tmp / "sys").mkdir(exist_ok=True)
    (tmp / "c.yaml").write_text(top + CONFIG.format(systems=systems), "utf-8")


def evalfw(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EVALFW_CONFIG_DIR": str(tmp / "config"),
           "EVALFW_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run([sys.executable, "-m", "evalfw", *args], capture_output=True,
                          text=True, env=env, cwd=tmp, timeout=60, errors="surrogateescape",
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("stem", ["Ev\x1b[31mRED\x1b[0m", "A\u202eB", "x\u2066y", "tab\tbed"])
def test_a_system_named_by_a_file_stem_is_checked_like_a_config_key(tmp_path, stem):
    project(tmp_path, '{"*": "sys/*.txt"}')
    (tmp_path / "sys" / f"{stem}.txt").write_bytes(WEAK.read_bytes())
    for command in ("validate", "run"):
        done = evalfw(tmp_path, command, "c.yaml")
        assert done.returncode == 2, done.stdout + done.stderr
        assert "rename the file" in done.stderr and "Traceback" not in done.stderr
        no_raw(done.stdout, done.stderr)
    assert not (tmp_path / "runs").exists()


def test_a_file_name_that_is_not_utf8_is_refused_before_anything_is_computed(tmp_path):
    project(tmp_path, '{"*": "sys/*.txt"}')
    name = os.fsencode(tmp_path / "sys") + b"/caf\xe9.txt"
    with open(name, "wb") as fh:
        fh.write(WEAK.read_bytes())
    for command in ("validate", "run"):
        done = evalfw(tmp_path, command, "c.yaml")
        assert done.returncode == 2, done.stderr
        assert "is not valid UTF-8" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("line", [
    'output_dir: "\\e]0;TITLE\\a"',
    'output_dir: "runs\\0x"',
    'output_dir: "runs\\u202ex"',
    'experiment: "a\\u2066b"',
])
def test_escapes_in_yaml_values_are_checked_after_parsing(tmp_path, line):
    project(tmp_path, "{A: sys/a.txt}", top="")
    (tmp_path / "sys" / "a.txt").write_bytes(WEAK.read_bytes())
    text = (tmp_path / "c.yaml").read_text("utf-8")
    key = line.split(":")[0]
    text = "\n".join(line if row.startswith(key + ":") else row for row in text.splitlines())
    (tmp_path / "c.yaml").write_text(text + "\n", "utf-8")
    for command in ("validate", "run"):
        done = evalfw(tmp_path, command, "c.yaml")
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert f"{key}: " in done.stderr and "holds the character U+" in done.stderr
        assert "Traceback" not in done.stderr
        no_raw(done.stdout, done.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "ref.txt", "sys"]


def test_a_system_key_with_a_bidi_control_is_refused(tmp_path):
    project(tmp_path, '{"A\\u202eB": sys/a.txt}')
    (tmp_path / "sys" / "a.txt").write_bytes(WEAK.read_bytes())
    done = evalfw(tmp_path, "validate", "c.yaml")
    assert done.returncode == 2 and "U+202E" in done.stderr, done.stderr
    no_raw(done.stderr)


def test_score_escapes_a_file_name_it_prints(tmp_path, capsys):
    odd = tmp_path / "odd\x1b]0;TITLE\x07.txt"
    odd.write_bytes(WEAK.read_bytes())
    code = main(["score", "-r", str(REF), "-i", str(odd), str(WEAK)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "odd\\x1b]0;TITLE\\x07.txt" in out
    no_raw(out, err)
    empty = tmp_path / "empty\x1b[2J.txt"
    empty.write_bytes(b"")
    assert main(["score", "-r", str(REF), "-i", str(empty)]) == 2
    out, err = capsys.readouterr()
    assert "empty\\x1b[2J.txt" in err
    no_raw(out, err)


def test_names_edited_into_a_record_are_refused_not_printed(tmp_path, monkeypatch, capsys):
    project(tmp_path, "{A: sys/a.txt}")
    (tmp_path / "sys" / "a.txt").write_bytes(WEAK.read_bytes())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["run", "c.yaml", "--quiet"]) == 0
    capsys.readouterr()
    (version,) = (tmp_path / "runs" / "names").iterdir()
    record = json.loads((version / "record.json").read_text("utf-8"))
    record["specs"][0]["signature"] = "BLEU\x1b]0;pwned\x07"
    (version / "record.json").write_text(json.dumps(record), "utf-8")
    for command in (["show", "names"], ["runs"], ["verify", "names"]):
        main(command)
        out, err = capsys.readouterr()
        assert "U+001B" in out + err and "edited" in out + err, command
        no_raw(out, err)


def test_a_name_that_looks_like_a_formula_is_text_in_the_csv(tmp_path, monkeypatch, capsys):
    project(tmp_path, '{"*": "sys/*.txt"}')
    for stem in ("=cmd|' calc'!A0", "+SUM(A1)", "@x", "-2+3", "Good"):
        (tmp_path / "sys" / f"{stem}.txt").write_bytes(WEAK.read_bytes())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["run", "c.yaml", "--quiet"]) == 0
    (version,) = (tmp_path / "runs" / "names").iterdir()
    import csv

    rows = list(csv.DictReader((version / "report-csv.csv").open(encoding="utf-8")))
    systems = {r["system"] for r in rows}
    assert systems == {"'=cmd|' calc'!A0", "'+SUM(A1)", "'@x", "'-2+3", "Good"}
    assert all(r["test_set"] == "t" and float(r["score"]) >= 0 for r in rows)
