"""A plugin cannot change what other metrics score, or what is stored, by writing into what it
is given or what it returned; a value outside its contract's range is refused naming the
plugin, the test set, the system and the first offending segment."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

import evalfw
from evalfw.cli.main import main
from evalfw.errors import PluginError
from evalfw.records.load import load_segments, open_run
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)

BOUND_SECONDS = 60
SAMPLE = Path(__file__).resolve().parents[2] / "configs" / "sample" / "en-de"

CONFIG = f"""\
schema_version: 1
experiment: iso
output_dir: runs
plugin_dirs: [plugins]
test_sets:
  - name: t
    langs: en-de
    references: [{SAMPLE / 'ref.A.txt'}]
    systems: {{"*": "{SAMPLE / 'sys'}/*.txt"}}
metrics:
METRICS
"""

PLUGIN = """\
import numpy as np
import evalfw

class Plug(evalfw.Metric):
    name = "plug"
    score_range = {score_range}
    kept = None

    def segment_statistics(self, hypotheses, references):
{statistics}
        rows = np.array([[len(h.split()), 1] for h in hypotheses], dtype=np.int64)
        Plug.kept = rows
        return rows

    def score(self, statistics):
{score}
        return float(statistics[:, 0].sum()) / float(statistics[:, 1].sum())

    def signature(self, nrefs):
        return "plug"

@evalfw.hookimpl
def evalfw_register_metrics():
    return [Plug]
