"""The plugin API: every hook a plugin may implement, and nothing else.

There is one hook per component kind (:data:`evalfw.host.kinds.KINDS`), named
``evalfw_register_<plural>`` after the kind's contract class. Each takes no arguments and
returns the component *classes* the plugin provides; the host instantiates them with options
from a config or the command line. Built-in components use exactly these hooks.

What every hook has in common:

- **When.** A plugin host calls a kind's hook the first time it needs that kind's registry
  (a run, ``evalfw score``, ``evalfw plugins``, ``evalfw schema``), once per plugin, built-ins
  first, then entry points by (distribution, name), then plugin files by name. A plugin that
  registers later makes the host build its registries again.
- **What is checked.** Every returned object must be a subclass of the kind's contract class
  with a valid ``name`` (letters, digits, ``.``, ``_`` and ``-``), a string ``version`` and a
  valid ``options_schema``; anything else is refused with an error that names the plugin.
  A hook that raises is reported as that plugin's error.
- **Names.** The names of one kind share one namespace. A name two plugins provide is a
  conflict: using it is an error naming both providers (and ``--disable-plugin`` to settle
  it); every other name keeps working, so installing a plugin never changes what an existing
  config computes.

Adding a kind is two edits: its contract class in :data:`evalfw.host.kinds.KINDS`, and its hook
here, written out like the others (``tests/host/test_hookspecs.py`` checks that the two lists
agree, name for name, and that each hook's docstring names its contract class).
"""

from __future__ import annotations

from collections.abc import Iterable

import pluggy

from evalfw.analysis.bucketing import Bucketer
from evalfw.checks.base import Check
from evalfw.executors.base import Executor
from evalfw.metrics.base import Metric
from evalfw.metrics.bleu.components import BrevityPenalty, Mean, NgramCounter, Preset, Smoother
from evalfw.plugin import PROJECT
from evalfw.reports.base import Reporter
from evalfw.tokenizers.base import Tokenizer

#: marks a hook specification (``@hookspec``); plugins use :data:`evalfw.hookimpl`
hookspec = pluggy.HookspecMarker(PROJECT)


