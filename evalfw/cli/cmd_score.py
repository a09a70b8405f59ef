"""``evalfw score``: score system files against references (sacreBLEU-compatible front door)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from evalfw.cli._options import add_json, add_plugins_dir, warn, write_json
from evalfw.limits import LIMITS

if TYPE_CHECKING:
    import numpy as np

HELP = "score hypothesis files against reference files (like the sacrebleu command)"
EPILOG = """examples:
  evalfw score ref.A.txt ref.B.txt -i sys1.txt sys2.txt
  evalfw score -r ref.txt -i hyp.txt -m bleu chrf ter
  evalfw score -r ref.txt -i hyp.txt -m chrf --chrf-word-order 2        # chrF++
  cat hyp.txt | evalfw score -r ref.txt -l en-zh                        # BLEU tokenizer zh
  evalfw score -t wmt22 -l en-de -i hyp.txt                             # sacreBLEU's cache
  evalfw score -t wmt22 -l en-de --echo src
  evalfw score -r ref.txt -i hyp.txt --preset nltk --format json
  evalfw score -r ref.txt -i hyp.txt --smooth add-k --smooth-value 2 --max-order 3
  evalfw score -r ref.txt -i hyp.txt --sentence-level
  evalfw score -r ref.txt -i hyp.txt -m bleu my-metric --plugins-dir plugins/local

With the sacrebleu preset (the default) the text lines are byte-identical to sacreBLEU's on the
same lines. evalfw score scores each line as it is in the file: sacreBLEU's command line strips
trailing whitespace from every line first, which changes chrF with --chrf-whitespace (and
nothing else) on lines that end in spaces; evalfw-sacrebleu strips as sacreBLEU does. Each
metric's flags (BLEU's --tokenize, --smooth, ...; chrF's --chrf-*) apply to that metric and
come from the metric itself, so a plugin metric brings its own.

Scripts written for the sacrebleu command: run them with evalfw-sacrebleu, sacreBLEU 2.6.0's
command line (every argument, its defaults and its output, byte for byte).
"""


def configure(p: argparse.ArgumentParser) -> None:
    p.list_components = ("metric", "preset", "tokenizer", "smoothing")  # type: ignore[attr-defined]
    p.add_argument("-m", "--metrics", nargs="+", default=["bleu"], metavar="NAME",
                   help="metrics to compute (default: bleu; names listed below)")
    from evalfw.cli import _score_inputs

    _score_inputs.add_arguments(p)  # REF ..., -r, -t, -l, --echo
    p.add_argument("-i", "--input", nargs="+", metavar="HYP",
                   help="hypothesis files (default: read one system from standard input)")
    p.add_argument("-sl", "--sentence-level", action="store_true",
                   help="score every segment (forces effective order for the sacrebleu preset)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("-w", "--width", type=LIMITS["width"].argtype(), default=None,
                   help="decimals in text output (default 1 for 0-100 scores, 4 for 0-1)")
    p.add_argument("-b", "--score-only", action="store_true", help="print only the score")
    add_plugins_dir(p)
    add_json(p)
    p.add_argument("--source", metavar="SRC", default=None,
                   help="source segments, for metrics that read them (model-based metrics)")
    p.add_argument("--scores", nargs="+", metavar="FILE", default=None,
                   help="precomputed per-segment scores of each -i system, in -i order, for "
                        "-m segment-scores (one number per line, or .tsv/.jsonl with "
                        "--scores-column)")
    p.add_argument("--scores-column", metavar="NAME", default=None,
                   help="the TSV column or JSONL key of --scores files")
    from evalfw.cli._score_significance import add_arguments

    add_arguments(p)  # --confidence, --paired-bs, --paired-ar, --seed (sacreBLEU's flags)


def configure_plugins(p: argparse.ArgumentParser, host: Any) -> None:
    """Each registered metric's own flags (``Metric.cli_flags``)."""
    from evalfw.cli._metric_flags import add_metric_flags

    add_metric_flags(p, host)


