"""``evalfw-sacrebleu``'s arguments: sacreBLEU 2.6.0's, written once in :data:`ARGUMENTS`.

Two readers: :func:`build_parser` makes the ``argparse`` parser (help, abbreviations, errors:
sacreBLEU's own behaviour), and :func:`quick_parse` reads the plain command lines scripts
write (``REF... -i SYS... [-x VALUE]...``, every option spelled in full, each once) without
building it. Building the parser checks every argument through a help formatter, which asks
for the terminal size each time: on a small input that was a tenth of the whole command.
Whatever :func:`quick_parse` is unsure of (an abbreviation, ``--opt=value``, ``-w4``, a value
that looks like an option, a repeated option, a bad value, ``-h``) it leaves to ``argparse``,
so the result, or the error, is argparse's. ``tests/compat/test_sacrebleu_args.py`` compares
the two readers on many command lines.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not from typing: the command's start-up is what this module saves
if TYPE_CHECKING:
    import argparse
    from types import SimpleNamespace
    from typing import Any

__all__ = ["ARGUMENTS", "build_parser", "FORMATS", "quick_parse", "TOKENIZERS", "VERSION"]

VERSION = "2.6.0"  # the sacreBLEU whose command line this is
FORMATS = ["json", "text", "latex"]
TOKENIZERS = ["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101",
              "flores200", "spBLEU-1K"]

DESCRIPTION = ("sacreBLEU 2.6.0's command line, computed by evalfw: BLEU, chrF and TER of system "
               "outputs against references.")
EPILOG = """examples:
  evalfw-sacrebleu ref.txt -i hyp.txt                       # BLEU as JSON
  evalfw-sacrebleu ref.A.txt ref.B.txt -i hyp.txt -m bleu chrf ter -f text
  cat hyp.txt | evalfw-sacrebleu ref.txt -b -w 2            # the score alone
  evalfw-sacrebleu ref.txt -i hyp.txt -sl -f text           # one line per segment
  evalfw-sacrebleu ref.txt -i base.txt sys1.txt sys2.txt --paired-bs -f text
  evalfw-sacrebleu -t wmt22 -l en-de -i hyp.txt             # a test set (evalfw[datasets])

