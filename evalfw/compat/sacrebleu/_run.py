"""The drop-in command line's work, in sacreBLEU 2.6.0's order: the test-set actions, its
checks (each stops with sacreBLEU's message and status), reading, scoring and printing.

The order matters: when several things are wrong, sacreBLEU reports the first it checks, so
the same status and message come out here.
"""

from __future__ import annotations

import sys
from typing import Any

from evalfw.compat._bleu import BLEU
from evalfw.compat._chrf import CHRF
from evalfw.compat._common import set_warning_sink
from evalfw.compat._ter import TER
from evalfw.compat.sacrebleu import _inputs, _report
from evalfw.compat.sacrebleu._messages import Console, Stop
from evalfw.compat.sacrebleu._paired import environment_seed, paired_test

__all__ = ["run"]


def _datasets(console: Console) -> Any:
    from evalfw.compat.sacrebleu._datasets import Datasets

    return Datasets(console)


def _check_arguments(args: Any, paired: bool, console: Console) -> Any:
    """Everything sacreBLEU checks before reading any file; returns the test-set helper
    when the run needs one (else None)."""
    data = None
    if args.sentence_level and len(args.metrics) > 1:
        raise Stop(1, "Only one metric can be used in sentence-level mode.")
    if args.citation:
        if not args.test_set:
            raise Stop(1, "I need a test set (-t).")
        data = _datasets(console)
        sys.stdout.write(data.citations(args.test_set))
        raise Stop(0)
    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        raise Stop(1, "The --num-refs argument allows you to provide any number of "
                      "tab-delimited references in a single file.",
                   "You can only use it with externally provided references, however (i.e., "
                   "not with `-t`),", "and you cannot then provide multiple reference files.")
    if args.test_set is not None or not args.refs:
        data = _datasets(console)
        data.check(args.test_set, args.langpair, bool(args.refs))
    if args.echo:
        if args.langpair is None or args.test_set is None:
            raise Stop(1, "--echo requires a test set (--t) and a language pair (-l)")
        assert data is not None  # read above for the test set
        data.echo(args.test_set, args.langpair, args.echo, args.origlang, args.subset)
        raise Stop(0)
    if args.origlang is not None or args.subset is not None:
        data = data or _datasets(console)
    return data


def _read(args: Any, data: Any, paired: bool, console: Console
          ) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """References, systems and system names."""
    groups = [args.refs] if args.test_set is None else \
        data.reference_files(args.test_set, args.langpair)
    refs = _inputs.read_references(groups, args.num_refs, args.encoding,
                                   max(len(groups[0]), args.num_refs))
    args.num_refs = len(refs)
    if args.input is None:
        systems = _inputs.read_stdin_systems(args.encoding)
        names = [f"System {i + 1}" for i in range(len(systems))]
    else:
        systems, names = _inputs.read_system_files(args.input, args.encoding, paired,
                                                   console.info)
    if paired:
        names = ["Baseline", *(f"System {i + 1}" for i in range(len(systems) - 1))] \
            if args.input is None else [f"Baseline: {names[0]}", *names[1:]]
    return refs, systems, names


