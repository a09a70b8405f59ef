"""``evalfw-sacrebleu`` (also ``python -m evalfw.compat.sacrebleu``): sacreBLEU 2.6.0's command
line, computed by evalfw. Existing scripts change the command's name and nothing else.

Every sacreBLEU argument is accepted with its defaults (JSON output unless ``-f``/
``$SACREBLEU_FORMAT`` says otherwise; ``$SACREBLEU_SEED``, default 12345, seeds the tests);
standard output and the exit status are sacreBLEU's, and so is the last line on standard
error when it stops (``sacreBLEU: <message>``, or the ``Type: message`` line that ends
sacreBLEU's traceback when it crashes; set ``EVALFW_DEBUG=1`` for evalfw's traceback).
Test sets (``-t`` and friends) go through sacreBLEU's own dataset code (``evalfw[datasets]``).

Differences: ``--paired-bs`` with JSON output prints valid JSON for chrF and TER, where
sacreBLEU 2.6.0 crashes; ``-h`` is evalfw's own help text; ``-j`` runs the tests in this
process (the numbers do not change); the SentencePiece tokenizers (``spm``, ``flores101``,
``flores200``, ``spBLEU-1K``) are not available.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

__all__ = ["build_parser", "main"]

VERSION = "2.6.0"  # the sacreBLEU whose command line this is
FORMATS = ["json", "text", "latex"]
TOKENIZERS = ["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101",
              "flores200", "spBLEU-1K"]

EPILOG = """examples:
  evalfw-sacrebleu ref.txt -i hyp.txt                       # BLEU as JSON
  evalfw-sacrebleu ref.A.txt ref.B.txt -i hyp.txt -m bleu chrf ter -f text
  cat hyp.txt | evalfw-sacrebleu ref.txt -b -w 2            # the score alone
  evalfw-sacrebleu ref.txt -i hyp.txt -sl -f text           # one line per segment
  evalfw-sacrebleu ref.txt -i base.txt sys1.txt sys2.txt --paired-bs -f text
  evalfw-sacrebleu -t wmt22 -l en-de -i hyp.txt             # a test set (evalfw[datasets])

