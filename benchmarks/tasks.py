"""One benchmark measurement: ``python benchmarks/tasks.py TASK IMPL [SYNTH_DIR]``.

Run by ``benchmarks/run.py``, each in a fresh process, so its CPU time includes the interpreter
start, imports and reading the files, as a user's script would. Prints one JSON line: how many
numbers were computed and the sha256 of their ``repr`` (equal digests = identical floats).
Imports happen inside the task functions on purpose: a task pays only for what it uses.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

#: ../shared beside the repository, or $EVALFW_SHARED_DIR (as the tests find it)
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
WMT = SHARED / "data" / "wmt22"
#: the tokenizer each pair is scored with (sacreBLEU's defaults, char for Japanese)
TOKENIZE = {"de-en": "13a", "en-de": "13a", "en-zh": "zh", "en-ja": "char"}
SLICE = 100_000


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def wmt(only: str = ""):
    """(pair, tokenizer, reference streams, [system lines...]) for every pair (or ``only``)."""
    if not WMT.is_dir():
        raise SystemExit(f"no WMT22 data at {WMT} (set EVALFW_SHARED_DIR to the shared folder)")
    for pair, tok in TOKENIZE.items():
        if only and pair != only:
            continue
        d = WMT / pair
        refs = [lines(p) for p in sorted(d.glob("ref.*.txt"))]
        yield pair, tok, refs, [lines(p) for p in sorted((d / "sys").glob("*.txt"))]


# --------------------------------------------------------------------------- corpus BLEU

def corpus(impl: str) -> list[float]:
    """sacreBLEU at its fastest: one BLEU object per pair holding the references."""
    if impl == "sacrebleu":
        from sacrebleu.metrics import BLEU
    else:  # the drop-in promise: the same code, another import
        from evalfw.compat.sacrebleu import BLEU  # type: ignore[assignment]
    out = []
    for _, tok, refs, systems in wmt():
        bleu = BLEU(tokenize=tok, references=refs)
        out += [bleu.corpus_score(hyp, None).score for hyp in systems]
    return out


def corpus_native(impl: str) -> list[float]:
    spec_of, engine = _evalfw()
    out = []
    for _, tok, refs, systems in wmt():
        spec = spec_of(tokenizer=tok)
        index = engine.index_references(spec, refs)
        out += [engine.corpus_score(spec, engine.segment_stats(spec, h, index)).score
                for h in systems]
    return out


def _evalfw():
    from evalfw.api import default_host
    from evalfw.metrics.bleu import engine
    from evalfw.metrics.bleu.spec import resolve_spec

    host = default_host()
    return (lambda **o: resolve_spec(host, o)), engine


# --------------------------------------------------------------------------- sentence BLEU

def sentence(impl: str) -> list[float]:
    out: list[float] = []
    if impl == "sacrebleu":
        from sacrebleu.metrics import BLEU

        for _, tok, refs, systems in wmt():
            bleu = BLEU(tokenize=tok, effective_order=True)
            for hyp in systems:
                out += [bleu.sentence_score(h, list(r)).score for h, r in zip(hyp, zip(*refs))]
        return out
    spec_of, engine = _evalfw()
    for _, tok, refs, systems in wmt():
        spec = spec_of(tokenizer=tok, effective_order=True)
        index = engine.index_references(spec, refs)
        for hyp in systems:  # the array API: one float per segment, no result objects
            out += engine.sentence_score_values(spec, engine.segment_stats(
                spec, hyp, index)).tolist()
    return out


def sentence_calls(impl: str, pair: str = "") -> list[float]:
    """The per-call drop-in loop of reward and filtering code: one ``BLEU.sentence_score``
    call per segment (every system, all references; of one pair, or of all four), through
    sacreBLEU or the same code with evalfw's import."""
    if impl == "sacrebleu":
        from sacrebleu.metrics import BLEU
    else:
        from evalfw.compat.sacrebleu import BLEU  # type: ignore[assignment]
    out: list[float] = []
    for _, tok, refs, systems in wmt(pair):
        bleu = BLEU(tokenize=tok, effective_order=True)
        for hyp in systems:
            out += [bleu.sentence_score(h, list(r)).score for h, r in zip(hyp, zip(*refs))]
    return out