"""


def project(tmp: Path, metrics: str, statistics: str = "", score: str = "",
            score_range: str = "None") -> Path:
    (tmp / "plugins").mkdir()
    (tmp / "plugins" / "plug.py").write_text(PLUGIN.format(
        statistics=textwrap.indent(statistics or "pass", " " * 8),
        score=textwrap.indent(score or "pass", " " * 8), score_range=score_range), "utf-8")
    (tmp / "c.yaml").write_text(CONFIG.replace("METRICS", textwrap.indent(metrics, "  ")), "utf-8")
    return tmp


def run(tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *extra: str) -> tuple[int, str]:
    monkeypatch.chdir(tmp)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp / "config"))
    code = main(["run", "c.yaml", "--quiet", "--no-cache", *extra])
    return code, capsys.readouterr().err


BLEU_ONLY = "- name: bleu\n"
WITH_PLUG = "- name: plug\n  metric: plug\n- name: bleu\n"


def stored_bleu(tmp: Path) -> dict[str, float]:
    record = open_run("iso", tmp / "runs").record
    return {r["system"]: r["score"] for r in record["results"] if r["metric"] == "bleu"}


@pytest.mark.parametrize("statistics, score", [
    ('hypotheses[0] = "zzz qqq"', ""),
    ("references[0][0] = 'zzz qqq'", ""),
    ("", "statistics[...] = 0"),
    ("", "statistics.sort(axis=0)"),
])
def test_writing_into_what_a_plugin_is_given_is_refused(tmp_path, capsys, monkeypatch,
                                                        statistics, score):
    project(tmp_path, WITH_PLUG, statistics=statistics, score=score)
    code, err = run(tmp_path, capsys, monkeypatch)
    assert code == 2, err
    assert err.startswith("evalfw: error: plugin 'plug' (plugins/plug.py): metric 'plug'"), err
    assert "system '" in err and "test set 't'" in err and err.count("\n") == 1
    assert not (tmp_path / "runs" / "iso").exists() or not any(
        p for p in (tmp_path / "runs" / "iso").iterdir() if not p.name.startswith("."))


def test_bleu_beside_a_plugin_is_bleu_alone(tmp_path, capsys, monkeypatch):
    # the plugin keeps the rows it returned and zeroes them later: what was stored stays
    project(tmp_path, WITH_PLUG, score="if Plug.kept is not None:\n    Plug.kept[...] = 0")
    code, err = run(tmp_path, capsys, monkeypatch)
    assert code == 0, err
    beside = stored_bleu(tmp_path)
    stored = open_run("iso", tmp_path / "runs")
    arrays = load_segments(stored.path, stored.record)
    plug_cells = {r["segments"] for r in stored.record["results"] if r["metric"] == "plug"}
    assert all(arrays[c][:, 1].sum() == 40 for c in plug_cells)  # never zeroed
    assert main(["verify", "iso", "--runs-dir", "runs", "--plugins-dir", "plugins"]) == 0
    (tmp_path / "c.yaml").write_text(CONFIG.replace("METRICS", textwrap.indent(BLEU_ONLY, "  "))
                                     .replace("iso", "alone"), "utf-8")
    assert main(["run", "c.yaml", "--quiet", "--no-cache"]) == 0
    alone = {r["system"]: r["score"] for r in open_run("alone", tmp_path / "runs")
             .record["results"]}
    assert beside == alone


def test_the_score_command_keeps_its_references(tmp_path, capsys):
    plugs = tmp_path / "plugs"
    project(tmp_path, WITH_PLUG, statistics="references[0][0] = 'zzz qqq'")
    ref, hyp = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
    assert main(["score", "-r", ref, "-i", hyp, "-m", "bleu"]) == 0
    alone = capsys.readouterr().out
    code = main(["score", "-r", ref, "-i", hyp, "-m", "plug", "bleu", "--plugins-dir",
                 str(tmp_path / "plugins")])
    out, err = capsys.readouterr()
    assert code == 2 and "plugin 'plug'" in err and "TypeError" in err, err
    assert main(["score", "-r", ref, "-i", hyp, "-m", "bleu"]) == 0
    assert capsys.readouterr().out == alone
    del plugs


def test_the_api_hands_out_views_and_leaves_the_callers_lists_alone():
    seen = {}

    class Peek(evalfw.Metric):
        name = "peek"

        def segment_statistics(self, hypotheses, references):
            seen["types"] = (type(hypotheses), type(references), type(references[0]))
            return np.ones((len(hypotheses), 1), dtype=np.int64)

        def score(self, statistics):
            seen["writeable"] = statistics.flags.writeable
            return 1.0

        def signature(self, nrefs):
            return "peek"

    import types

    from evalfw.host.host import PluginHost
    from evalfw.plugin import hookimpl

    module = types.ModuleType("peekplugin")
    module.evalfw_register_metrics = hookimpl(lambda: [Peek])
    metric = evalfw.metric("peek", host=PluginHost.create(autoload=False,
                                                          extra_plugins=[module]))
    hyps, refs = ["a b", "c"], [["a b", "c d"]]
    rows = metric.segment_statistics(hyps, refs)
    assert metric.score(rows) == 1.0
    assert seen == {"types": (tuple, tuple, tuple), "writeable": False}
    assert hyps == ["a b", "c"] and refs == [["a b", "c d"]]
    assert not rows.flags.writeable


# ----------------------------------------------------------------------------- ranges


def test_a_score_outside_the_declared_range_names_plugin_test_set_system_segment(
        tmp_path, capsys, monkeypatch):
    project(tmp_path, WITH_PLUG, score_range="(0.0, 1.0)",
            score="return 5.0 if statistics[:, 0].max() > 9 else 0.5")
    lines = (SAMPLE / "sys" / "Medium.txt").read_text("utf-8").splitlines()
    first = next(i for i, h in enumerate(lines) if len(h.split()) > 9)
    code, err = run(tmp_path, capsys, monkeypatch)
    assert code == 2, err
    last = err.strip().splitlines()[-1]
    assert "plugin 'plug' (plugins/plug.py): metric 'plug'" in last
    assert ".score returned the score 5.0" in last
    assert "score_range (0.0 to 1.0)" in last
    assert f"(test set 't', system 'Medium', first at segment {first + 1})" in last, last


def test_a_plugin_that_raises_on_one_segment_names_it_with_test_set_and_system(
        tmp_path, capsys, monkeypatch):
    project(tmp_path, WITH_PLUG, statistics=(
        "if any(h.startswith('Der Zug') for h in hypotheses):\n"
        "    raise ValueError('cannot score this line')"))
    lines = (SAMPLE / "sys" / "Medium.txt").read_text("utf-8").splitlines()
    first = next((i for i, h in enumerate(lines) if h.startswith("Der Zug")), None)
    if first is None:
        pytest.skip("the sample data changed")
    code, err = run(tmp_path, capsys, monkeypatch)
    assert code == 2, err
    assert "raised ValueError: cannot score this line" in err
    assert f"(test set 't', system 'Medium', first at segment {first + 1})" in err, err


class _Smoothing(evalfw.Smoother):
    """Precisions of 2.5 times their scale: a BLEU of 250 before the range check."""

    name = "too-much"
    scale = 100

    def smooth(self, counts):
        from evalfw.metrics.bleu.components import Smoothed

        return Smoothed((250.0,) * counts.max_order, counts.matches, counts.totals)


class _Penalty(evalfw.BrevityPenalty):
    name = "bonus"

    def choose_ref_len(self, hyp_len, ref_lens):
        return ref_lens.max(axis=1)

    def penalty(self, hyp_len, ref_len):
        return 1.5


def _host(hook: str, cls: type) -> evalfw.PluginHost:
    import types

    from evalfw.host.host import PluginHost
    from evalfw.plugin import hookimpl

    module = types.ModuleType("rangeplugin")
    setattr(module, hook, hookimpl(lambda: [cls]))
    return PluginHost.create(autoload=False, extra_plugins=[module])


HYPS = ["the cat sat on the mat", "a dog barked"]
REFS = [["the cat sat on a mat", "a dog barked loudly"]]


def test_precisions_above_the_smoothings_bound_are_refused():
    host = _host("evalfw_register_smoothers", _Smoothing)
    with pytest.raises(PluginError) as err:
        evalfw.corpus_bleu(HYPS, REFS, host=host, smoothing="too-much")
    assert "smoothing 'too-much' from plugin 'rangeplugin' returned the precision 250.0" \
        in str(err.value)
    with pytest.raises(PluginError, match=r"returned the precision 250.0.*first at segment 1"):
        evalfw.sentence_scores(HYPS, REFS, host=host, smoothing="too-much")


SMOOTHING_PLUGIN = """\
import evalfw
from evalfw.metrics.bleu.components import Smoothed