Output, exit status and errors are those of sacreBLEU 2.6.0's command line.
"""


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """sacreBLEU's arguments: the same names, in the same order (abbreviations and error
    messages depend on it), the same types, choices and defaults."""
    p = argparse.ArgumentParser(
        prog=prog, description="sacreBLEU 2.6.0's command line, computed by evalfw: BLEU, chrF and TER "
                    "of system outputs against references.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = p.add_argument
    add("--citation", "--cite", default=False, action="store_true",
        help="print the BibTeX citation of the -t test set(s) and exit")
    add("--list", default=False, action="store_true",
        help="list the test sets (of -l), or the fields of -t, and exit")
    add("--test-set", "-t", type=str, default=None,
        help="score against a test set's references (comma-separated sets are joined)")
    add("--language-pair", "-l", dest="langpair", default=None,
        help="source-target pair, e.g. en-de; the target chooses BLEU's tokenizer")
    add("--origlang", "-ol", dest="origlang", default=None,
        help="only the documents of this original language ('non-xx' for the others)")
    add("--subset", dest="subset", default=None,
        help="only the documents whose annotation matches this regular expression")
    add("--download", type=str, default=None, help="download a test set and exit")
    add("--echo", nargs="+", type=str, default=None,
        help="print fields of -t/-l (src, ref, ref:A, docid, ..., or all) as TSV and exit")
    add("--input", "-i", type=str, nargs="*", default=None,
        help="system output files (default: standard input, one system per tab column)")
    add("refs", nargs="*", default=[], help="reference files (before -i)")
    add("--num-refs", "-nr", type=int, default=1,
        help="each reference line holds this many tab-separated references (default: 1)")
    add("--encoding", "-e", type=str, default="utf-8",
        help="encoding of the files (default: utf-8)")
    add("--metrics", "-m", choices=["bleu", "chrf", "ter"], nargs="+", default=["bleu"],
        help="metrics to compute (default: bleu)")
    add("--sentence-level", "-sl", action="store_true",
        help="one score per segment (one metric, one system)")
    bleu = p.add_argument_group("BLEU")
    bleu.add_argument("--smooth-method", "-s", choices=["none", "floor", "add-k", "exp"],
                      default="exp", dest="bleu_smooth_method", help="smoothing (default: exp)")
    bleu.add_argument("--smooth-value", "-sv", type=float, default=None,
                      dest="bleu_smooth_value",
                      help="value for floor (default 0.1) and add-k (default 1)")
    bleu.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None,
                      dest="bleu_tokenize",
                      help="tokenizer (default: zh, ja-mecab or ko-mecab by the -l target, "
                           "else 13a)")
    bleu.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true",
                      default=False, help="case-insensitive BLEU")
    bleu.add_argument("--force", default=False, action="store_true", dest="bleu_force",
                      help="no warning about hypotheses that look tokenized")
    chrf = p.add_argument_group("chrF")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=6,
                      help="character n-gram order (default: 6)")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=0,
                      help="word n-gram order (default: 0; 2 is chrF++)")
    chrf.add_argument("--chrf-beta", type=int, default=2, help="recall weight (default: 2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", default=False,
                      help="keep whitespace in character n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", default=False,
                      help="case-insensitive chrF")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true", default=False,
                      help="epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective "
                           "order")
    ter = p.add_argument_group("TER (defaults as TERCOM)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="case-sensitive TER")
    ter.add_argument("--ter-asian-support", action="store_true",
                     help="split Asian characters")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true",
                     help="normalize and tokenize first")
    ci = p.add_argument_group("confidence interval of one system")
    ci.add_argument("--confidence", "-ci", action="store_true",
                    help="bootstrap confidence interval")
    ci.add_argument("--confidence-n", "-cin", type=int, default=1000,
                    help="bootstrap resamples (default: 1000)")
    paired = p.add_argument_group("paired tests of several systems (the first is the "
                                  "baseline)")
    which = paired.add_mutually_exclusive_group()
    which.add_argument("--paired-ar", "-par", action="store_true",
                       help="approximate randomization test")
    which.add_argument("--paired-bs", "-pbs", action="store_true",
                       help="paired bootstrap resampling test")
    paired.add_argument("--paired-ar-n", "-parn", type=int, default=10000,
                        help="trials of --paired-ar (default: 10000)")
    paired.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000,
                        help="resamples of --paired-bs (default: 1000)")
    paired.add_argument("--paired-jobs", "-j", type=int, default=1,
                        help="accepted for sacreBLEU's scripts; the tests run in this process")
    out = p.add_argument_group("output")
    out.add_argument("--quiet", "-q", default=False, action="store_true",
                     help="no information on standard error")
    out.add_argument("--short", "-sh", default=False, action="store_true",
                     help="short signatures (not in JSON)")
    out.add_argument("--score-only", "-b", default=False, action="store_true",
                     help="print the score only")
    out.add_argument("--width", "-w", type=int, default=1,
                     help="decimals of scores (default: 1)")
    out.add_argument("--detail", "-d", default=False, action="store_true",
                     help="scores by original language and subset of -t (text output)")
    out.add_argument("--no-color", "-nc", action="store_true", help="no terminal colours")
    out.add_argument("--format", "-f", default="json", choices=FORMATS,
                     help="json (default), text, or latex (tables of several systems); "
                          "$SACREBLEU_FORMAT overrides it")
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {VERSION}")
    return p


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Run the command (``prog``: its name in messages, default from ``sys.argv[0]``);
    returns the exit status."""
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the command quietly
    args = build_parser(prog).parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if "SACREBLEU_FORMAT" in os.environ and env_format in FORMATS:
        args.format = env_format
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    from evalfw.compat.sacrebleu._messages import Console, Stop

    console = Console(args.quiet, not args.no_color)
    try:
        from evalfw.compat.sacrebleu._run import run

        return run(args, console)
    except Stop as stop:
        for line in stop.lines:
            console.error(line)
        return stop.status
    except KeyboardInterrupt:
        sys.stderr.write("evalfw: interrupted\n")
        return 130
    except Exception as exc:
        return _crashed(exc)


def _crashed(exc: BaseException) -> int:
    """Where sacreBLEU would crash: its traceback's last line, status 1; an evalfw error:
    ``evalfw: error: ...``, status 2."""
    import traceback

    from evalfw.errors import EvalfwError

    if os.environ.get("EVALFW_DEBUG") == "1":
        traceback.print_exception(exc)
    if isinstance(exc, EvalfwError):
        sys.stderr.write(f"evalfw: error: {exc}\n")
        return exc.exit_code
    sys.stderr.write(traceback.format_exception_only(exc)[-1])
    return 1


def console_main() -> None:
    """The console script. Like the ``evalfw`` command it asks numpy's OpenBLAS for one
    thread (unless the user chose a count): its busy-waiting threads cost about 0.1 CPU-second
    per process for matrix products this small."""
    if "numpy" not in sys.modules and not {"OPENBLAS_NUM_THREADS",
                                            "OMP_NUM_THREADS"} & set(os.environ):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    sys.exit(main())


if __name__ == "__main__":
    console_main()