def build_metrics(args: argparse.Namespace, host: Any) -> list[Any]:
    """The ``-m`` metrics, each once, with the options their flags give."""
    from evalfw.cli import _score_inputs as inputs
    from evalfw.cli._metric_flags import metric_options, warn_unused
    from evalfw.errors import ConfigError, PluginError

    registry = host.registry("metric")
    names = list(dict.fromkeys(args.metrics))
    out = []
    for name in names:
        registry.get(name)  # an unknown name fails before its flags are read
        opts = metric_options(args, host, name)
        chosen = None
        if name == "bleu":  # sacreBLEU's command-line habits for BLEU
            if args.sentence_level and (opts.get("preset") or "sacrebleu") == "sacrebleu":
                opts["effective_order"] = True
            if "tokenizer" in opts:
                warning = inputs.tokenizer_warning(args, str(opts["tokenizer"]))
                if warning:
                    warn(str(warning))
            else:
                chosen = inputs.default_tokenizer(args)
                if chosen is not None:
                    opts["tokenizer"] = chosen
        try:
            out.append(host.metric(name, opts))
        except PluginError as exc:
            if chosen is None:
                raise
            raise PluginError(f"-l {args.language_pair} chooses BLEU's tokenizer {chosen} as "
                              f"sacreBLEU does, and {exc}; or pick another with --tokenize"
                              ) from None
    warn_unused(args, host, names)
    if len(out) > 1 and args.sentence_level:
        raise ConfigError("--sentence-level scores one metric at a time; give one -m metric")
    return out


def execute(args: argparse.Namespace) -> int:
    from evalfw.cli import _score_inputs as inputs
    from evalfw.cli._options import host_for
    from evalfw.io.text import check_same_length, read_segments

    if args.echo:
        return inputs.echo(args)
    host = host_for(args)
    metrics = build_metrics(args, host)
    _check_scores_given(args, metrics)
    references = inputs.reference_paths(args)
    # names exactly as given on the command line, as sacreBLEU prints them
    if [*references, *(args.input or [])].count("-") > 1:
        from evalfw.errors import ConfigError

        raise ConfigError("- (standard input) is given more than once; one file at most can "
                          "come from standard input")

    def read(path: str, tokenized: bool = False) -> Any:
        if path == "-":
            return _read_stdin(tokenized)
        return read_segments(path, shown=path, check_tokenized=tokenized)

    refs = [read(r) for r in references]
    if args.input:
        dupes = sorted({h for h in args.input if args.input.count(h) > 1})
        if dupes:
            from evalfw.errors import ConfigError

            raise ConfigError(f"-i/--input: system file {dupes[0]} is given twice; "
                              "give each system once")
        systems = [read(h, tokenized=True) for h in args.input]
    else:
        systems = [_read_stdin(True)]
    check_same_length([*refs, *systems])
    from evalfw.metrics.segment_limit import check_segment_lengths

    check_segment_lengths([*refs, *systems], metrics)
    for f in [*refs, *systems]:
        for warning in f.warnings:
            warn(str(warning))
    nrefs = len(refs)
    contexts = _contexts(args, systems, len(refs[0].lines))
    per_metric = []  # per metric: each system's statistics rows
    for metric in metrics:
        prepared = metric.prepare_references([r.lines for r in refs])
        per_metric.append([_located(s.path, metric.statistics_of, s.lines, prepared, c)
                           for s, c in zip(systems, contexts)])
    for metric, rows in zip(metrics, per_metric):  # one scale over every system
        metric.settle_scale(metric.resolve_scale(rows))
    from evalfw.names import shown

    # names as given on the command line, as printed: escaped where a terminal would not
    # show them as themselves (a file name holding an escape sequence)
    named = [(shown(s.path), [rows[k] for rows in per_metric]) for k, s in enumerate(systems)]
    from evalfw.cli import _score_significance as significance

    if significance.requested(args):
        return significance.run(args, metrics, named, nrefs)
    if args.format == "text" and len(systems) > 1 and not args.sentence_level \
            and not args.score_only:
        sys.stdout.write(significance.systems_table(args, metrics, named, nrefs))
        return 0
    # metrics in sacreBLEU's order (by upper-case name), one object per system and metric
    order = sorted(range(len(metrics)), key=lambda k: metrics[k].name.upper())
    out: list[dict[str, Any]] = []
    for system, stats in named:
        lines: list[str] = []
        for k in order:
            if args.sentence_level:
                results = _located(system, metrics[k].sentence_results, stats[k], nrefs)
                for i, res in enumerate(results):
                    lines.append(_emit(res, args, system, out, segment=i))
            else:
                lines.append(_emit(_located(system, metrics[k].result, stats[k], nrefs), args,
                                   system, out))
        if args.format == "text":
            prefix = f"{system}: " if len(systems) > 1 else ""
            lines = lines if args.sentence_level else significance.align(lines)
            sys.stdout.write("".join(f"{prefix}{line}\n" for line in lines))
    if args.format == "json":
        write_json(out)
    return 0


