"""All published WMT22 BLEU scores for the four pairs in ../shared are reproduced exactly."""

from __future__ import annotations

import csv

import pytest

import evalfw
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.spec import resolve_spec
from tests.support.pythons import same_as_recorded
from tests.support.shared_data import need_wmt22, read_lines

pytestmark = pytest.mark.wmt22

TOKENIZER = {"de-en": "13a", "en-de": "13a", "en-zh": "zh", "en-ja": "char"}


def published():
    root = need_wmt22()
    rows = []
    with open(root / "automatic-scores.tsv", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t")
        for row in reader:
            # the TSV also scores systems whose outputs are not in ../shared (not primary)
            if (row["pair"] in TOKENIZER and row["metric"].startswith("bleu-")
                    and (root / row["pair"] / "sys" / f"{row['system']}.txt").is_file()):
                rows.append(row)
    return rows


def test_all_106_published_scores(session_host):
    root = need_wmt22()
    rows = published()
    # en-ja has one reference, so its bleu-all rows repeat bleu-A: 106 distinct published values
    distinct = [r for r in rows if not (r["pair"] == "en-ja" and r["metric"] == "bleu-all")]
    assert len(distinct) == 106
    checked = 0
    by_pair: dict[str, list[dict]] = {}
    for row in rows:
        by_pair.setdefault(row["pair"], []).append(row)
    for pair, pair_rows in by_pair.items():
        spec = resolve_spec(session_host, preset="sacrebleu", tokenizer=TOKENIZER[pair])
        refs = {p.name.split(".")[1]: read_lines(p) for p in sorted((root / pair).glob("ref.*.txt"))}
        indexes = {
            "bleu-A": engine.index_references(spec, [refs["A"]]),
            "bleu-all": engine.index_references(spec, list(refs.values())),
        }
        if "B" in refs:
            indexes["bleu-B"] = engine.index_references(spec, [refs["B"]])
        for row in pair_rows:
            hyps = read_lines(root / pair / "sys" / f"{row['system']}.txt")
            stats = engine.segment_stats(spec, hyps, indexes[row["metric"]])
            score = engine.corpus_score(spec, stats).score
            # published where sum() adds left to right (see tests.support.pythons)
            assert same_as_recorded(score, float(row["score"])), \
                (pair, row["system"], row["metric"], score)
            checked += 1
    assert checked == len(rows) == 119


def test_public_api_matches_on_one_system():
    root = need_wmt22()
    hyps = read_lines(root / "de-en" / "sys" / "Online-A.txt")
    refs = [read_lines(root / "de-en" / "ref.A.txt")]
    assert evalfw.corpus_bleu(hyps, refs).score == 33.2853977110808
