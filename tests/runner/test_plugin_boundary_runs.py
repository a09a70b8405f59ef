"""A run with a misbehaving metric plugin (from a plugin directory) ends in one
``evalfw: error:`` line naming the plugin, the class and the method, exit status 2, and stores
nothing; ``--debug`` keeps the traceback. Plugin attributes are checked when the plugin
registers, naming it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from evalfw.cli.main import main
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)

BOUND_SECONDS = 30

CONFIG = """\
schema_version: 1
experiment: pb
output_dir: runs
plugin_dirs: [plugins]
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems: {{A: a.txt, B: b.txt}}
metrics:
  - name: m
    metric: odd
{extra}
"""

PLUGIN = """\
import numpy as np
import evalfw

class Odd(evalfw.Metric):
    name = {name}
    version = {version}
    higher_is_better = {higher}
    options_schema = {schema}

    def segment_statistics(self, hypotheses, references):
        rows = np.array([[len(h.split()), 1] for h in hypotheses], dtype=np.int64)
{statistics}
        return rows

    def score(self, statistics):
        return float(statistics[:, 0].sum())

    def score_rows(self, sums, last=None, segments=1):
{score_rows}
        return sums[:, 0].astype(float)

    def signature(self, nrefs):
        return {signature}

@evalfw.hookimpl
def evalfw_register_metrics():
    return [Odd]
"""

DEFAULTS = {"name": "odd", "version": "'1'", "higher": "True", "signature": "'odd'",
            "schema": "evalfw.Metric.options_schema", "statistics": "", "score_rows": ""}


def project(tmp: Path, extra: str = "", **plugin: str) -> Path:
    (tmp / "plugins").mkdir()
    code = {**DEFAULTS, **plugin}
    code["name"] = repr(code["name"])  # the name as a Python literal: any character in it
    for key in ("statistics", "score_rows"):
        code[key] = textwrap.indent(code[key], " " * 8)
    (tmp / "plugins" / "oddplugin.py").write_text(PLUGIN.format(**code), "utf-8")
    (tmp / "ref.txt").write_text("a b c\nd e\nf g h i\n", "utf-8")
    (tmp / "a.txt").write_text("a b\nd e\nf g h\n", "utf-8")
    (tmp / "b.txt").write_text("a b c\nd\nf\n", "utf-8")
    (tmp / "pb.yaml").write_text(CONFIG.format(extra=extra), "utf-8")
    return tmp


def run_fails(tmp: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    status = main(["run", str(tmp / "pb.yaml"), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("evalfw: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err
    assert not (tmp / "runs" / "pb").exists() or not any((tmp / "runs" / "pb").iterdir())
    return err


@pytest.mark.parametrize("statistics, said", [
    ("rows = rows[:-1]", "2 rows for 3 segments"),
    ("rows = rows.astype(np.float32)", "float32"),
    ("rows = rows.astype(np.uint64)", "uint64"),
    ("rows = rows.astype(float); rows[1, 0] = np.nan",
     "NaN or infinity (test set 't', system 'A', first at segment 2)"),
    ("rows = rows.tolist()", "must be a numpy array"),
    ("if any('d' in h for h in hypotheses): raise ValueError('no d')",
     "raised ValueError: no d (test set 't', system 'A', first at segment 2)"),
])
def test_a_run_with_bad_statistics_stores_nothing(tmp_path, capsys, statistics, said):
    project(tmp_path, statistics=statistics)
    run_fails(tmp_path, capsys, "plugin 'oddplugin'", "metric 'odd'", "Odd).segment_statistics",
              said)


def test_a_non_string_signature_names_the_plugin(tmp_path, capsys):
    project(tmp_path, signature="None")
    run_fails(tmp_path, capsys, "Odd).signature returned NoneType None")


def test_nan_from_score_rows_names_the_plugin_not_a_reporter(tmp_path, capsys):
    project(tmp_path, score_rows="return np.full(len(sums), np.nan)",
            extra="reports: [html]\nsignificance: {baseline: A, samples: 50}")
    err = run_fails(tmp_path, capsys, "Odd).score_rows returned NaN")
    assert "reporter" not in err


def test_debug_keeps_the_traceback(tmp_path):
    project(tmp_path, statistics="raise KeyError('deep')")
    with pytest.raises(Exception) as err:
        main(["run", str(tmp_path / "pb.yaml"), "--quiet", "--debug"])
    assert "segment_statistics" in str(err.value)
    assert isinstance(err.value.__cause__, KeyError)


@pytest.mark.parametrize("plugin, said", [
    ({"version": "None"}, "its version is None, not a string"),
    ({"higher": "'no'"}, "higher_is_better is str 'no', not True or False"),
    ({"name": "odd\nTER = 0.00"}, "its name 'odd\\nTER = 0.00' is not 1 to 128 letters"),
    ({"name": "odd\u202e"}, "its name 'odd\\u202e' is not 1 to 128 letters"),
    ({"schema": "{'type': 'object', 'properties': {'x': {'type': 'wobbly'}}}"},
     "options_schema is invalid"),
    ({"schema": "{'type': 'object', 'properties': {'x': {'$ref': 'https://example.com/s'}}}"},
     "refers to 'https://example.com/s'"),
])
def test_plugin_attributes_are_checked_at_registration(tmp_path, capsys, plugin, said):
    project(tmp_path, **plugin)
    run_fails(tmp_path, capsys, "plugin 'oddplugin'", said)


def test_a_refusal_in_a_worker_process_is_the_same_line(tmp_path, capsys):
    project(tmp_path, statistics="rows = rows.astype(float); rows[2, 1] = np.inf")
    status = main(["run", str(tmp_path / "pb.yaml"), "--quiet", "--jobs", "2"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1, err
    assert "Odd).segment_statistics returned NaN or infinity (test set 't', system 'A', first " \
        "at segment 3)" in err


def test_rows_of_different_widths_for_two_systems_are_refused(tmp_path, capsys):
    project(tmp_path, statistics="if 'a b c' in hypotheses: rows = np.hstack([rows, rows])")
    run_fails(tmp_path, capsys, "Odd).segment_statistics returned rows of different widths",
              "2 int64 columns, 4 int64 columns")


def test_check_options_that_raises_names_the_plugin(tmp_path, capsys):
    project(tmp_path, statistics="")
    path = tmp_path / "plugins" / "oddplugin.py"
    path.write_text(path.read_text("utf-8").replace(
        "    def segment_statistics", "    @classmethod\n"
        "    def check_options(cls, options, host, checker):\n"
        "        raise RecursionError('deep')\n\n    def segment_statistics"), "utf-8")
    run_fails(tmp_path, capsys, "Odd).check_options raised RecursionError: deep")


def test_a_refusal_on_a_dask_worker_names_the_plugin_as_the_client_knows_it(tmp_path, capsys):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    project(tmp_path, statistics="rows = rows.astype(float); rows[2, 1] = np.nan")
    status = main(["run", str(tmp_path / "pb.yaml"), "--quiet", "--executor", "dask"])
    err = capsys.readouterr().err.strip().splitlines()[-1]  # the worker's own log before it
    assert status == 2
    assert err.startswith("evalfw: error: plugin 'oddplugin' (") and \
        "--disable-plugin oddplugin" in err, err
    assert "Odd).segment_statistics returned NaN or infinity (test set 't', system 'A', first " \
        "at segment 3)" in err
    assert not (tmp_path / "runs" / "pb").exists() or not any((tmp_path / "runs" / "pb").iterdir())