class Hookspecs:
    """The hook specifications, as pluggy reads them (``pm.add_hookspecs(Hookspecs)``)."""

    @staticmethod
    @hookspec
    def evalfw_register_metrics() -> Iterable[type[Metric]]:
        """Return the metric classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Metric` (classes, not instances). Each class
            says how a segment becomes a row of statistics and how summed rows become a
            score; significance tests, buckets, records and every report then work for it.

        Called when the host first needs its metrics: a run, ``evalfw score -m``,
        ``evalfw plugins``. A metric's ``name`` is what ``metric:`` in a config and ``-m`` on
        the command line select; a name another plugin also provides is a conflict (an error
        naming both when used, the other names unaffected).

        Example:

        .. code-block:: python

            import evalfw

            class WordOverlap(evalfw.Metric):
                name = "word-overlap"
                ...

            @evalfw.hookimpl
            def evalfw_register_metrics():
                return [WordOverlap]
        """
        raise NotImplementedError  # a specification: pluggy calls the implementations

    @staticmethod
    @hookspec
    def evalfw_register_tokenizers() -> Iterable[type[Tokenizer]]:
        """Return the tokenizer classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Tokenizer`, each turning lines into tokens.

        Called when the host first needs a tokenizer by name: a BLEU metric's ``tokenizer:``,
        ``evalfw score --tokenize``, a test set's ``tokenizer:`` for lengths and buckets. The
        built-ins are ``13a``, ``intl``, ``zh``, ``char``, ``none`` and the MeCab ones; a
        plugin's ``name`` that equals one of them is a conflict (an error naming both when
        used), never a silent replacement.

        Example:

        .. code-block:: python

            class Whitespace(evalfw.Tokenizer):
                name = "whitespace"

                def tokenize(self, lines: Sequence[str]) -> list[list[str]]:
                    return [line.split() for line in lines]

            @evalfw.hookimpl
            def evalfw_register_tokenizers():
                return [Whitespace]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_counters() -> Iterable[type[NgramCounter]]:
        """Return the BLEU n-gram counter classes this plugin provides.

        :returns: subclasses of :class:`evalfw.NgramCounter`: given tokens of a hypothesis and
            its references, the matched and total n-grams per order.

        Called when the host first resolves a BLEU metric's ``counter:`` (default
        ``clipped``). Names collide as for every kind: a conflict is an error naming both
        providers when that name is used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_counters():
                return [UnclippedCounter]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_brevity_penalties() -> Iterable[type[BrevityPenalty]]:
        """Return the BLEU brevity-penalty classes this plugin provides.

        :returns: subclasses of :class:`evalfw.BrevityPenalty`: which reference length a
            hypothesis is compared with, and the penalty from the two lengths.

        Called when the host first resolves a BLEU metric's ``brevity_penalty:`` (the
        built-ins are ``closest``, ``closest-first`` and ``shortest``). A name another plugin
        also provides is a conflict, an error naming both when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_brevity_penalties():
                return [LongestReference]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_smoothers() -> Iterable[type[Smoother]]:
        """Return the BLEU smoothing classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Smoother`: given the corpus :class:`evalfw.Counts`,
            the smoothed precisions as :class:`evalfw.Smoothed`.

        Called when the host first resolves a BLEU metric's ``smoothing:`` (or
        ``evalfw score --smooth``). Its ``options_schema`` checks the options a config gives
        it. A name another plugin also provides (``exp``, ``floor``, ``method3``, ...) is a
        conflict, an error naming both when used.

        Example:

        .. code-block:: python

            class FloorPlus(evalfw.Smoother):
                name = "floor-plus"
                options_schema = {"type": "object", "properties": {"value": {"type": "number"}}}

                def smooth(self, counts: evalfw.Counts) -> evalfw.Smoothed:
                    ...

            @evalfw.hookimpl
            def evalfw_register_smoothers():
                return [FloorPlus]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_means() -> Iterable[type[Mean]]:
        """Return the BLEU mean classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Mean`: how smoothed precisions and the brevity
            penalty become one score.

        Called when the host first resolves a BLEU metric's ``mean:``. A name another plugin
        also provides is a conflict, an error naming both when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_means():
                return [HarmonicMean]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_presets() -> Iterable[type[Preset]]:
        """Return the BLEU preset classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Preset`: a named bundle of BLEU components
            (tokenizer, counter, brevity penalty, smoothing, mean) that reproduces one
            implementation.

        Called when the host first resolves ``preset:`` in a config or ``--preset``. A name
        another plugin also provides (``sacrebleu``, ``nltk``, ...) is a conflict, an error
        naming both when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_presets():
                return [MyToolkitBleu]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_reporters() -> Iterable[type[Reporter]]:
        """Return the reporter classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Reporter`: each renders a stored run (tables,
            files, a tracking server) without recomputing it.

        Called when the host first needs a reporter: a config's ``reporters:``,
        ``evalfw show --format``. A name another plugin also provides (``html``, ``csv``,
        ...) is a conflict, an error naming both when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_reporters():
                return [SlackSummary]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_bucketers() -> Iterable[type[Bucketer]]:
        """Return the bucketer classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Bucketer`: each puts every segment of a test
            set in a named bucket (from the segments' lengths), scored separately.

        Called when the host first resolves a config's ``buckets:``. A name another plugin
        also provides (``hyp-length``, ``ref-length``) is a conflict, an error naming both
        when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_bucketers():
                return [ByDomain]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_executors() -> Iterable[type[Executor]]:
        """Return the executor classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Executor`: each maps a task over a run's
            independent jobs (statistics per cell, resampling) and returns the results in
            order.

        Called when the host first resolves ``executor:`` in a config or ``--executor``. A
        name another plugin also provides (``serial``, ``processes``, ``dask``, ``auto``) is
        a conflict, an error naming both when used.

        Example:

        .. code-block:: python

            @evalfw.hookimpl
            def evalfw_register_executors():
                return [SlurmExecutor]
        """
        raise NotImplementedError

    @staticmethod
    @hookspec
    def evalfw_register_checks() -> Iterable[type[Check]]:
        """Return the output check classes this plugin provides.

        :returns: subclasses of :class:`evalfw.Check`: each reads one system's outputs on a
            test set (with the source, the references and the language pair, all read-only)
            and returns one ``True`` or ``False`` per segment, ``True`` where the output is
            not a translation (empty, copied, in the wrong language, ...).

        Called when the host first needs a check by name: a run (the config's ``checks:``,
        by default the built-in ``empty``, ``copy-source``, ``length``, ``repetition`` and
        ``numbers``), ``evalfw validate``, ``evalfw plugins``. What ``flag`` returns is
        checked where it enters (one boolean per segment, nothing else). A name another
        plugin also provides is a conflict, an error naming both when used.

        Example:

        .. code-block:: python

            class Shouting(evalfw.Check):
                name = "shouting"
                label = "in capitals"

                def flag(self, segments: evalfw.CheckInput) -> list[bool]:
                    return [h.isupper() for h in segments.hypotheses]

            @evalfw.hookimpl
            def evalfw_register_checks():
                return [Shouting]
        """
        raise NotImplementedError


__all__ = ["Hookspecs", "hookspec"]
