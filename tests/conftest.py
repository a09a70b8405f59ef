"""Shared fixtures: a fresh plugin host per test (no entry-point autoload), the shared data."""

from __future__ import annotations

import pytest


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
    for var in ("EVALFW_DISABLE_PLUGINS", "EVALFW_DISABLE_PLUGIN_AUTOLOAD", "NO_COLOR"):
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
