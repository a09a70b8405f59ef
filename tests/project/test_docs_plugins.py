"""The metric and smoothing plugin examples of docs/plugins.md are complete and work as the page
says: each code block marked ``<!-- file: PATH -->`` is written to that path and used through
the command line and a config."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from evalfw.cli.main import main

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"
BLOCK = re.compile(r"<!-- file: (?P<path>[^ ]+) -->\n```python\n(?P<code>.*?)```", re.S)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    found = BLOCK.findall((REPO / "docs" / "plugins.md").read_text("utf-8"))
    assert {"my_plugins/char_bigram_f.py", "my_plugins/add_one.py"} <= {path for path, _ in found}
    for path, code in found:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(code, "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def bigram_f(hyps: list[str], refs: list[str], lowercase: bool = False) -> float:
    def grams(text: str) -> Counter[str]:
        text = "".join(text.split())
        text = text.lower() if lowercase else text
        return Counter(text[i:i + 2] for i in range(len(text) - 1))

    m = h = r = 0
    for hyp, ref in zip(hyps, refs):
        a, b = grams(hyp), grams(ref)
        m, h, r = m + sum((a & b).values()), h + sum(a.values()), r + sum(b.values())
    return 100.0 * 2 * m / (h + r)


def lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text("utf-8").split("\n")[:-1]


def test_metric_example(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, base, sys_ = (str(SAMPLE / p) for p in ("ref.A.txt", "sys/Medium.txt",
                                                 "sys/Strong.txt"))
    assert main(["score", "-r", ref, "-i", sys_, "-m", "bleu", "char-bigram-f",
                 "--plugins-dir", "my_plugins"]) == 0
    out = capsys.readouterr().out.splitlines()
    want = bigram_f(lines("sys/Strong.txt"), lines("ref.A.txt"))
    assert len(out) == 2 and out[1].endswith(
        f"char-bigram-f|nrefs:1|case:mixed|char-bigram-f:1 = {want:.1f}")
    assert main(["score", "-r", ref, "-i", base, sys_, "-m", "bleu", "char-bigram-f",
                 "--plugins-dir", "my_plugins"]) == 0
    table = capsys.readouterr().out
    assert f"│ {sys_} │" in table and f"{want:.1f}" in table  # sacreBLEU's table of systems
    assert main(["score", "-r", ref, "-i", base, sys_, "-m", "char-bigram-f", "--plugins-dir",
                 "my_plugins", "--paired-bs", "--paired-bs-n", "50"]) == 0
    assert "char-bigram-f (μ ± 95% CI)" in capsys.readouterr().out
    (project / "c.yaml").write_text(f"""\
schema_version: 1
experiment: readme
output_dir: runs
plugin_dirs: [my_plugins]
test_sets:
  - name: en-de
    langs: en-de
    references: [{ref}]
    systems: {{base: {base}, sys: {sys_}}}
metrics:
  - {{name: bigrams, metric: char-bigram-f, lowercase: true, level: [corpus, sentence]}}
significance: {{baseline: base, buckets: ref-length}}
""", "utf-8")
    assert main(["run", "c.yaml", "--quiet"]) == 0
    table = capsys.readouterr().out
    want_lc = bigram_f(lines("sys/Strong.txt"), lines("ref.A.txt"), lowercase=True)
    assert f"{want_lc:.2f}" in table and "nrefs:1|case:lc|char-bigram-f:1" in table
    assert main(["verify", "readme", "--runs-dir", "runs", "--data-root", str(SAMPLE),
                 "--plugins-dir", "my_plugins"]) == 0


def test_smoothing_example(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Weak.txt")
    assert main(["score", "-r", ref, "-i", hyp, "--smooth", "add-one", "--plugins-dir",
                 "my_plugins", "-f", "json"]) == 0
    out = capsys.readouterr().out
    assert "smooth:add-one@1[k=1]" in out
    assert main(["score", "-r", ref, "-i", hyp, "--smooth", "add-k", "-f", "json"]) == 0
    assert main(["score", "-r", ref, "-i", hyp, "--smooth", "add-one", "--plugins-dir",
                 "my_plugins", "-b"]) == 0
    assert 0 < float(capsys.readouterr().out.split()[-1]) < 100
    assert main(["score", "-r", ref, "-i", hyp, "--smooth", "add-one", "--smooth-value", "0",
                 "--plugins-dir", "my_plugins"]) == 2
    assert "option k: 0.0 is less than or equal to the minimum of 0" in capsys.readouterr().err
