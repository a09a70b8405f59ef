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
def _private_trust_list(monkeypatch, tmp_path_factory):
    """Each test gets its own empty trust list: runs never touch the user's real one."""
    monkeypatch.setenv("EVALFW_CONFIG_DIR", str(tmp_path_factory.mktemp("evalfw-config")))
