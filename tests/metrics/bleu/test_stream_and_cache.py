"""Chunked streaming equals whole-corpus scoring exactly; the statistics cache round-trips
and its key changes with everything the statistics depend on."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from evalfw.errors import InputError
from evalfw.io.text import decode, split_lines
from evalfw.metrics.bleu import engine, stream
from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.families.brevity import Closest, Shortest
from evalfw.metrics.bleu.families.sacrebleu import Exp, SacreMean
from evalfw.metrics.bleu.metric import Bleu
from evalfw.metrics.bleu.presets import SacreBleuPreset
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import SegmentStats
from evalfw.runner import cache
from evalfw.tokenizers.base import Tokenizer


class Split(Tokenizer):
    name = "test-split"
    options_schema = {"type": "object", "properties": {"lower": {"type": "boolean",
                                                                 "default": False}},
                      "additionalProperties": False}

    def tokenize(self, lines):
        return [s.split() for s in lines]


def spec(**over) -> BleuSpec:
    base = dict(preset=SacreBleuPreset(), tokenizer=Split(), counter=Clipped(),
                brevity_penalty=Closest(), smoothing=Exp(), mean=SacreMean(), max_order=4,
                lowercase=False, weights=None)
    return BleuSpec(**{**base, **over})


def corpus(seed: int, n: int, k: int):
    rng = random.Random(seed)
    words = "a b c d e f the cat sat on mat".split()

    def sent():
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 15)))

    refs = [[sent() if rng.random() > 0.1 or j == 0 else None for _ in range(n)]
            for j in range(k)]
    hyps = [(refs[0][i] or "") + (" " + sent() if rng.random() < 0.5 else "") for i in range(n)]
    return hyps, refs


def same(a: SegmentStats, b: SegmentStats) -> None:
    for name, arr in a.to_arrays().items():
        assert np.array_equal(arr, b.to_arrays()[name]), name


@pytest.mark.parametrize("seed", range(40))
def test_streaming_equals_whole_corpus(seed: int) -> None:
    rng = random.Random(seed)
    hyps, refs = corpus(seed, rng.randint(1, 120), rng.randint(1, 3))
    sp = spec()
    whole = engine.segment_stats(sp, hyps, engine.index_references(sp, refs))
    chunked = stream.stream_stats(sp, iter(hyps), [iter(r) for r in refs],
                                  rng.choice([1, 2, 7, 50, 10_000]))
    same(whole, chunked)
    assert engine.corpus_score(sp, whole) == engine.corpus_score(sp, chunked)


def test_streaming_rejects_unequal_inputs() -> None:
    with pytest.raises(InputError, match="reference stream 1 ended after 2 segments"):
        stream.stream_stats(spec(), ["a", "b", "c"], [["a", "b"]], 2)
    with pytest.raises(InputError, match="hypotheses ended after 1 segments"):
        stream.stream_stats(spec(), ["a"], [["a", "b"]], 5)
    with pytest.raises(InputError, match="empty"):
        stream.stream_stats(spec(), [], [[]], 5)


def test_read_lines_cuts_like_the_input_policy(tmp_path: Path) -> None:
    for data in [b"a b\nc\n", b"a b\nc", b"\xef\xbb\xbfx\r\ny\r\n", b"a\rb\n\n\nc\n", b"\n"]:
        p = tmp_path / "f.txt"
        p.write_bytes(data)
        assert list(stream.read_lines(p)) == split_lines(decode(data, "f")[0]), data


def test_stream_files_equals_in_memory(tmp_path: Path) -> None:
    hyps, refs = corpus(99, 300, 1)
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    sp = spec()
    ours = stream.stream_corpus_score(sp, tmp_path / "h.txt", [tmp_path / "r.txt"], 64)
    assert ours == engine.corpus_score(sp, engine.segment_stats(
        sp, hyps, engine.index_references(sp, refs)))


def test_cache_round_trip_and_damage(tmp_path: Path) -> None:
    hyps, refs = corpus(5, 50, 2)
    metric = Bleu(spec())
    stats = metric.segment_statistics(hyps, refs)
    store = cache.StatsCache(tmp_path)
    key = cache.stats_key(metric, "h" * 64, ["r" * 64, "s" * 64])
    assert store.load(key, metric) is None
    calls = []
    got = store.get_or_compute(key, metric, lambda: calls.append(1) or stats)
    again = store.get_or_compute(key, metric, lambda: calls.append(1) or stats)
    assert np.array_equal(got, stats) and np.array_equal(again, stats)
    assert calls == [1] and (store.hits, store.misses) == (1, 1)
    store.path(key).write_bytes(b"not a zip")
    assert store.load(key, metric) is None
    assert not list(tmp_path.rglob("*.tmp"))
    assert len(store.problems) == 1 and "unreadable" in store.problems[0]


def test_a_tampered_cache_entry_is_a_miss(tmp_path: Path) -> None:
    """Matches set to totals with the old checksum, or with a recomputed checksum but
    impossible counts: neither is ever used."""
    hyps, refs = corpus(6, 30, 1)
    metric = Bleu(spec())
    stats = metric.segment_statistics(hyps, refs)
    store = cache.StatsCache(tmp_path)
    key = cache.stats_key(metric, "h" * 64, ["r" * 64])
    assert store.store(key, stats)
    forged = stats.copy()
    forged[:, 2:6] = forged[:, 6:10]  # every n-gram matches: a perfect score
    with np.load(store.path(key)) as data:
        old_sum = str(data["sha256"])
    np.savez(store.path(key), statistics=forged, sha256=np.array(old_sum))
    assert store.load(key, metric) is None
    impossible = stats.copy()
    impossible[:, 2] = impossible[:, 6] + 1  # more matches than n-grams
    np.savez(store.path(key), statistics=impossible,
             sha256=np.array(cache.checksum(impossible)))
    assert store.load(key, metric) is None
    assert any("checksum" in p for p in store.problems)
    assert any("more matches than n-grams" in p for p in store.problems)


def test_an_unwritable_cache_does_not_fail(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    store = cache.StatsCache(tmp_path / "file" / "cache")  # a file where a directory must be
    metric = Bleu(spec())
    stats = metric.segment_statistics(*corpus(7, 5, 1))
    assert store.store("ab" * 32, stats) is False
    assert store.get_or_compute("ab" * 32, metric, lambda: stats) is stats
    assert len(store.problems) == 1 and "cannot write" in store.problems[0]


def test_cache_key_covers_every_input() -> None:
    def key(hyp: str = "h", refs: tuple[str, ...] = ("r",), **options) -> str:
        return cache.stats_key(Bleu(spec(**options)), hyp, list(refs))

    base = key()
    variants = [
        key("h2"), key(refs=("r2",)), key(refs=("r", "r")),
        key(tokenizer=Split(lower=True)), key(counter=Clipped(total_floor=1)),
        key(max_order=3), key(lowercase=True), key(brevity_penalty=Shortest()),
    ]
    assert len({base, *variants}) == len(variants) + 1
    # scoring choices after counting share the entry
    assert key(mean=SacreMean(effective_order=True)) == base

    class Split2(Split):
        version = "2"

    assert key(tokenizer=Split2()) != base


def test_default_dir_honours_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path / "c"))
    assert cache.default_dir() == tmp_path / "c"
    monkeypatch.delenv(cache.ENV_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.default_dir() == tmp_path / "evalfw" / "stats"
