"""Shared fixtures: a fresh plugin host per test (no entry-point autoload), the shared data,
and the plugins installed in the test environment hidden from every test."""

from __future__ import annotations

import importlib.metadata

import pytest


def _where(ep: importlib.metadata.EntryPoint) -> tuple[str, str]:
    """An entry point's distribution and the folder it is installed in."""
    return (ep.dist.name if ep.dist else "", str(ep.dist.locate_file("")) if ep.dist else "")


#: third-party evalfw plugins installed where the tests run (a user's evalfw-* packages)
INSTALLED = {_where(ep) for ep in importlib.metadata.entry_points(group="evalfw")}


@pytest.fixture(autouse=True)
def _installed_plugins_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see the built-in plugins and those they install themselves (a dist-info they put
    on sys.path, fake entry points), never a plugin installed beside evalfw: the suite passes
    whatever else the environment holds. (A test that starts ``evalfw`` in a subprocess and
    assumes the built-in set passes ``EVALFW_DISABLE_PLUGIN_AUTOLOAD=1`` itself.)"""
    from evalfw.host import host as host_mod

    found = host_mod._entry_points
    monkeypatch.setattr(host_mod, "_entry_points",
                        lambda: [ep for ep in found() if _where(ep) not in INSTALLED])


@pytest.fixture
def host():
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False)


@pytest.fixture(scope="session")
def session_host():
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False)


@pytest.fixture(autouse=True)
def _scrub_env(monkeypatch):
    """The caller's environment does not reach the commands a test runs: plugin switches,
    colour, and the terminal size (pytest-xdist's workers set COLUMNS and LINES, and tables
    wrap to COLUMNS)."""
    for var in ("EVALFW_DISABLE_PLUGINS", "EVALFW_DISABLE_PLUGIN_AUTOLOAD", "NO_COLOR",
                "COLUMNS", "LINES"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(autouse=True)
def _no_model_downloads(monkeypatch):
    """No test downloads a model: a missing SentencePiece model fails at once (the download
    tests serve their own on 127.0.0.1 and lift this)."""
    monkeypatch.setenv("EVALFW_NO_DOWNLOAD", "1")


@pytest.fixture(autouse=True)
def _private_trust_list(monkeypatch, tmp_path_factory):
    """Each test gets its own empty trust list: runs never touch the user's real one."""
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path_factory.mktemp("evalfw-config")))


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """A test that runs a command in this process must leave its signal handlers as it found
    them: a SIGPIPE left at its default kills the whole session at the next write to a pipe a
    child closed (e.g. a child that stops reading its standard input early)."""
    import signal

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGPIPE, signal.SIGINT,
                                                     signal.SIGTERM)}
    yield
    changed = [sig.name for sig, handler in before.items() if signal.getsignal(sig) != handler]
    for sig in changed:
        signal.signal(getattr(signal, sig), before[getattr(signal, sig)])
    assert not changed, f"the test left these signal handlers changed: {', '.join(changed)}"
