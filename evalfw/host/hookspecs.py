"""The plugin API: every hook a plugin may implement, and nothing else.

Each hook is a plain 1:N contribution hook: it takes no arguments and returns the component
*classes* the plugin provides. The host instantiates them with options from a config or the
command line. Built-in components use exactly these hooks (see ``evalfw.builtin``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pluggy

from evalfw.plugin import PROJECT

hookspec = pluggy.HookspecMarker(PROJECT)

if TYPE_CHECKING:
    from evalfw.components import (
        Bucketer,
        BrevityPenalty,
        Mean,
        NgramCounter,
        Preset,
        Reporter,
        Smoother,
        Tokenizer,
    )


@hookspec
def evalfw_register_tokenizers() -> Iterable[type[Tokenizer]]:
    """Return tokenizer classes: each turns a batch of lines into token lists.

    :returns: an iterable of :class:`evalfw.components.Tokenizer` subclasses.
    Called once per plugin host, when the host builds its registries.
    """


@hookspec
def evalfw_register_precisions() -> Iterable[type[NgramCounter]]:
    """Return n-gram counters: batch (hypotheses, references) -> per-segment matches/totals.

    :returns: an iterable of :class:`evalfw.components.NgramCounter` subclasses.
    """


@hookspec
def evalfw_register_brevity_penalties() -> Iterable[type[BrevityPenalty]]:
    """Return brevity penalties: a reference-length rule plus a penalty formula.

    :returns: an iterable of :class:`evalfw.components.BrevityPenalty` subclasses.
    """


@hookspec
def evalfw_register_smoothers() -> Iterable[type[Smoother]]:
    """Return smoothing methods: corpus counts -> per-order precisions (never mutated).

    :returns: an iterable of :class:`evalfw.components.Smoother` subclasses.
    """


@hookspec
def evalfw_register_means() -> Iterable[type[Mean]]:
    """Return combiners: smoothed precisions, brevity penalty and weights -> one score.

    :returns: an iterable of :class:`evalfw.components.Mean` subclasses.
    """


@hookspec
def evalfw_register_presets() -> Iterable[type[Preset]]:
    """Return presets: named bundles of component choices (``sacrebleu``, ``nltk``, ...).

    :returns: an iterable of :class:`evalfw.components.Preset` subclasses.
    """


@hookspec
def evalfw_register_reporters() -> Iterable[type[Reporter]]:
    """Return report writers that render a finished run record (table, CSV, LaTeX, ...).

    :returns: an iterable of :class:`evalfw.components.Reporter` subclasses.
    """


@hookspec
def evalfw_register_bucketers() -> Iterable[type[Bucketer]]:
    """Return bucketers that assign each segment to a bucket for analysis.

    :returns: an iterable of :class:`evalfw.components.Bucketer` subclasses.
    """