Output, exit status and errors are those of sacreBLEU 2.6.0's command line.
"""

# argument groups: None is the parser itself; WHICH is PAIRED's mutually exclusive group
BLEU, CHRF, TER, CI = "BLEU", "chrF", "TER (defaults as TERCOM)", "confidence interval of one system"
PAIRED = "paired tests of several systems (the first is the baseline)"
WHICH = "paired: one of"
OUT = "output"
_TRUE = {"action": "store_true", "default": False}

#: (group, option strings, add_argument keywords), in sacreBLEU's order: abbreviations and
#: error messages depend on it
ARGUMENTS: list[tuple[str | None, tuple[str, ...], dict[str, Any]]] = [
    (None, ("--citation", "--cite"), {**_TRUE,
     "help": "print the BibTeX citation of the -t test set(s) and exit"}),
    (None, ("--list",), {**_TRUE,
     "help": "list the test sets (of -l), or the fields of -t, and exit"}),
    (None, ("--test-set", "-t"), {"type": str, "default": None,
     "help": "score against a test set's references (comma-separated sets are joined)"}),
    (None, ("--language-pair", "-l"), {"dest": "langpair", "default": None,
     "help": "source-target pair, e.g. en-de; the target chooses BLEU's tokenizer"}),
    (None, ("--origlang", "-ol"), {"dest": "origlang", "default": None,
     "help": "only the documents of this original language ('non-xx' for the others)"}),
    (None, ("--subset",), {"dest": "subset", "default": None,
     "help": "only the documents whose annotation matches this regular expression"}),
    (None, ("--download",), {"type": str, "default": None,
     "help": "download a test set and exit"}),
    (None, ("--echo",), {"nargs": "+", "type": str, "default": None,
     "help": "print fields of -t/-l (src, ref, ref:A, docid, ..., or all) as TSV and exit"}),
    (None, ("--input", "-i"), {"type": str, "nargs": "*", "default": None,
     "help": "system output files (default: standard input, one system per tab column)"}),
    (None, ("refs",), {"nargs": "*", "default": [], "help": "reference files (before -i)"}),
    (None, ("--num-refs", "-nr"), {"type": int, "default": 1,
     "help": "each reference line holds this many tab-separated references (default: 1)"}),
    (None, ("--encoding", "-e"), {"type": str, "default": "utf-8",
     "help": "encoding of the files (default: utf-8)"}),
    (None, ("--metrics", "-m"), {"choices": ["bleu", "chrf", "ter"], "nargs": "+",
     "default": ["bleu"], "help": "metrics to compute (default: bleu)"}),
    (None, ("--sentence-level", "-sl"), {**_TRUE,
     "help": "one score per segment (one metric, one system)"}),
    (BLEU, ("--smooth-method", "-s"), {"choices": ["none", "floor", "add-k", "exp"],
     "default": "exp", "dest": "bleu_smooth_method", "help": "smoothing (default: exp)"}),
    (BLEU, ("--smooth-value", "-sv"), {"type": float, "default": None,
     "dest": "bleu_smooth_value", "help": "value for floor (default 0.1) and add-k (default 1)"}),
    (BLEU, ("--tokenize", "-tok"), {"choices": TOKENIZERS, "default": None,
     "dest": "bleu_tokenize",
     "help": "tokenizer (default: zh, ja-mecab or ko-mecab by the -l target, else 13a)"}),
    (BLEU, ("--lowercase", "-lc"), {**_TRUE, "dest": "bleu_lowercase",
     "help": "case-insensitive BLEU"}),
    (BLEU, ("--force",), {**_TRUE, "dest": "bleu_force",
     "help": "no warning about hypotheses that look tokenized"}),
    (CHRF, ("--chrf-char-order", "-cc"), {"type": int, "default": 6,
     "help": "character n-gram order (default: 6)"}),
    (CHRF, ("--chrf-word-order", "-cw"), {"type": int, "default": 0,
     "help": "word n-gram order (default: 0; 2 is chrF++)"}),
    (CHRF, ("--chrf-beta",), {"type": int, "default": 2, "help": "recall weight (default: 2)"}),
    (CHRF, ("--chrf-whitespace",), {**_TRUE, "help": "keep whitespace in character n-grams"}),
    (CHRF, ("--chrf-lowercase",), {**_TRUE, "help": "case-insensitive chrF"}),
    (CHRF, ("--chrf-eps-smoothing",), {**_TRUE,
     "help": "epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order"}),
    (TER, ("--ter-case-sensitive",), {**_TRUE, "help": "case-sensitive TER"}),
    (TER, ("--ter-asian-support",), {**_TRUE, "help": "split Asian characters"}),
    (TER, ("--ter-no-punct",), {**_TRUE, "help": "remove punctuation"}),
    (TER, ("--ter-normalized",), {**_TRUE, "help": "normalize and tokenize first"}),
    (CI, ("--confidence", "-ci"), {**_TRUE, "help": "bootstrap confidence interval"}),
    (CI, ("--confidence-n", "-cin"), {"type": int, "default": 1000,
     "help": "bootstrap resamples (default: 1000)"}),
    (WHICH, ("--paired-ar", "-par"), {**_TRUE, "help": "approximate randomization test"}),
    (WHICH, ("--paired-bs", "-pbs"), {**_TRUE, "help": "paired bootstrap resampling test"}),
    (PAIRED, ("--paired-ar-n", "-parn"), {"type": int, "default": 10000,
     "help": "trials of --paired-ar (default: 10000)"}),
    (PAIRED, ("--paired-bs-n", "-pbsn"), {"type": int, "default": 1000,
     "help": "resamples of --paired-bs (default: 1000)"}),
    (PAIRED, ("--paired-jobs", "-j"), {"type": int, "default": 1,
     "help": "accepted for sacreBLEU's scripts; the tests run in this process"}),
    (OUT, ("--quiet", "-q"), {**_TRUE, "help": "no information on standard error"}),
    (OUT, ("--short", "-sh"), {**_TRUE, "help": "short signatures (not in JSON)"}),
    (OUT, ("--score-only", "-b"), {**_TRUE, "help": "print the score only"}),
    (OUT, ("--width", "-w"), {"type": int, "default": 1,
     "help": "decimals of scores (default: 1)"}),
    (OUT, ("--detail", "-d"), {**_TRUE,
     "help": "scores by original language and subset of -t (text output)"}),
    (OUT, ("--no-color", "-nc"), {**_TRUE, "help": "no terminal colours"}),
    (OUT, ("--format", "-f"), {"default": "json", "choices": FORMATS,
     "help": "json (default), text, or latex (tables of several systems); "
             "$SACREBLEU_FORMAT overrides it"}),
    (None, ("--version", "-V"), {"action": "version", "version": f"%(prog)s {VERSION}"}),
]


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """sacreBLEU's arguments: the same names, in the same order, the same types, choices and
    defaults."""
    import argparse

    p = argparse.ArgumentParser(prog=prog, description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    groups: dict[str | None, Any] = {None: p}
    for group, flags, options in ARGUMENTS:
        if group == WHICH and WHICH not in groups:  # the paired group holds it
            groups[PAIRED] = p.add_argument_group(PAIRED)
            groups[WHICH] = groups[PAIRED].add_mutually_exclusive_group()
        elif group not in groups:
            groups[group] = p.add_argument_group(group)
        groups[group].add_argument(*flags, **options)
    return p


def _dest(flags: tuple[str, ...], options: dict[str, Any]) -> str:
    """argparse's attribute name: ``dest``, else the first long option without ``--``."""
    if "dest" in options:
        return options["dest"]  # type: ignore[no-any-return]
    long = next((f for f in flags if f.startswith("--")), flags[0])
    return long.lstrip("-").replace("-", "_")