def chrf_calls(impl: str, pair: str = "") -> list[float]:
    """The same per-call loop with ``CHRF().sentence_score``."""
    if impl == "sacrebleu":
        from sacrebleu.metrics import CHRF
    else:
        from evalfw.compat.sacrebleu import CHRF  # type: ignore[assignment]
    out: list[float] = []
    chrf = CHRF()
    for _, _, refs, systems in wmt(pair):
        for hyp in systems:
            out += [chrf.sentence_score(h, list(r)).score for h, r in zip(hyp, zip(*refs))]
    return out


# --------------------------------------------------------------------------- chrF

CHRF_VARIANTS = ({}, {"word_order": 2})  # chrF, chrF++


def chrf_corpus(impl: str) -> list[float]:
    """chrF and chrF++ of every system, all references; sacreBLEU at its fastest (one
    ``CHRF(references=...)`` per pair and variant) and the same code with evalfw's import."""
    if impl == "sacrebleu":
        from sacrebleu.metrics import CHRF
    else:
        from evalfw.compat._chrf import CHRF  # type: ignore[assignment]
    out = []
    for _, _, refs, systems in wmt():
        for options in CHRF_VARIANTS:
            chrf = CHRF(references=refs, **options)
            out += [chrf.corpus_score(hyp, None).score for hyp in systems]
    return out


def chrf_sentence(impl: str) -> list[float]:
    """chrF sentence score of every segment of every system (all references)."""
    out: list[float] = []
    if impl == "sacrebleu":
        from sacrebleu.metrics import CHRF

        chrf = CHRF()
        for _, _, refs, systems in wmt():
            for hyp in systems:
                out += [chrf.sentence_score(h, list(r)).score for h, r in zip(hyp, zip(*refs))]
        return out
    from evalfw.metrics.chrf.metric import Chrf

    metric = Chrf()
    for _, _, refs, systems in wmt():
        prepared = metric.prepare_references(refs)
        for hyp in systems:  # the array API: one float per segment, no result objects
            out += metric.sentence_scores(metric.segment_statistics(hyp, prepared)).tolist()
    return out


# --------------------------------------------------------------------------- TER

def ter_corpus(impl: str) -> list[float]:
    """TER of every system, all references, default options: score, edits and reference
    length of each; sacreBLEU at its fastest (one ``TER(references=...)`` per pair) and the
    same code with evalfw's import."""
    if impl == "sacrebleu":
        from sacrebleu.metrics import TER
    else:
        from evalfw.compat.sacrebleu import TER  # type: ignore[assignment]
    out: list[float] = []
    for _, _, refs, systems in wmt():
        ter = TER(references=refs)
        for hyp in systems:
            score = ter.corpus_score(hyp, None)
            out += [score.score, score.num_edits, score.ref_length]
    return out


# --------------------------------------------------------------------------- NLTK

def nltk(impl: str) -> list[float]:
    out = []
    if impl == "nltk":
        from nltk.translate.bleu_score import corpus_bleu
    elif impl == "evalfw-compat":
        from evalfw.compat.nltk import corpus_bleu  # type: ignore[no-redef]
    else:
        spec_of, engine = _evalfw()
        for _, _, refs, systems in wmt():
            spec = spec_of(preset="nltk")
            index = engine.index_references(spec, refs)
            out += [engine.corpus_score(spec, engine.segment_stats(spec, h, index)).score
                    for h in systems]
        return out
    for _, _, refs, systems in wmt():
        ref_tokens = [[r.split() for r in seg] for seg in zip(*refs)]
        out += [corpus_bleu(ref_tokens, [h.split() for h in hyp]) for hyp in systems]
    return out


# --------------------------------------------------------------------------- 1M synthetic

