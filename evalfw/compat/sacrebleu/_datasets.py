"""The test-set flags of the drop-in command line (``-t``, ``-l``, ``--echo``, ``--list``,
``--download``, ``--citation``, ``-ol``, ``--subset`` and ``-d``'s breakdown), answered by
sacreBLEU's own dataset code: the optional extra ``evalfw[datasets]`` installs it. Test sets
are downloaded to and read from sacreBLEU's cache (``$SACREBLEU``, default ``~/.sacrebleu``).

Everything here imports sacreBLEU, so scoring files never pays for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from evalfw.compat.sacrebleu._messages import Console, Stop
from evalfw.errors import ConfigError

__all__ = ["Datasets"]


class Datasets:
    """sacreBLEU's test sets, loaded on first use; log lines as sacreBLEU prints them."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._utils: ModuleType | None = None

    @property
    def utils(self) -> ModuleType:
        if self._utils is None:
            try:
                from sacrebleu import utils
            except ImportError:
                raise ConfigError(
                    "test sets (-t, --list, --echo, --download, --citation, -ol, --subset) "
                    "come from sacreBLEU's dataset code, which is not installed; install it "
                    "with: pip install 'evalfw[datasets]'") from None
            if not self.console.quiet:  # sacreBLEU's own log lines, as it prints them
                logging.basicConfig(level=logging.INFO, format="sacreBLEU: %(message)s")
            self._utils = utils
        return self._utils

    @property
    def datasets(self) -> Any:
        return self.utils.DATASETS

    def download(self, name: str, pair: str | None) -> None:
        self.utils.download_test_set(name, pair)

    def listing(self, test_set: str | None, pair: str | None) -> str:
        """``--list``: the fields of a test set's pairs, or the test sets (of a pair)."""
        u = self.utils
        if test_set:
            pairs = [pair] if pair else u.get_langpairs_for_testset(test_set)
            return "".join(f"{p}: {', '.join(self.datasets[test_set].fieldnames(p))}\n"
                           for p in pairs)
        if pair:
            head, names = (f"The available test sets for {pair} are:",
                           u.get_available_testsets_for_langpair(pair))
        else:
            head, names = "The available test sets are:", u.get_available_testsets()
        lines = [head] + [f"{name:<30}: {self.datasets[name].description.strip()}"
                          for name in sorted(names)]
        return "".join(f"{line}\n" for line in lines)

    def citations(self, test_sets: str) -> str:
        """``--citation``: each test set's BibTeX (a missing one is logged)."""
        out = []
        for name in test_sets.split(","):
            dataset = self.datasets[name]
            if "citation" not in dataset:
                self.console.error(f"No citation found for {name}")
            else:
                out.append(f"{dataset.citation}\n")
        return "".join(out)

    def check(self, test_sets: str | None, pair: str | None, have_refs: bool) -> None:
        """sacreBLEU's checks of ``-t``, ``-l`` and reference files, in its order."""
        if test_sets is not None:
            for name in test_sets.split(","):
                if name not in self.datasets:
                    raise Stop(1, f"Unknown test set {name!r}",
                               "Please run with --list to see the available test sets.")
        if test_sets is None:
            if not have_refs:
                raise Stop(1, "If manual references given, make sure to provide them before "
                              "the -i/--input argument to avoid confusion.",
                           "Otherwise, I need a predefined test set (-t) from the following "
                           "list:", str(self._names_or_hint()))
            return
        if have_refs:
            raise Stop(1, "I need exactly one of (a) a predefined test set (-t) or (b) a "
                          "list of references")
        if pair is None:
            raise Stop(1, "I need a language pair (-l). Use --list to see available language "
                          "pairs for this test set.")
        for name in test_sets.split(","):
            pairs = self.utils.get_langpairs_for_testset(name)
            if pair not in pairs:
                raise Stop(1, f"No such language pair {pair!r}",
                           f"Available language pairs for {name!r} are:",
                           *(f" > {p}" for p in pairs))

    def _names_or_hint(self) -> object:
        try:
            return self.utils.get_available_testsets()
        except ConfigError:  # sacreBLEU missing: say how to get its list
            return ("(sacreBLEU's test sets: pip install 'evalfw[datasets]' and run "
                    "evalfw-sacrebleu --list)")

    def echo(self, test_sets: str, pair: str, fields: list[str], origlang: str | None,
             subset: str | None) -> None:
        for name in test_sets.split(","):
            self.utils.print_test_set(name, pair, fields, origlang, subset)

    def reference_files(self, test_sets: str, pair: str) -> list[list[str]]:
        groups = []
        for name in test_sets.split(","):
            files = self.utils.get_reference_files(name, pair)
            if len(files) == 0:
                self.console.warning(f"No references found for test set {name}/{pair}.")
            groups.append(files)
        return groups

    def subset(self, streams: Sequence[list[str]], test_sets: str | None, pair: str | None,
               origlang: str | None, subset: str | None) -> list[list[str]]:
        """The segments whose documents match ``-ol``/``--subset`` (sacreBLEU's filter)."""
        kept: list[list[str]] = self.utils.filter_subset(list(streams), test_sets, pair,
                                                         origlang, subset)
        return kept

    def origlangs(self, test_sets: str | None, pair: str | None) -> list[str]:
        found: list[str] = self.utils.get_available_origlangs(test_sets, pair)
        return found

    def subsets(self, test_sets: str | None, pair: str | None) -> list[str]:
        found: list[str] = self.utils.get_available_subsets(test_sets, pair)
        return found

    def breakdown(self, metrics: dict[str, Any], system: list[str], refs: list[list[str]],
                  args: Any, write: Callable[[str], None]) -> None:
        """``-d``: each metric's score on the documents of each original language (and
        subset) of ``-t``."""
        origlangs = args.origlang if args.origlang else self.origlangs(args.test_set,
                                                                         args.langpair)
        if len(origlangs) == 0:
            write("No subset information found. Consider using --origlang argument.\n")
            return
        results: dict[str, list[tuple[int, Any]]] = {}
        for origlang in origlangs:
            subsets = [None, *([args.subset] if args.subset is not None
                               else self.subsets(args.test_set, args.langpair))]
            for sub in subsets:
                picked, *picked_refs = self.subset([system, *refs], args.test_set,
                                                   args.langpair, origlang, sub)
                if len(picked) == 0:
                    continue
                key = f"origlang={origlang}"
                if sub is None:
                    key += " domain=ALL"
                elif sub.startswith("country:"):
                    key += f" country={sub[8:]}"
                else:
                    key += f" domain={sub}"
                for metric in metrics.values():
                    score = metric.corpus_score(picked, picked_refs)
                    results.setdefault(key, []).append((len(picked), score))
        left = max(len(k) for k in results) + 1
        name_width = max(len(score.name) for _, score in next(iter(results.values())))
        w = args.width
        for key, scores in results.items():
            shown = self.console.paint(f"{key:<{left}}", "yellow")
            for n, score in scores:
                write(f"{shown}: sentences={n:<6} {score.name:<{name_width}} = "
                      f"{score.score:.{w}f}\n")