def _check_systems(args: Any, systems: list[list[str]], refs: list[list[str]],
                   paired: bool, data: Any) -> tuple[list[list[str]], list[list[str]]]:
    """sacreBLEU's checks of the systems (after ``-ol``/``--subset`` filtering)."""
    if args.sentence_level:
        if len(systems) > 1:
            raise Stop(1, "Only one system can be evaluated in sentence-level mode.")
        if args.confidence or paired:
            raise Stop(1, "Statistical tests are unavailable in sentence-level mode.")
    if paired and len(systems) == 1:
        raise Stop(1, "Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise Stop(1, "Use paired tests (--paired) for multiple systems.")
    if data is not None and (args.origlang is not None or args.subset is not None):
        kept = data.subset([*systems, *refs], args.test_set, args.langpair, args.origlang,
                           args.subset)
        systems, refs = kept[:len(systems)], kept[len(systems):]
    for system in systems:
        if len(system) == 0:
            message = f"Test set {args.test_set!r} contains no sentence"
            if args.origlang is not None or args.subset is not None:
                message += " with"
                if args.origlang:
                    message += f" origlang={args.origlang}"
                if args.subset:
                    message += f" subset={args.subset}" + args.subset
            raise Stop(1, message)
        if any(len(stream) != len(system) for stream in refs):
            lines = ["System and reference streams have different lengths."]
            if args.test_set:
                where = data.utils.SACREBLEU_DIR
                lines += ["This could be an issue with your system output or with sacreBLEU's "
                          "reference database if -t is given.",
                          "For the latter, try cleaning out the cache by typing:\n",
                          f"  rm -r {where}/{args.test_set}\n",
                          "The test sets will be re-downloaded the next time you run "
                          "sacreBLEU."]
            raise Stop(1, *lines)
    return systems, refs


def _metrics(args: Any, refs: list[list[str]]) -> dict[str, Any]:
    """The metric objects of ``-m`` (in its order, each once), holding the references for
    corpus scores (a sentence score takes each segment's references with the segment)."""
    metrics: dict[str, Any] = {}
    held = None if args.sentence_level else refs
    for name in args.metrics:
        if name == "bleu":
            trg_lang = args.langpair.split("-")[1] if args.langpair else ""
            metrics["BLEU"] = BLEU(
                smooth_method=args.bleu_smooth_method, smooth_value=args.bleu_smooth_value,
                tokenize=args.bleu_tokenize, lowercase=args.bleu_lowercase,
                force=args.bleu_force, effective_order=bool(args.sentence_level),
                trg_lang=trg_lang, references=held)
        elif name == "chrf":
            metrics["CHRF"] = CHRF(
                char_order=args.chrf_char_order, word_order=args.chrf_word_order,
                beta=args.chrf_beta, whitespace=args.chrf_whitespace,
                lowercase=args.chrf_lowercase, eps_smoothing=args.chrf_eps_smoothing,
                references=held)
        else:
            metrics["TER"] = TER(
                case_sensitive=args.ter_case_sensitive, asian_support=args.ter_asian_support,
                no_punct=args.ter_no_punct, normalized=args.ter_normalized, references=held)
    return metrics


def run(args: Any, console: Console) -> int:
    """The command after its arguments were parsed; returns the exit status."""
    set_warning_sink(console.warning)
    paired = args.paired_bs or args.paired_ar
    if args.download:
        _datasets(console).download(args.download, args.langpair)
        return 0
    if args.list:
        sys.stdout.write(_datasets(console).listing(args.test_set, args.langpair))
        return 0
    data = _check_arguments(args, paired, console)
    if args.langpair:
        args.langpair.split("-")[1]  # sacreBLEU's target language: `-l en` fails here
    if args.test_set is not None and args.bleu_tokenize == "none":
        console.warning("You are turning off BLEU's internal tokenizer presumably to supply "
                        "your own tokenized files.")
        console.warning("Published numbers will not be comparable to other papers.")
    refs, systems, names = _read(args, data, paired, console)
    full_system, full_refs = systems[0] if systems else [], refs
    systems, refs = _check_systems(args, systems, refs, paired, data)
    metrics = _metrics(args, refs)
    write = sys.stdout.write
    if args.sentence_level:
        metric = next(iter(metrics.values()))
        for hypothesis, *references in zip(systems[0], *refs):
            score = metric.sentence_score(hypothesis, references)
            # a signature per line, as sacreBLEU's: the references counted may change
            shown = metric.get_signature().format(args.short)
            write(score.format(args.width, args.score_only, shown) + "\n")
        return 0
    if args.detail and args.format == "json":
        args.format = "text"
    if len(systems) == 1:
        results = []
        n_bootstrap = args.confidence_n if args.confidence else 1
        if n_bootstrap > 1:
            environment_seed()  # sacreBLEU's errors for a seed it cannot use
        for name in sorted(metrics):
            score = metrics[name].corpus_score(systems[0], None, n_bootstrap=n_bootstrap)
            signature = metrics[name].get_signature().format(
                args.short if args.format != "json" else False)
            results.append(score.format(args.width, args.score_only, signature,
                                        args.format == "json"))
        write(_report.single_results(results, args.format, console))
        if args.detail:
            data = data or _datasets(console)
            data.breakdown(metrics, full_system, full_refs, args, write)
        return 0
    console.info(f"Found {len(systems)} systems.")
    if paired:
        test_type = "bs" if args.paired_bs else "ar"
        signatures, columns = paired_test(
            list(zip(names, systems)), metrics, test_type,
            args.paired_bs_n if args.paired_bs else args.paired_ar_n, args.paired_jobs)
        shown = {name: sig.format(args.short) for name, sig in signatures.items()}
    else:
        columns, shown = {"System": names}, {}
        for system in systems:
            for name in sorted(metrics):
                score = metrics[name].corpus_score(system, None)
                shown[score.name] = metrics[name].get_signature().format(args.short)
                columns.setdefault(score.name, []).append(score.format(args.width, True))
    write(_report.table_results(columns, shown, args, console))
    return 0