def synthetic(impl: str, data: str) -> list[float]:
    """sacreBLEU scores the first 100k segments; evalfw streams all of them and also reports
    its score of the same 100k slice (for the identity check)."""
    ref, hyp = Path(data) / "ref.txt", Path(data) / "hyp.txt"
    if impl == "sacrebleu":
        from itertools import islice

        from sacrebleu.metrics import BLEU

        with open(ref, encoding="utf-8") as fr, open(hyp, encoding="utf-8") as fh:
            refs = [s.rstrip("\n") for s in islice(fr, SLICE)]
            hyps = [s.rstrip("\n") for s in islice(fh, SLICE)]
        return [BLEU().corpus_score(hyps, [refs]).score]
    from evalfw.metrics.bleu import engine, stream

    spec_of, _ = _evalfw()
    spec = spec_of()
    stats = stream.stream_files(spec, hyp, [ref])
    return [engine.corpus_score(spec, stats.select(slice(0, SLICE))).score,
            engine.corpus_score(spec, stats).score]


def cached(impl: str, data: str, cache_dir: str) -> list[float]:
    """Streamed 1M-segment corpus BLEU through the statistics cache (cold, then warm)."""
    from evalfw.metrics.bleu import stream
    from evalfw.metrics.bleu.metric import Bleu
    from evalfw.runner import cache

    spec_of, _ = _evalfw()
    metric = Bleu(spec_of())
    ref, hyp = Path(data) / "ref.txt", Path(data) / "hyp.txt"
    key = cache.stats_key(metric, cache.file_digest(hyp), [cache.file_digest(ref)])
    stats = cache.StatsCache(cache_dir).get_or_compute(
        key, metric, lambda: metric.rows(stream.stream_files(metric.spec, hyp, [ref])))
    return [metric.score(stats)]


# --------------------------------------------------------------------------- spBLEU

def spbleu_corpus(impl: str) -> list[float]:
    """Corpus spBLEU (tokenizer flores200) of the 13 en-zh systems against reference A, with
    the model in ``$SACREBLEU/models`` (``benchmarks/spm_model.py``): sacreBLEU at its
    fastest, the same code with evalfw's import, or evalfw's engine."""
    _, _, refs, systems = next(wmt("en-zh"))
    refs = refs[:1]
    if impl == "engine":
        spec_of, engine = _evalfw()
        spec = spec_of(tokenizer="flores200")
        index = engine.index_references(spec, refs)
        return [engine.corpus_score(spec, engine.segment_stats(spec, h, index)).score
                for h in systems]
    if impl == "sacrebleu":
        from sacrebleu.metrics import BLEU
    else:
        from evalfw.compat.sacrebleu import BLEU  # type: ignore[assignment]
    bleu = BLEU(tokenize="flores200", references=refs)
    return [bleu.corpus_score(hyp, None).score for hyp in systems]


def spbleu_floor(impl: str) -> list[int]:
    """What any process computing :func:`spbleu_corpus` pays before it reads or counts
    anything of BLEU's: importing sentencepiece, loading the model from ``$SACREBLEU/models``
    and encoding each distinct line (13 systems and reference A) once, in one thread. Returns
    the number of pieces of each line."""
    import sentencepiece

    _, _, refs, systems = next(wmt("en-zh"))
    distinct = sorted({line.rstrip() for text in (refs[0], *systems) for line in text})
    model = sentencepiece.SentencePieceProcessor()
    home = Path(os.environ["SACREBLEU"]) / "models" / "flores200sacrebleuspm"
    model.LoadFromSerializedProto(home.read_bytes())
    return [len(pieces) for pieces in model.encode(distinct, out_type=str, num_threads=1)]


TASKS = {
    "corpus": corpus, "corpus-native": corpus_native, "sentence": sentence,
    "sentence-calls": sentence_calls, "chrf-calls": chrf_calls, "nltk": nltk,
    "chrf-corpus": chrf_corpus, "chrf-sentence": chrf_sentence, "ter-corpus": ter_corpus,
    "synthetic": synthetic, "cached": cached, "spbleu-corpus": spbleu_corpus,
    "spbleu-floor": spbleu_floor,
}


def main(argv: list[str]) -> int:
    task, impl, *rest = argv
    values = TASKS[task](impl, *rest)
    text = repr(values)
    print(json.dumps({"n": len(values), "sha256": hashlib.sha256(text.encode()).hexdigest(),
                      "head": values[:3]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
