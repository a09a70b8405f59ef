"""Messages that say the right thing: who is to blame for running out of memory, statistics
too large to sum, size settings that are not sizes, numbers in score files only in ASCII
decimal forms, a model metric's cost in the executor's estimate, a hub that cannot be
reached, third-party notices kept quiet, and a table header naming only the tests it shows."""

from __future__ import annotations

import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import evalfw
from evalfw.cli.main import main
from evalfw.errors import ConfigError, InputError, PluginError
from evalfw.host.host import PluginHost
from evalfw.io.scores import read_scores
from evalfw.plugin import hookimpl

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"
REF, HYP = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")


def test_a_built_in_metric_out_of_memory_is_not_blamed_on_a_plugin(monkeypatch, capsys):
    from evalfw.metrics.bleu import engine

    # a function of evalfw's own code that runs out of memory (as under `ulimit -v`)
    namespace = {"__name__": "evalfw.metrics.bleu.engine"}
    exec("def segment_stats(*args, **kwargs):\n    raise MemoryError()\n", namespace)
    monkeypatch.setattr(engine, "segment_stats", namespace["segment_stats"])
    assert main(["score", "-r", REF, "-i", HYP]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: out of memory while running `evalfw score`"), err
    assert "plugin" not in err and err.count("\n") == 1


class Huge(evalfw.Metric):
    name = "huge"

    def segment_statistics(self, hypotheses, references):
        return np.full((len(hypotheses), 1), 1e306)

    def score(self, statistics):
        return float(statistics.sum())

    def signature(self, nrefs):
        return "huge"


def test_statistics_too_large_to_sum_are_refused_where_they_enter():
    module = types.ModuleType("hugeplugin")
    module.evalfw_register_metrics = hookimpl(lambda: [Huge])
    metric = evalfw.metric("huge", host=PluginHost.create(autoload=False,
                                                          extra_plugins=[module]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warning on the way
        with pytest.raises(PluginError) as err:
            metric.segment_statistics(["a", "b"], [["a", "b"]])
    text = str(err.value)
    assert ".segment_statistics returned a value of magnitude 1e+306" in text
    assert "first at segment 1" in text and ".score" not in text


@pytest.mark.parametrize("variable", ["EVALFW_MAX_INPUT_BYTES", "EVALFW_MAX_SEGMENT_CHARS"])
@pytest.mark.parametrize("value", ["-1", "0", "1_000", "１２", "1e9", "12 MB"])
def test_size_settings_must_be_positive_ascii_numbers(monkeypatch, capsys, variable, value):
    monkeypatch.setenv(variable, value)
    assert main(["score", "-r", REF, "-i", HYP, "-m", "chrf"]) == 2
    err = capsys.readouterr().err
    assert f"${variable}: expected a number of " in err and "a positive whole number" in err


@pytest.mark.parametrize("text", ["1_000", "\u0661\u0662", "\uff11\uff12", "1\u00a0", "٣.٥"])
def test_score_files_take_ascii_decimal_numbers_only(tmp_path, text):
    path = tmp_path / "s.txt"
    path.write_text(f"0.5\n{text}\n", "utf-8")
    with pytest.raises(InputError, match=r"s.txt:2: expected a number"):
        read_scores(path, None, segments=2)
    ok = tmp_path / "ok.txt"
    ok.write_text("1.5e2\n-.25\n +3 \n", "utf-8")
    assert list(read_scores(ok, None, segments=3).scores) == [150.0, -0.25, 3.0]


def test_a_model_metric_declares_a_cost_the_executor_estimates_with(tmp_path):
    from evalfw.config import load_config
    from evalfw.metrics.model import ModelMetric
    from evalfw.runner._work import COSTS, serial_seconds

    class Slow(ModelMetric):
        name = "slow-model"
        model_name = "test/slow"

        def load(self, device):
            return None

        def predict(self, model, batch):
            return [0.5] * len(batch)

    module = types.ModuleType("slowplugin")
    module.evalfw_register_metrics = hookimpl(lambda: [Slow])
    host = PluginHost.create(autoload=False, extra_plugins=[module])
    (tmp_path / "c.yaml").write_text(
        "schema_version: 1\nexperiment: x\ntest_sets:\n  - name: t\n    langs: en-de\n"
        f"    references: [{REF}]\n    systems: {{A: {HYP}, B: {REF}}}\nmetrics:\n"
        "  - {name: m, metric: slow-model}\n  - name: bleu\n", "utf-8")
    cfg, host = load_config(tmp_path / "c.yaml", host=host)
    segments, systems = 40, 2
    expected = (Slow.cost_per_segment + COSTS["statistics"]) * segments * systems
    assert serial_seconds(cfg, None, host) == pytest.approx(expected)
    assert expected > 3  # the model alone makes it a run worth a pool


# ----------------------------------------------------------------------------- COMET


@pytest.fixture
def comet_plugin(monkeypatch):
    """The COMET plugin's modules, with a stand-in ``comet`` package (no network, no torch)."""
    monkeypatch.syspath_prepend(str(REPO / "plugins" / "evalfw-comet" / "src"))
    fake = types.ModuleType("comet")
    monkeypatch.setitem(sys.modules, "comet", fake)
    for name in [m for m in sys.modules if m.startswith("evalfw_comet")]:
        monkeypatch.delitem(sys.modules, name)
    import evalfw_comet.checkpoint as checkpoint

    return fake, checkpoint


def test_an_unreachable_hub_is_named_as_the_cause(comet_plugin, monkeypatch):
    fake, checkpoint = comet_plugin

    def download_model(name, local_files_only=False):
        raise KeyError(f"Model '{name}' not supported by COMET.")

    fake.download_model = download_model
    hub = types.ModuleType("huggingface_hub")

    def model_info(name, timeout=None):
        raise OSError("[Errno -3] Temporary failure in name resolution")

    hub.model_info = model_info
    monkeypatch.setitem(sys.modules, "huggingface_hub", hub)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with pytest.raises(ConfigError) as err:
        checkpoint.resolve("Unbabel/wmt22-comet-da")
    text = str(err.value)
    assert "the Hugging Face hub cannot be reached" in text and "name resolution" in text
    assert "not supported by COMET" not in text


def test_third_party_notices_are_quiet_while_comet_loads(comet_plugin, recwarn):
    fake, checkpoint = comet_plugin

    def load_from_checkpoint(path):
        warnings.warn("pkg_resources is deprecated as an API", DeprecationWarning, stacklevel=2)
        warnings.warn("`resume_download` is deprecated", FutureWarning, stacklevel=2)
        return types.SimpleNamespace(eval=lambda: None)

    fake.load_from_checkpoint = load_from_checkpoint
    from evalfw_comet import Comet

    metric = Comet.__new__(Comet)
    metric.checkpoint = types.SimpleNamespace(path=Path("model.ckpt"))
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        metric.load("cpu")
        assert not [w for w in recwarn.list
                    if issubclass(w.category, (DeprecationWarning, FutureWarning))]


# ----------------------------------------------------------------------------- tables


def test_a_bootstrap_only_table_names_no_ar_column(tmp_path, monkeypatch, capsys):
    from tests.support.runs import mini

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path / "config"))
    mini(tmp_path, b"a b c d\ne f g\nh i\n", b"a b c d\ne f\nh\n", b"a b\ne f g\nh i\n",
         extra="significance: {baseline: A, method: bootstrap, samples: 100}\n")
    assert main(["run", "mini.yaml", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "p boot: paired bootstrap" in out and "p AR" not in out, out
