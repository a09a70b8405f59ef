"""Where ``evalfw score`` gets its references, as sacreBLEU's command line does: reference files
given positionally (``evalfw score REF [REF ...] -i HYP``) or with ``-r``, or a test set
(``-t NAME -l SRC-TGT``) from sacreBLEU's local test-set cache; ``-l`` also picks BLEU's
default tokenizer by the target language, and ``--echo src|ref`` prints a test set's side.

The cache is ``$SACREBLEU`` (default ``~/.sacrebleu``), in sacreBLEU 2.6.0's layout: the plain
text of field F of NAME for pair P is ``<cache>/NAME/NAME.P.F`` (``/`` in NAME and ``:`` in F
become ``_`` and ``-``): ``src``, ``ref`` or one ``ref-<translator>`` per translator. Which
references sacreBLEU scores with is its dataset metadata (WMT22 en-de: ``ref-A`` only); with
sacreBLEU installed (``evalfw[datasets]``) evalfw asks it, and asks it to download a test set
that is not in the cache. Without it, evalfw reads ``ref`` or else the first ``ref-*`` file,
the reference sacreBLEU's ``--echo ref`` prints.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from evalfw.errors import ConfigError, InputError

#: the target languages whose default tokenizer is not 13a (sacreBLEU's BLEU._TOKENIZER_MAP)
TOKENIZER_BY_TARGET = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("refs", nargs="*", metavar="REF",
                   help="reference files (as sacreBLEU: before -i), the same as -r")
    p.add_argument("-r", "--references", nargs="+", metavar="REF", default=None,
                   help="reference files, one segment per line (one stream per file)")
    p.add_argument("-t", "--test-set", default=None, metavar="NAME",
                   help="references of a sacreBLEU test set from its local cache ($SACREBLEU, "
                        "default ~/.sacrebleu); needs -l")
    p.add_argument("-l", "--language-pair", default=None, metavar="SRC-TGT",
                   help="language pair; BLEU's default tokenizer follows the target as in "
                        "sacreBLEU (zh, ja-mecab, ko-mecab; else 13a)")
    p.add_argument("--echo", choices=("src", "ref"), default=None,
                   help="print the source or reference side of -t/-l and exit")


def target_language(args: argparse.Namespace) -> str | None:
    pair: str | None = args.language_pair
    if pair is None:
        return None
    src, sep, tgt = pair.partition("-")
    if not (src and sep and tgt):
        raise ConfigError(f"-l/--language-pair: expected SRC-TGT such as en-de, got {pair!r}")
    return tgt


def default_tokenizer(args: argparse.Namespace) -> str | None:
    """The tokenizer ``-l`` chooses when ``--tokenize`` is not given: sacreBLEU's rule
    (zh, ja-mecab, ko-mecab by target; else None, the preset's default, 13a for sacreBLEU's)."""
    tgt = target_language(args)
    return None if tgt is None else TOKENIZER_BY_TARGET.get(tgt)


def tokenizer_warning(args: argparse.Namespace, tokenizer: str) -> str | None:
    """sacreBLEU's advice when ``--tokenize`` differs from the target's usual tokenizer."""
    tgt = target_language(args)
    usual = TOKENIZER_BY_TARGET.get(tgt or "")
    if usual is None or tokenizer == usual:
        return None
    language = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[tgt or ""]
    return f"consider the '{usual}' or 'spm' tokenizer for {language} (-l {args.language_pair})"


def cache_dir() -> Path:
    """sacreBLEU's test-set cache: ``$SACREBLEU``, else ``~/.sacrebleu``."""
    return Path(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu")))


def _field_path(name: str, pair: str, field: str) -> Path:
    return cache_dir() / name / f"{name.replace('/', '_')}.{pair}.{field.replace(':', '-')}"


def _sacrebleu_dataset(name: str) -> Any:
    try:
        from sacrebleu.dataset import DATASETS
    except ImportError:
        return None
    return DATASETS.get(name)


def _known_reference_fields(dataset: Any, pair: str) -> list[str] | None:
    """The reference fields sacreBLEU scores with, from its metadata alone (no download)."""
    allowed = getattr(dataset, "_get_langpair_allowed_refs", None)
    if allowed is None:
        return ["ref"]
    try:
        fields = allowed(pair)
    except Exception:  # metadata of a pair the dataset does not have
        return None
    return list(fields) or None


def _local_files(name: str, pair: str, side: str, dataset: Any) -> list[Path]:
    if side == "src":
        path = _field_path(name, pair, "src")
        return [path] if path.is_file() else []
    fields = _known_reference_fields(dataset, pair) if dataset is not None else None
    if fields is not None:
        paths = [_field_path(name, pair, f) for f in fields]
        if all(p.is_file() for p in paths):
            return paths
    single = _field_path(name, pair, "ref")
    if single.is_file():
        return [single]
    stem = single.name
    several = sorted((cache_dir() / name).glob(f"{stem}-*"))
    return several[:1]  # sacreBLEU's --echo ref: the first reference


def _download(dataset: Any, pair: str, side: str) -> list[Path]:
    try:
        if side == "src":
            return [Path(dataset.get_source_file(pair))]
        return [Path(p) for p in dataset.get_reference_files(pair)]
    except Exception as exc:  # network, checksum, archive: sacreBLEU's own errors
        raise InputError(f"-t {dataset.name} -l {pair}: sacreBLEU could not fetch the test set "
                         f"into {cache_dir() / dataset.name} ({type(exc).__name__}: {exc})"
                         ) from None


def test_set_files(args: argparse.Namespace, side: str = "ref",
                   metadata: bool = True) -> list[Path]:
    """The files of one side (``src`` or ``ref``) of ``-t``/``-l``: from the cache, else
    downloaded by sacreBLEU when it is installed, else a one-line error saying how to fetch.
    ``metadata=False``: the reference ``--echo ref`` prints, not the ones scored with."""
    name, pair = args.test_set, args.language_pair
    if pair is None:
        raise ConfigError(f"-t {name} needs a language pair: add -l SRC-TGT (e.g. -l en-de)")
    target_language(args)
    dataset = _sacrebleu_dataset(name)
    files = _local_files(name, pair, side, dataset if metadata else None)
    if files:
        return files
    if dataset is not None:
        if pair not in dataset.langpairs:
            raise ConfigError(f"-t {name} has no language pair {pair!r}; it has "
                              f"{', '.join(dataset.langpairs)}")
        return _download(dataset, pair, side)
    where = cache_dir() / name
    raise InputError(f"-t {name} -l {pair}: no {'source' if side == 'src' else 'references'} "
                     f"in {where} (sacreBLEU's test-set cache; $SACREBLEU sets it); fetch them "
                     f"with: pip install 'evalfw[datasets]' && sacrebleu -t {name} -l {pair} "
                     f"--echo {side} > /dev/null")


def reference_paths(args: argparse.Namespace) -> list[str]:
    """The reference files: positional, ``-r``, or ``-t``/``-l`` (exactly one way)."""
    given = [*args.refs, *(args.references or [])]
    if args.refs and args.references:
        raise ConfigError("references are given both positionally and with -r; give them one "
                          "way (evalfw score REF ... -i HYP, or -r REF ...)")
    if args.test_set is not None:
        if given:
            raise ConfigError("give either a test set (-t) or reference files, not both")
        return [str(p) for p in test_set_files(args, "ref")]
    if not given:
        raise ConfigError("no references: give reference files (evalfw score REF ... -i HYP, "
                          "or -r REF ...) or a test set with -t NAME -l SRC-TGT")
    return given


def recorded(args: argparse.Namespace) -> dict[str, Any]:
    """What JSON objects record of where the references came from (``-l``, ``-t``)."""
    out = {}
    if args.language_pair is not None:
        out["language_pair"] = args.language_pair
    if args.test_set is not None:
        out["test_set"] = args.test_set
    return out


def echo(args: argparse.Namespace) -> int:
    """``--echo src|ref``: the lines of the side, stripped at the end, as sacreBLEU prints."""
    if args.test_set is None or args.language_pair is None:
        raise ConfigError("--echo needs a test set and a language pair: -t NAME -l SRC-TGT")
    from evalfw.io.text import read_segments

    path = test_set_files(args, args.echo, metadata=False)[0]
    lines = read_segments(path, shown=str(path)).lines
    sys.stdout.write("".join(line.rstrip() + "\n" for line in lines))
    return 0


__all__ = ["add_arguments", "cache_dir", "default_tokenizer", "echo", "recorded", "reference_paths",
           "target_language", "test_set_files", "TOKENIZER_BY_TARGET", "tokenizer_warning"]
