"""Metric flags are declared on the metric class (``Metric.cli_flags``) and derived by
``evalfw score``: names from the metric's name and options, kinds and help from its schema.
A test-only metric (``tests/support/flag_plugins/flagged.py``) exercises every kind."""

from __future__ import annotations

import argparse
import json

import pytest

from evalfw.metrics.chrf.metric import Chrf
from evalfw.metrics.flags import MetricFlag, metric_flags, resolve
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)
from tests.support.cli import SUPPORT, evalfw, sacrebleu, write

pytestmark = pytest.mark.parity

PLUGINS = str(SUPPORT / "flag_plugins")
HYPS = ["the cat sat on the mat", "a dog barked", "It was not surprising ."]
REFS = ["the cat is on the mat", "the dog barked loudly", "It wasn't surprising."]


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "ref.txt", REFS), write(tmp_path / "hyp.txt", HYPS)


def test_flags_derive_from_name_and_schema():
    schema = {"properties": {"char_order": {"type": "integer", "default": 6,
                                            "description": "orders"},
                             "whitespace": {"type": "boolean"}}}
    f = resolve("chrf", schema, MetricFlag("char_order", short="-cc"))
    assert f.names == ("-cc", "--chrf-char-order") and f.convert("7") == 7 and not f.switch
    with pytest.raises(argparse.ArgumentTypeError, match="out of range"):
        f.convert("-1")  # the limits table bounds char_order, so does its flag
    bounded = {"properties": {"depth": {"type": "integer", "minimum": 2, "maximum": 5}}}
    g = resolve("x", bounded, MetricFlag("depth"))
    assert g.convert("5") == 5
    with pytest.raises(argparse.ArgumentTypeError, match="between 2 and 5"):
        g.convert("6")
    assert f.help == "orders (default: 6)"
    s = resolve("chrf", schema, MetricFlag("whitespace"))
    assert s.names == ("--chrf-whitespace",) and s.switch and s.convert is None
    assert resolve("x", schema, MetricFlag("char_order", flag="order")).long == "--order"


def test_chrf_declares_sacrebleus_flag_names():
    assert [f.long for f in metric_flags(Chrf)] == [
        "--chrf-char-order", "--chrf-word-order", "--chrf-beta", "--chrf-whitespace",
        "--chrf-lowercase", "--chrf-eps-smoothing"]


def test_test_metric_gets_every_kind_of_flag(files):
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "-m", "flagged", "--plugins-dir", PLUGINS,
                 "-fs", "1", "--flagged-offset", "2", "--flagged-ignore-case",
                 "--flag-label", "hi", "--format", "json")
    assert out.returncode == 0, out.stderr
    (obj,) = json.loads(out.stdout)
    assert obj["signature"] == "nrefs:1|scale:1.0|offset:2|case:lc|label:hi"
    assert obj["score"] == 1.0 * (6 + 3 + 5 + 3 * 2) / (6 + 4 + 3 + 3 * 2)  # words + offset


def test_flags_not_given_leave_the_metric_defaults(files):
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "-m", "flagged", "--plugins-dir", PLUGINS, "--json")
    (obj,) = json.loads(out.stdout)
    assert obj["signature"] == "nrefs:1|scale:100|offset:0|case:mixed|label:x"


def test_help_lists_a_plugins_flags_in_its_group():
    out = evalfw("score", "--plugins-dir", PLUGINS, "--help")
    assert "flagged options (with -m flagged):" in out.stdout
    assert "-fs SCALE, --flagged-scale SCALE" in out.stdout
    assert "--chrf-word-order" in out.stdout and "--tokenize" in out.stdout


@pytest.mark.parametrize("args, message", [
    (["--flagged-offset", "x"], "argument --flagged-offset: expected an integer, got 'x'"),
    (["--chrf-beta", "2.5"], "argument --chrf-beta: expected an integer, got '2.5'"),
    (["--weights", "0.5,x"], "argument --weights: expected numbers like"),
])
def test_bad_values_are_one_line_errors(files, args, message):
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "-m", "flagged", "--plugins-dir", PLUGINS, *args)
    assert out.returncode == 2 and message in out.stderr
    assert "Traceback" not in out.stderr


def test_a_flag_clashing_with_the_command_is_refused(files):
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "--plugins-dir", str(SUPPORT / "flag_clash"))
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert out.stderr.startswith("evalfw: error: plugin 'clash' (")
    assert "metric 'clash' declares flag --lowercase, which metric 'bleu' has already" \
        in out.stderr
    assert out.stderr.count("\n") == 1


def test_a_clashing_flag_names_the_plugin_even_when_its_metric_sorts_first(files, tmp_path):
    # "aaa" sorts before "bleu": the built-in's flag is still the one kept
    source = (SUPPORT / "flag_clash" / "clash.py").read_text("utf-8")
    (tmp_path / "early.py").write_text(source.replace('name = "clash"', 'name = "aaa"'), "utf-8")
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "--plugins-dir", str(tmp_path))
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("evalfw: error: plugin 'early' (")
    assert "metric 'aaa' declares flag --lowercase, which metric 'bleu' has already" \
        in out.stderr


def test_flags_of_unselected_metrics_warn(files):
    ref, hyp = files
    out = evalfw("score", ref, "-i", hyp, "--chrf-beta", "3")
    assert out.returncode == 0
    assert "evalfw: warning: --chrf-beta has no effect: metric chrf is not selected" in out.stderr


def test_disabled_metric_brings_no_flags(files):
    ref, hyp = files
    out = evalfw("--disable-plugin", "evalfw.metrics.chrf.plugin", "score", ref, "-i", hyp,
                 "--chrf-beta", "3")
    assert out.returncode == 2 and "unrecognized arguments: --chrf-beta 3" in out.stderr


@pytest.mark.parametrize("flags", [
    [], ["--chrf-word-order", "2"], ["-cc", "4", "-cw", "1", "--chrf-beta", "1"],
    ["--chrf-whitespace", "--chrf-lowercase"], ["--chrf-eps-smoothing", "-lc"],
])
def test_chrf_flags_print_sacrebleus_lines(files, flags):
    ref, hyp = files
    ours = evalfw("score", ref, "-i", hyp, "-m", "bleu", "chrf", *flags)
    theirs = sacrebleu(ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text", *flags)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout
