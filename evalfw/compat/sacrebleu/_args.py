"""``evalfw-sacrebleu``'s arguments: sacreBLEU 2.6.0's, written once in :data:`ARGUMENTS`,
read by the ``argparse`` parser :func:`build_parser` makes (help, abbreviations, errors:
sacreBLEU's own behaviour)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["ARGUMENTS", "build_parser", "FORMATS", "TOKENIZERS", "VERSION"]

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
BLEU, CHRF, TER = "BLEU", "chrF", "TER (defaults as TERCOM)"
CI = "confidence interval of one system"
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
