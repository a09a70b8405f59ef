"""The plugin host: built-ins through the same hooks, entry points, plugin files, collisions,
broken plugins and unknown names."""

from __future__ import annotations

import json
import textwrap
import types

import pytest

from evalfw.cli.main import main
from evalfw.errors import ComponentConflictError, UnknownComponentError
from evalfw.host import host as host_mod
from evalfw.host.host import BUILTIN_PLUGINS, HOOKS, PluginHost
from evalfw.metrics.bleu.components import Smoothed, Smoother
from evalfw.plugin import hookimpl


class Dup(Smoother):
    name = "exp"

    def smooth(self, counts):
        return Smoothed((0.0,) * counts.max_order, counts.matches, counts.totals)


def plugin_with(*classes, hook="evalfw_register_smoothers", name="thirdparty"):
    mod = types.ModuleType(name)

    @hookimpl
    def impl():
        return list(classes)

    setattr(mod, hook, impl)
    return mod


def test_builtins_are_ordinary_plugins(host):
    names = [p.name for p in host.plugins if p.source == "builtin"]
    assert names == list(BUILTIN_PLUGINS)
    for hook in HOOKS:
        impls = getattr(host.pm.hook, hook).get_hookimpls()
        assert all(i.plugin_name in BUILTIN_PLUGINS for i in impls)
    assert {"sacrebleu", "nltk", "multi-bleu"} <= set(host.registry("preset").names())
    assert {"none", "floor", "add-k", "exp"} <= set(host.registry("smoothing").names())


def test_collision_names_both_providers():
    h = PluginHost.create(autoload=False, extra_plugins=[plugin_with(Dup)])
    with pytest.raises(ComponentConflictError) as err:
        h.registry("smoothing").get("exp")
    msg = str(err.value)
    assert "smoothing 'exp' is provided by both plugin 'evalfw.metrics.bleu.families.sacrebleu'" in msg
    assert "plugin 'thirdparty'" in msg and "--disable-plugin thirdparty" in msg
    # other names keep working: the conflict only blocks the contested name
    assert h.registry("smoothing").get("floor").name == "floor"


def test_unknown_name_suggests_and_lists(host):
    with pytest.raises(UnknownComponentError) as err:
        host.registry("smoothing").get("exq")
    msg = str(err.value)
    assert "unknown smoothing 'exq' (did you mean 'exp'?)" in msg
    assert "available: " in msg and "add-k" in msg


class FakeDist:
    def __init__(self, name, version):
        self.name, self.version = name, version
        self.metadata = {"Name": name}


class FakeEP:
    def __init__(self, name, target, dist):
        self.name, self._target, self.dist = name, target, dist
        self.group, self.value = "evalfw", name

    def load(self):
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_entry_points_broken_plugin_is_reported_not_fatal(monkeypatch):
    class Good(Dup):
        name = "good-smooth"

    eps = [FakeEP("broken", ImportError("No module named 'missing_dep'"), FakeDist("evalfw-broken", "0.3")),
           FakeEP("good", plugin_with(Good, name="good"), FakeDist("evalfw-good", "1.2"))]
    monkeypatch.setattr(host_mod, "_entry_points", lambda: eps)
    h = PluginHost.create(autoload=True)
    assert [b.name for b in h.broken] == ["broken"]
    assert "ImportError: No module named 'missing_dep'" in h.broken[0].error
    entry = h.registry("smoothing").entry("good-smooth")
    assert (entry.plugin.distribution, entry.plugin.version) == ("evalfw-good", "1.2")
    with pytest.raises(UnknownComponentError, match=r"note: plugin 'broken' \(evalfw-broken 0.3\) failed to load"):
        h.registry("smoothing").get("broken-smooth")


def test_disable_plugin_by_env(monkeypatch):
    eps = [FakeEP("dup", plugin_with(Dup, name="dup"), FakeDist("evalfw-dup", "1"))]
    monkeypatch.setattr(host_mod, "_entry_points", lambda: eps)
    monkeypatch.setenv("EVALFW_DISABLE_PLUGINS", "dup")
    h = PluginHost.create(autoload=True)
    assert h.registry("smoothing").get("exp").__module__ == "evalfw.metrics.bleu.families.sacrebleu"


def test_plugin_dir_files_and_bad_hook(tmp_path):
    (tmp_path / "mine.py").write_text(textwrap.dedent('''
        from evalfw.tokenizers.base import Tokenizer
        from evalfw.plugin import hookimpl

        class Upper(Tokenizer):
            name = "upper-split"
            def tokenize(self, lines):
                return [l.upper().split() for l in lines]

        @hookimpl
        def evalfw_register_tokenizers():
            return [Upper]
    '''))
    (tmp_path / "typo.py").write_text(textwrap.dedent('''
        from evalfw.plugin import hookimpl

        @hookimpl
        def evalfw_register_tokenisers():
            return []
    '''))
    (tmp_path / "crash.py").write_text("raise RuntimeError('boom at import')\n")
    h = PluginHost.create(autoload=False, plugin_dirs=[tmp_path])
    entry = h.registry("tokenizer").entry("upper-split")
    assert entry.plugin.source == "file" and len(entry.plugin.sha256) == 64
    broken = {b.name: b.error for b in h.broken}
    assert "evalfw_register_tokenisers" in broken["typo"]
    assert "RuntimeError: boom at import" in broken["crash"]


def test_plugins_command_json(capsys, tmp_path):
    (tmp_path / "extra.py").write_text(textwrap.dedent('''
        from evalfw.metrics.bleu.families.sacrebleu import Exp
        from evalfw.plugin import hookimpl

        class Exp2(Exp):
            name = "exp2"

        @hookimpl
        def evalfw_register_smoothers():
            return [Exp2]
    '''))
    assert main(["plugins", "--json", "--plugins-dir", str(tmp_path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["extra"]
    assert rows[0]["components"] == {"smoothing": ["exp2"]}
    assert main(["plugins", "--all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} >= set(BUILTIN_PLUGINS)


def test_component_options_are_validated(host):
    from evalfw.errors import ConfigError

    with pytest.raises(ConfigError, match="smoothing 'floor' has no option 'vlaue' \\(did you mean 'value'\\?\\)"):
        host.component("smoothing", "floor", {"vlaue": 1})
    with pytest.raises(ConfigError, match="option value"):
        host.component("smoothing", "floor", {"value": -1})
    assert dict(host.component("smoothing", "floor").options) == {"value": 0.1}


def test_disable_plugin_flag_resolves_a_collision(monkeypatch, capsys):
    eps = [FakeEP("dup", plugin_with(Dup, name="dup"), FakeDist("evalfw-dup", "1"))]
    monkeypatch.setattr(host_mod, "_entry_points", lambda: eps)
    monkeypatch.setenv("EVALFW_DISABLE_PLUGINS", "")  # restored after the test
    monkeypatch.setenv("EVALFW_DISABLE_PLUGIN_AUTOLOAD", "0")
    assert main(["plugins", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["status"] == "conflict" and row["conflicts"] == ["smoothing 'exp'"]
    assert main(["--disable-plugin", "dup", "plugins", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
