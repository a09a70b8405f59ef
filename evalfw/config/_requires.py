"""``requires:``: PEP 508 requirements a config places on installed distributions.

Checked right after the plugin host is built and before any data file is touched, so a run
never starts with the wrong plugin version. Markers are honoured (a requirement whose marker
does not apply to this environment is skipped) and pre-release versions satisfy a specifier
when they fall inside it, because plugin authors test with them.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from packaging.requirements import InvalidRequirement, Requirement

from evalfw.config._locate import Locations

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost


def parse_requirements(texts: Sequence[str], locations: Locations) -> list[Requirement]:
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(Requirement(text))
        except InvalidRequirement as exc:
            raise locations.error(("requires", i), (
                f"not a PEP 508 requirement: {text!r} ({str(exc).splitlines()[0]}); "
                "write e.g. 'evalfw-smooth-floorplus>=0.1'")) from None
    return out


def installed_version(name: str) -> str | None:
    """The installed version of distribution ``name``, or None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def check_requirements(requirements: Sequence[Requirement], locations: Locations,
                       host: PluginHost | None = None) -> None:
    """Raise ConfigError naming the first unsatisfied requirement and what is installed."""
    for i, req in enumerate(requirements):
        if req.marker is not None and not req.marker.evaluate():
            continue
        version = installed_version(req.name)
        if version is not None and req.specifier.contains(version, prereleases=True):
            continue
        if version is None:
            found = f"{req.name} is not installed"
        else:
            found = f"installed is {req.name} {version}"
        plugins = _plugin_distributions(host)
        raise locations.error(("requires", i), (
            f"requirement '{req}' is not satisfied: {found} (installed plugin distributions: "
            f"{plugins or 'none'}); install it, e.g. pip install '{req}'"))


def _plugin_distributions(host: PluginHost | None) -> str:
    if host is None:
        return ""
    dists = sorted({f"{p.distribution} {p.version}" for p in (*host.plugins, *host.broken)
                    if p.distribution})
    return ", ".join(dists)
