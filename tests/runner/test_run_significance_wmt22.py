"""Significance runs on real WMT22 data: sacreBLEU mode equals sacreBLEU 2.6.0 through a whole
config run, and the default mode's bootstrap over 13 systems x 2037 segments x 1000 samples
stays within a few hundred MB."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evalfw.errors import AntiConservativeWarning
from tests.support.runs import REPO, run, write_config
from tests.support.shared_data import WMT22

pytestmark = [pytest.mark.wmt22, pytest.mark.parity]

EN_DE = ["JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G", "Online-W",
         "Online-Y", "OpenNMT", "PROMT"]
BASELINE = "Online-W"  # chosen here, not the first system alphabetically


def need(pair: str) -> Path:
    path = WMT22 / pair
    if not path.is_dir():
        pytest.skip(f"WMT22 data not found at {path} (../shared is absent in a user's clone)")
    return path


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1]


CONFIG = """\
schema_version: 1
experiment: wmt22-sig
seed: 12345
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt", "{{data_root}}/en-de/ref.B.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - name: sacrebleu
reports: [table]
significance:
  baseline: {baseline}
  mode: sacrebleu
  method: both
  samples: 400
  ar_trials: 500
"""


@pytest.mark.slow
def test_sacrebleu_mode_run_equals_sacrebleu_paired_tests(tmp_path, monkeypatch):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    en_de = need("en-de")
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    cfg = write_config(tmp_path / "wmt.yaml", CONFIG.format(root=WMT22, out=tmp_path / "runs",
                                                           baseline=BASELINE))
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):
        record = run(str(cfg)).record
    (table,) = record["significance"]["tables"]
    refs = [lines(en_de / "ref.A.txt"), lines(en_de / "ref.B.txt")]
    named = [(BASELINE, lines(en_de / "sys" / f"{BASELINE}.txt"))]
    named += [(s, lines(en_de / "sys" / f"{s}.txt")) for s in EN_DE if s != BASELINE]
    intervals = {i["system"]: i for i in table["intervals"]}
    for kind, method, n in (("bs", "bootstrap", 400), ("ar", "ar", 500)):
        _, results = PairedTest(named, {"BLEU": BLEU(references=refs)}, None, test_type=kind,
                                n_samples=n)()
        theirs = results["BLEU"]
        ours = [c for c in table["comparisons"] if c["method"] == method]
        assert [c["system"] for c in ours] == [name for name, _ in named[1:]]
        for c, t in zip(ours, theirs[1:], strict=True):
            assert (c["score"], c["p_value"]) == (t.score, t.p_value), c["system"]
            if kind == "bs":
                assert (c["mean"], c["ci"]) == (t.mean, t.ci)
                assert (intervals[c["system"]]["mean"], intervals[c["system"]]["ci"]) == \
                    (t.mean, t.ci)
        if kind == "bs":  # the baseline's interval as --paired-bs prints it
            base = theirs[0]
            assert (intervals[BASELINE]["score"], intervals[BASELINE]["mean"],
                    intervals[BASELINE]["ci"]) == (base.score, base.mean, base.ci)


MEMORY_SCRIPT = textwrap.dedent("""
    import json, resource, sys, tracemalloc
    import numpy as np

    def peak_rss_kb():
        # VmHWM belongs to this process image and starts afresh at exec; ru_maxrss would
        # instead carry over the peak of the (large) pytest process that forked us.
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    sys.path.insert(0, {tests!r})
    from tests.support import significance as sup
    from evalfw.runner._analyse import Plan, Settings, analyse_table
    rng = np.random.default_rng(5)
    metric = sup.metric()
    stats = {{f"sys{{i}}": metric.rows(sup.random_stats(rng, 2037, refs=2, quality=0.3 + 0.03 * i))
              for i in range(13)}}
    host = sup.host()
    plan = Plan(Settings(baseline="sys0", samples=1000), ["bleu"],
                host.component("bucketer", "ref-length", {{}}), 12345)
    before = peak_rss_kb()
    tracemalloc.start()
    # two references: buckets by the first one's length (the runner measures it from its text)
    first = stats["sys0"][:, 1].copy()
    table = analyse_table(plan, metric, stats, "t", "bleu", reference=lambda: first)
    peak = tracemalloc.get_traced_memory()[1]
    after = peak_rss_kb()
    print(json.dumps({{"peak": peak, "rss_kb": after, "rss_growth_kb": after - before,
                      "comparisons": len(table["comparisons"]),
                      "n": table["intervals"][0]["n"]}}))
""")


def test_default_bootstrap_13_systems_2037_segments_1000_samples_memory():
    """Measured in a fresh process: traced allocations and the whole process' peak RSS."""
    script = MEMORY_SCRIPT.format(tests=str(REPO))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=REPO, timeout=300)
    assert out.returncode == 0, out.stderr
    facts = json.loads(out.stdout.strip().splitlines()[-1])
    assert facts["comparisons"] == 12 and facts["n"] == 1000
    # sacreBLEU's method would hold 13 x 1000 x 2037 x 10 float32 values (~1 GB)
    assert facts["peak"] < 150 * 2**20, facts
    assert facts["rss_kb"] < 400 * 1024, facts
