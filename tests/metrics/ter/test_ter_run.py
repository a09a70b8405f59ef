"""The ``ter`` metric in an experiment run: corpus and sentence scores equal sacreBLEU's, the
record keeps edits, reference lengths and sacreBLEU's signature, lower scores count as better
in significance tests, and verify recomputes the same numbers."""

from __future__ import annotations

import pytest
import sacrebleu

from evalfw.errors import AntiConservativeWarning
from evalfw.records.load import load_segments
from evalfw.runner.verify import verify
from tests.support.runs import REPO, run, workdir, write_config  # noqa: F401  (fixture)

pytestmark = pytest.mark.parity

SAMPLE = REPO / "configs" / "sample" / "en-de"
CONFIG = """\
schema_version: 1
experiment: ter
seed: 12345
output_dir: runs
test_sets:
  - name: en-de
    langs: en-de
    references: [configs/sample/en-de/ref.A.txt, configs/sample/en-de/ref.B.txt]
    systems: {"*": "configs/sample/en-de/sys/*.txt"}
metrics:
  - name: ter
    metric: ter
    level: [corpus, sentence]
  - name: ter-norm
    metric: ter
    normalized: true
    no_punct: true
significance:
  mode: sacrebleu
  baseline: Medium
reports: [table]
"""


def _lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").split("\n")[:-1]


def test_run_equals_sacrebleu_and_lower_is_better(workdir):
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):  # CONFIG's sacreBLEU-mode tests
        outcome = run(str(write_config(workdir / "ter.yaml", CONFIG)))
    record = outcome.record
    refs = [_lines("ref.A.txt"), _lines("ref.B.txt")]
    rows = {(r["system"], r["metric"], r["level"]): r for r in record["results"]}
    for system in ("Medium", "Strong", "Weak"):
        hyps = _lines(f"sys/{system}.txt")
        for metric, options in (("ter", {}), ("ter-norm", {"normalized": True,
                                                          "no_punct": True})):
            want = sacrebleu.metrics.TER(**options).corpus_score(hyps, refs)
            got = rows[system, metric, "corpus"]
            assert (got["score"], got["num_edits"], got["ref_length"]) == \
                (want.score, want.num_edits, want.ref_length)
        sentence = rows[system, "ter", "sentence"]
        scores = load_segments(outcome.path, record)[sentence["sentence_scores"]]
        ter = sacrebleu.metrics.TER()
        assert scores.tolist() == [ter.sentence_score(h, [a, b]).score
                                   for h, a, b in zip(hyps, *refs)]
    spec = next(s for s in record["specs"] if s["metric"] == "ter-norm")
    assert spec["sacrebleu_signature"] == \
        "nrefs:2|case:lc|tok:tercom|norm:yes|punct:no|asian:no|version:2.6.0"
    table = next(t for t in record["significance"]["tables"] if t["metric"] == "ter")
    deltas = {c["system"]: c["delta"] for c in table["comparisons"]}
    assert deltas["Strong"] < 0 < deltas["Weak"]  # Strong has fewer edits
    text = (outcome.path / "report-table.txt").read_text(encoding="utf-8")
    strong = next(line for line in text.splitlines() if line.startswith("Strong"))
    assert "†" in strong  # marked significantly better, with the lower score
    assert verify(f"runs/ter/{record['version']}").ok
