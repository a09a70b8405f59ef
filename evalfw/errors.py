"""The exceptions evalfw raises for problems a user can fix.

Every user-facing failure is an :class:`EvalfwError`. The CLI turns one into a single
``evalfw: error: ...`` line on stderr and exit status 2 (``exit_code``); anything else is a bug
and keeps its traceback. Messages say what went wrong, where, and what to do about it.
:class:`ResolutionWarning` and :class:`AntiConservativeWarning` are warning categories of
their own: a run that cannot conclude anything, or uses a test that concludes too often,
keeps running, but says so.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class EvalfwError(Exception):
    """Base class: a problem with the user's input, config, plugins or environment."""

    exit_code = 2


class InputError(EvalfwError):
    """A data file (hypotheses, references) is missing, unreadable or malformed."""


class ConfigError(EvalfwError):
    """A config file or command-line option is invalid."""


class PluginError(EvalfwError):
    """A plugin failed to load, or a component misbehaved while computing."""


class ComponentConflictError(PluginError):
    """Two plugins provide a component of the same kind under the same name."""


class UnknownComponentError(ConfigError):
    """A component name that no loaded plugin provides."""


class RecordError(EvalfwError):
    """A stored run record is missing, unreadable or of an unknown schema version."""


class VerificationFailed(EvalfwError):
    """`evalfw verify` found a difference; not a usage error, so exit status 1."""

    exit_code = 1


class RegressionDetected(EvalfwError):
    """`evalfw compare` found a significant regression (exit status 1)."""

    exit_code = 1


class EvalfwWarning(UserWarning):
    """Base of evalfw's warnings that the command line prints as one ``evalfw: warning: ...``
    line each."""


class ResolutionWarning(UserWarning):
    """A significance test cannot reach alpha with the resamples or trials asked for (see
    :mod:`evalfw.analysis.resolution`): a warning, the run goes on and says so in its record."""


class AntiConservativeWarning(UserWarning):
    """A test known to find differences too often was asked for (sacreBLEU's paired
    bootstrap, in mode sacrebleu): a warning, the run goes on and says so in its record."""


class CacheWarning(EvalfwWarning):
    """A cache entry could not be used (changed after it was written, impossible values):
    it was computed again."""


def suggest(name: str, choices: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest choices, or ``""``."""
    close = difflib.get_close_matches(name, sorted(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


__all__ = [
    "AntiConservativeWarning", "CacheWarning", "ComponentConflictError", "ConfigError",
    "EvalfwError", "EvalfwWarning", "InputError", "PluginError", "ResolutionWarning",
    "RecordError", "RegressionDetected", "suggest", "UnknownComponentError",
    "VerificationFailed",
]