class TooMuch(evalfw.Smoother):
    name = "too-much"
    scale = 100

    def smooth(self, counts):
        return Smoothed((250.0,) * counts.max_order, counts.matches, counts.totals)

@evalfw.hookimpl
def evalfw_register_smoothers():
    return [TooMuch]
"""


def test_a_bleu_of_250_never_reaches_the_output(tmp_path, capsys):
    (tmp_path / "too_much.py").write_text(SMOOTHING_PLUGIN, "utf-8")
    code = main(["score", "-r", str(SAMPLE / "ref.A.txt"), "-i", str(SAMPLE / "sys" / "Weak.txt"),
                 "-s", "too-much", "--plugins-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (out, err)
    assert "smoothing 'too-much' from plugin 'too_much'" in err
    assert "returned the precision 250.0" in err and "first at segment 1" in err, err
    assert "Weak.txt" in err and err.count("\n") == 1


def test_a_brevity_penalty_above_one_is_refused():
    host = _host("evalfw_register_brevity_penalties", _Penalty)
    with pytest.raises(PluginError, match="brevity_penalty 'bonus' from plugin 'rangeplugin' "
                                          "returned the penalty 1.5"):
        evalfw.corpus_bleu(HYPS, REFS, host=host, brevity_penalty="bonus")


def test_built_in_smoothing_that_may_exceed_one_says_so_and_scores():
    # NLTK's method5 averages with p1 + 1: a perfect line has precisions of 4/3 and BLEU > 1
    res = evalfw.corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]],
                             preset="nltk", smoothing="method5")
    assert res.score > 1 and max(res.precisions) <= 4 / 3