def _value(options: dict[str, Any], text: str) -> tuple[bool, Any]:
    """(True, the converted value) or (False, None) where argparse would complain."""
    try:
        value = options.get("type", str)(text)
    except ValueError:
        return False, None
    choices = options.get("choices")
    return choices is None or value in choices, value


def quick_parse(argv: list[str]) -> SimpleNamespace | None:
    """What ``build_parser().parse_args(argv)`` returns, for a plain command line (see the
    module docstring); None: ask argparse."""
    from types import SimpleNamespace

    by_flag: dict[str, tuple[str, dict[str, Any]]] = {}
    values: dict[str, Any] = {}
    for _, flags, options in ARGUMENTS:
        if flags == ("refs",) or options.get("action") == "version":
            continue
        dest = _dest(flags, options)
        for flag in flags:
            by_flag[flag] = dest, options
        default = options.get("default")
        values[dest] = list(default) if isinstance(default, list) else default
    i, n = 0, len(argv)
    refs = []
    while i < n and not argv[i].startswith("-"):  # references come first
        refs.append(argv[i])
        i += 1
    seen = set()
    while i < n:
        found = by_flag.get(argv[i])
        if found is None:
            return None  # a positional after an option, an abbreviation, -h, -V, ...
        dest, options = found
        if dest in seen:
            return None
        seen.add(dest)
        i += 1
        if options.get("action") == "store_true":
            values[dest] = True
            continue
        many = options.get("nargs") in ("*", "+")
        got = []
        while i < n and not argv[i].startswith("-") and (many or not got):
            ok, value = _value(options, argv[i])
            if not ok:
                return None
            got.append(value)
            i += 1
        if not got and options.get("nargs") != "*":
            return None  # a value is missing (or looks like an option)
        values[dest] = got if many else got[0]
    if values["paired_ar"] and values["paired_bs"]:
        return None
    values["refs"] = refs
    return SimpleNamespace(**values)
