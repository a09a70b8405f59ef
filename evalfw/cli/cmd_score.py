"""``evalfw score``: score system files against references (sacreBLEU-compatible front door)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from evalfw.cli._options import add_json, add_plugins_dir, write_json

HELP = "score hypothesis files against reference files (like the sacrebleu command)"
EPILOG = """examples:
  evalfw score -r ref.A.txt ref.B.txt -i sys1.txt sys2.txt
  cat hyp.txt | evalfw score -r ref.txt --tokenize zh
  evalfw score -r ref.txt -i hyp.txt --preset nltk --format json
  evalfw score -r ref.txt -i hyp.txt --smooth add-k --smooth-value 2 --max-order 3
  evalfw score -r ref.txt -i hyp.txt --sentence-level
  evalfw score -r ref.txt -i hyp.txt -m bleu my-metric --plugins-dir plugins/local

With the sacrebleu preset (the default) the text line is byte-identical to sacreBLEU's. The
BLEU options (--preset, --tokenize, --smooth, ...) apply to the bleu metric.
"""


def configure(p: argparse.ArgumentParser) -> None:
    p.list_components = ("metric", "preset", "tokenizer", "smoothing")  # type: ignore[attr-defined]
    p.add_argument("-m", "--metrics", nargs="+", default=["bleu"], metavar="NAME",
                   help="metrics to compute (default: bleu; names listed below)")
    p.add_argument("-r", "--references", nargs="+", required=True, metavar="REF",
                   help="reference files, one segment per line (one stream per file)")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP",
                   help="hypothesis files (default: read one system from standard input)")
    p.add_argument("--preset", default=None, help="component bundle (default: sacrebleu)")
    p.add_argument("-tok", "--tokenize", default=None, help="tokenizer (names listed below)")
    p.add_argument("-s", "--smooth", default=None, help="smoothing (names listed below)")
    p.add_argument("-sv", "--smooth-value", type=float, default=None,
                   help="value for smoothing methods that take one (floor, add-k)")
    p.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    p.add_argument("--max-order", type=int, default=None, help="maximum n-gram order (default 4)")
    p.add_argument("--weights", default=None,
                   help="n-gram weights, comma-separated; several tuples separated by ';'")
    p.add_argument("-e", "--effective-order", action="store_true",
                   help="average only over n-gram orders the hypothesis has")
    p.add_argument("-sl", "--sentence-level", action="store_true",
                   help="score every segment (forces effective order for the sacrebleu preset)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("-w", "--width", type=int, default=None,
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


def _weights(text: str | None) -> Any:
    if text is None:
        return None
    from evalfw.errors import ConfigError

    try:
        return [[float(x) for x in part.split(",")] for part in text.split(";") if part.strip()]
    except ValueError as exc:
        raise ConfigError(f"--weights: expected numbers like 0.25,0.25,0.25,0.25 ({exc})") from exc


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for key, value in (("preset", args.preset), ("tokenizer", args.tokenize),
                       ("smoothing", args.smooth), ("smooth_value", args.smooth_value),
                       ("max_order", args.max_order), ("weights", _weights(args.weights))):
        if value is not None:
            opts[key] = value
    if args.lowercase:
        opts["lowercase"] = True
    if args.effective_order:
        opts["effective_order"] = True
    return opts


def build_metrics(args: argparse.Namespace, host: Any) -> list[Any]:
    """The ``-m`` metrics, each once; BLEU takes its options from the BLEU flags."""
    from evalfw.errors import ConfigError

    registry = host.registry("metric")
    out = []
    for name in dict.fromkeys(args.metrics):
        cls = registry.get(name)
        if name == "bleu":
            opts = options_from_args(args)
            if args.sentence_level and (opts.get("preset") or "sacrebleu") == "sacrebleu":
                opts["effective_order"] = True  # as sacreBLEU's CLI does
            out.append(cls.create(opts, host=host))
        else:
            out.append(cls.create({}, host=host))
    if len(out) > 1 and args.sentence_level:
        raise ConfigError("--sentence-level scores one metric at a time; give one -m metric")
    return out


def execute(args: argparse.Namespace) -> int:
    from evalfw.cli._options import host_for
    from evalfw.io.text import check_same_length, read_segments

    host = host_for(args)
    metrics = build_metrics(args, host)
    # names exactly as given on the command line, as sacreBLEU prints them
    if [*args.references, *(args.input or [])].count("-") > 1:
        from evalfw.errors import ConfigError

        raise ConfigError("- (standard input) is given more than once; one file at most can "
                          "come from standard input")

    def read(path: str, tokenized: bool = False) -> Any:
        if path == "-":
            return _read_stdin(tokenized)
        return read_segments(path, shown=path, check_tokenized=tokenized)

    refs = [read(r) for r in args.references]
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
    for f in [*refs, *systems]:
        for warning in f.warnings:
            sys.stderr.write(f"evalfw: warning: {warning}\n")
    nrefs = len(refs)
    contexts = _contexts(args, systems, len(refs[0].lines))
    per_metric = []  # per metric: each system's statistics rows
    for metric in metrics:
        prepared = metric.prepare_references([r.lines for r in refs])
        per_metric.append([metric.statistics_of(s.lines, prepared, c)
                           for s, c in zip(systems, contexts)])
    named = [(s.path, [rows[k] for rows in per_metric]) for k, s in enumerate(systems)]
    from evalfw.cli import _score_significance as significance

    if significance.requested(args):
        return significance.run(args, metrics, named, nrefs)
    # metrics in sacreBLEU's order (by upper-case name), one object per system and metric
    order = sorted(range(len(metrics)), key=lambda k: metrics[k].name.upper())
    out: list[dict[str, Any]] = []
    for system, stats in named:
        lines: list[str] = []
        for k in order:
            if args.sentence_level:
                for i, res in enumerate(metrics[k].sentence_results(stats[k], nrefs)):
                    lines.append(_emit(res, args, system, out, segment=i))
            else:
                lines.append(_emit(metrics[k].result(stats[k], nrefs), args, system, out))
        if args.format == "text":
            prefix = f"{system}: " if len(systems) > 1 else ""
            lines = lines if args.sentence_level else significance.align(lines)
            sys.stdout.write("".join(f"{prefix}{line}\n" for line in lines))
    if args.format == "json":
        write_json(out)
    return 0


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
    scores: list[dict[str, list[float]]] = [{} for _ in systems]
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
    from evalfw.io.text import parse_segments, read_stream

    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("no -i/--input files given and standard input is a terminal; "
                         "pass hypothesis files with -i or pipe them in")
    return parse_segments(read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>",
                          check_tokenized=tokenized)


def _emit(res: Any, args: argparse.Namespace, name: str, out: list[dict[str, Any]],
          segment: int | None = None) -> str:
    """The text line of one result; its JSON object goes to ``out`` ("name" is the system,
    as in the paired tests' output)."""
    from evalfw.cli._score_significance import signature, width

    obj = {**res.to_json(), "name": name, "metric": res.name}
    if segment is not None:
        obj["segment"] = segment + 1
    out.append(obj)
    return res.format(width=width(args, res), signature=signature(res),
                      score_only=args.score_only)


__all__ = ["build_metrics", "configure", "EPILOG", "execute", "HELP", "options_from_args"]
