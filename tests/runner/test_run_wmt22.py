"""A run over the real WMT22 data equals sacreBLEU 2.6.0 for every system.

Skipped when ../shared (beside the repository) is absent, as in a user's fresh clone.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing

import pytest
import sacrebleu

import evalfw
from tests.support.runs import workdir, write_config  # noqa: F401  (fixture)
from tests.support.shared_data import need_wmt22, read_lines

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

#: pair -> sacreBLEU tokenizer, as WMT22 scored them
TOKENIZERS = {"de-en": "13a", "en-de": "13a", "en-zh": "zh", "en-ja": "char"}

CONFIG = """\
schema_version: 1
experiment: wmt22
output_dir: runs
data_root: {root}
test_sets:
{test_sets}
metrics:
  - name: bleu
reports: [table]
"""

TEST_SET = """\
  - name: {pair}
    langs: {pair}
    source: "{{data_root}}/{pair}/src.txt"
    references: "{{data_root}}/{pair}/ref.*.txt"
    systems: {{"*": "{{data_root}}/{pair}/sys/*.txt"}}
    tokenizer: {tok}
"""


def oracle(root, pair: str, tok: str) -> dict[str, tuple]:
    """sacreBLEU's (score, counts, totals, sys_len, ref_len) of every system of ``pair``."""
    refs = [read_lines(p) for p in sorted((root / pair).glob("ref.*.txt"))]
    bleu = sacrebleu.BLEU(tokenize=tok, references=refs)
    out = {}
    for p in sorted((root / pair / "sys").glob("*.txt")):
        s = bleu.corpus_score(read_lines(p), None)
        out[p.stem] = (s.score, s.counts, s.totals, s.sys_len, s.ref_len)
    return out


def oracles(root) -> dict[str, dict[str, tuple]]:
    """All pairs, one process each (sacreBLEU takes ~18 s for the 44 systems serially)."""
    with concurrent.futures.ProcessPoolExecutor(
            len(TOKENIZERS), mp_context=multiprocessing.get_context("fork")) as pool:
        jobs = {pair: pool.submit(oracle, root, pair, tok) for pair, tok in TOKENIZERS.items()}
        return {pair: job.result() for pair, job in jobs.items()}


@pytest.mark.slow
def test_all_four_pairs_equal_sacrebleu(tmp_path, monkeypatch):
    root = need_wmt22()
    monkeypatch.chdir(tmp_path)
    sets = "".join(TEST_SET.format(pair=p, tok=t) for p, t in TOKENIZERS.items())
    cfg = write_config(tmp_path / "wmt22.yaml", CONFIG.format(root=root, test_sets=sets))
    record = evalfw.run(str(cfg), jobs=2)
    checked = 0
    for pair, want in oracles(root).items():
        rows = {r["system"]: r for r in record["results"] if r["test_set"] == pair}
        assert sorted(rows) == sorted(want)
        for system, expected in want.items():
            got = rows[system]
            assert (got["score"], got["counts"], got["totals"], got["hyp_len"],
                    got["ref_len"]) == expected, (pair, system)
            assert type(got["score"]) is float
            checked += 1
        tok = TOKENIZERS[pair]
        spec = next(s for s in record["specs"] if s["test_set"] == pair)
        bleu = sacrebleu.BLEU(tokenize=tok)
        bleu.corpus_score(["x"], [["x"]] * (2 if pair != "en-ja" else 1))
        assert spec["sacrebleu_signature"] == bleu.get_signature().format()
    assert checked == 44
    empties = [w for w in record["warnings"] if w["kind"] == "empty_lines"]
    assert [w["file"].endswith("en-ja/sys/Online-W.txt") for w in empties] == [True]


def test_wmt_yaml_scores_real_en_de_with_one_override(workdir):
    root = need_wmt22()
    record = evalfw.run("configs/wmt.yaml", overrides=[f"data_root={root}",
                                                       "metrics=[{name: sacrebleu}]"])
    want = oracle(root, "en-de", "13a")
    got = {r["system"]: r["score"] for r in record["results"]}
    assert got == {s: w[0] for s, w in want.items()}
    assert record["test_sets"][0]["segments"] == 2037
