"""Misbehaving plugins get a clear error naming plugin, component and segment; never a number."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

import evalfw
from evalfw.cli.main import main
from evalfw.errors import PluginError
from evalfw.host.host import PluginHost
from evalfw.metrics.bleu.components import Mean, Smoothed, Smoother
from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.stats import SegmentStats
from evalfw.plugin import hookimpl
from evalfw.tokenizers.base import Tokenizer

HYPS = ["the cat sat on the mat", "a dog barked", "boom goes the line", "fine"]
REFS = [["the cat sat on a mat", "a dog barked loudly", "boom went the line", "fine"]]


def host_with(hook: str, *classes: type) -> PluginHost:
    mod = types.ModuleType("badplugin")
    setattr(mod, hook, hookimpl(lambda: list(classes)))
    return PluginHost.create(autoload=False, extra_plugins=[mod])


class Exploding(Tokenizer):
    name = "exploding"

    def tokenize(self, lines):
        for line in lines:
            if "boom" in line:
                raise ValueError("cannot tokenize this")
        return [line.split() for line in lines]


def test_tokenizer_that_raises_names_plugin_component_and_segment():
    host = host_with("evalfw_register_tokenizers", Exploding)
    with pytest.raises(PluginError) as err:
        evalfw.corpus_bleu(HYPS, REFS, host=host, tokenizer="exploding")
    msg = str(err.value)
    assert "tokenizer 'exploding' from plugin 'badplugin'" in msg
    assert "ValueError: cannot tokenize this" in msg and "first at segment 3" in msg


class BadSmoother(Smoother):
    scale = 100
    mode = "nan"

    def smooth(self, counts):
        value = {"nan": math.nan, "inf": math.inf, "neg": -1.0}[self.mode]
        return Smoothed((value,) * counts.max_order, counts.matches, counts.totals)


@pytest.mark.parametrize("mode", ["nan", "inf", "neg"])
def test_smoother_returning_nan_inf_or_negative_is_rejected(mode):
    cls = type(f"Bad{mode}", (BadSmoother,), {"name": f"bad-{mode}", "mode": mode})
    host = host_with("evalfw_register_smoothers", cls)
    with pytest.raises(PluginError, match=f"smoothing 'bad-{mode}' from plugin 'badplugin' "
                                          "returned an invalid precision"):
        evalfw.corpus_bleu(HYPS, REFS, host=host, smoothing=f"bad-{mode}")


class WrongShapeSmoother(Smoother):
    name = "short"
    scale = 100

    def smooth(self, counts):
        return Smoothed((1.0,), counts.matches, counts.totals)


def test_smoother_wrong_shape():
    host = host_with("evalfw_register_smoothers", WrongShapeSmoother)
    with pytest.raises(PluginError, match="expected Smoothed with 4 precisions"):
        evalfw.corpus_bleu(HYPS, REFS, host=host, smoothing="short")


class NanMean(Mean):
    name = "nan-mean"
    scale = 100

    def combine(self, smoothed, counts, bp, weights):
        return (math.nan,)


def test_mean_returning_nan_at_sentence_level_names_segment():
    host = host_with("evalfw_register_means", NanMean)
    with pytest.raises(PluginError,
                       match=r"mean 'nan-mean' .*invalid score nan \(first at segment 1\)"):
        evalfw.sentence_scores(HYPS, REFS, host=host, mean="nan-mean")


class NegativeCounter(Clipped):
    name = "negative"

    def count(self, hypotheses, index):
        s = super().count(hypotheses, index)
        m = s.matches.copy()
        m[1, 0] = -3
        return SegmentStats(s.hyp_len, s.ref_lens, m, s.totals)


class WrongShapeCounter(Clipped):
    name = "too-few-orders"

    def count(self, hypotheses, index):
        s = super().count(hypotheses, index)
        return SegmentStats(s.hyp_len, s.ref_lens, s.matches[:, :2], s.totals[:, :2])


class TooManyMatches(Clipped):
    name = "too-many"

    def count(self, hypotheses, index):
        s = super().count(hypotheses, index)
        return SegmentStats(s.hyp_len, s.ref_lens, s.totals + np.eye(len(s), s.max_order, dtype=np.int64), s.totals)


@pytest.mark.parametrize("name, message", [
    ("negative", "returned negative counts (first at segment 2)"),
    ("too-few-orders", "returned statistics of shape (4, 2), expected (4, 4)"),
    ("too-many", "returned more matches than n-grams (first at segment 1)"),
])
def test_counter_output_is_checked(name, message):
    host = host_with("evalfw_register_counters", NegativeCounter, WrongShapeCounter, TooManyMatches)
    with pytest.raises(PluginError) as err:
        evalfw.corpus_bleu(HYPS, REFS, host=host, precision=name)
    assert message in str(err.value) and "from plugin 'badplugin'" in str(err.value)


def test_cli_reports_plugin_error_in_one_line(tmp_path, capsys):
    plugdir = tmp_path / "plugs"
    plugdir.mkdir()
    (plugdir / "exploder.py").write_text(
        "from evalfw import Tokenizer\n"
        "from evalfw.plugin import hookimpl\n"
        "class T(Tokenizer):\n"
        "    name = 'exploding'\n"
        "    def tokenize(self, lines):\n"
        "        raise RuntimeError('kaput')\n"
        "@hookimpl\n"
        "def evalfw_register_tokenizers():\n"
        "    return [T]\n")
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("a b c\n")
    hyp.write_text("a b c\n")
    code = main(["score", "-r", str(ref), "-i", str(hyp), "--tokenize", "exploding",
                 "--plugins-dir", str(plugdir)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("evalfw: error: tokenizer 'exploding' from plugin 'exploder'")
    assert err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(PluginError):
        main(["--debug", "score", "-r", str(ref), "-i", str(hyp), "--tokenize", "exploding",
              "--plugins-dir", str(plugdir)])