def _located(system: str, function: Any, *args: Any) -> Any:
    """``function(*args)`` for ``system``; a plugin's error names the system."""
    from evalfw.metrics.boundary import BoundaryError, place

    try:
        return function(*args)
    except BoundaryError as exc:
        raise exc.located(place(None, system)) from exc.__cause__


def _check_scores_given(args: argparse.Namespace, metrics: list[Any]) -> None:
    """``--scores`` exactly when a metric reads them (``-m segment-scores``)."""
    from evalfw.errors import ConfigError
    from evalfw.metrics.segment_scores import SegmentScores

    reads = any(isinstance(m, SegmentScores) for m in metrics)
    if reads and args.scores is None:
        raise ConfigError(f"-m {SegmentScores.name} reads precomputed scores: give one score "
                          "file per -i system with --scores FILE..., e.g. "
                          f"-m {SegmentScores.name} -i sys.txt --scores sys.comet.txt")
    if not reads and args.scores is not None:
        raise ConfigError(f"--scores is read by -m {SegmentScores.name} only, and no metric "
                          f"given reads it; add -m {SegmentScores.name} or leave --scores out")
    if args.scores is None and args.scores_column is not None:
        raise ConfigError("--scores-column names a column of --scores files, and none are "
                          "given; add --scores FILE... or leave --scores-column out")


def _contexts(args: argparse.Namespace, systems: list[Any], segments: int) -> list[Any]:
    """What metrics that want context get: the source and each system's ``--scores``."""
    from evalfw.errors import ConfigError
    from evalfw.io.scores import read_scores
    from evalfw.io.text import read_segments
    from evalfw.metrics.base import SegmentContext

    source = read_segments(args.source, shown=args.source).lines if args.source else None
    if source is not None and len(source) != segments:
        raise ConfigError(f"--source {args.source} has {len(source)} lines but the references "
                          f"have {segments}")
    scores: list[dict[str, np.ndarray]] = [{} for _ in systems]
    if args.scores is not None:
        if len(args.scores) != len(systems):
            raise ConfigError(f"--scores: {len(args.scores)} file(s) for {len(systems)} "
                              "system(s); give one score file per -i system, in the same order")
        for k, path in enumerate(args.scores):
            scores[k]["scores"] = read_scores(path, args.scores_column, segments=segments,
                                              shown=path).scores
    return [SegmentContext(test_set="", system=s.path, source=source, scores=sc)
            for s, sc in zip(systems, scores)]


def _read_stdin(tokenized: bool) -> Any:
    from evalfw.errors import InputError
    from evalfw.io.text import stream_segments

    if sys.stdin is None or sys.stdin.closed:
        raise InputError("no -i/--input files given and standard input is closed; pass "
                         "hypothesis files with -i or pipe them in")
    if sys.stdin.isatty():
        raise InputError("no -i/--input files given and standard input is a terminal; "
                         "pass hypothesis files with -i or pipe them in")
    return stream_segments(sys.stdin.buffer, "<stdin>", check_tokenized=tokenized)


def _emit(res: Any, args: argparse.Namespace, name: str, out: list[dict[str, Any]],
          segment: int | None = None) -> str:
    """The text line of one result; its JSON object goes to ``out`` ("name" is the system,
    as in the paired tests' output)."""
    from evalfw.cli._score_inputs import recorded
    from evalfw.cli._score_significance import signature, width

    obj = {**res.to_json(), "name": name, "metric": res.name, **recorded(args)}
    if segment is not None:
        obj["segment"] = segment + 1
    out.append(obj)
    line: str = res.format(width=width(args, res), signature=signature(res), score_only=args.score_only)
    return line


__all__ = ["build_metrics", "configure", "configure_plugins", "EPILOG", "execute", "HELP"]
