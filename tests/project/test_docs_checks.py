"""The example check of docs/checks.md is complete and works as the page says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalfw.runner.run import run_experiment

REPO = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- file: (?P<path>[^ ]+) -->\n```python\n(?P<code>.*?)```", re.S)


def test_the_example_check_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = BLOCK.findall((REPO / "docs" / "checks.md").read_text("utf-8"))
    assert [path for path, _ in found] == ["my_plugins/shouting.py"]
    (tmp_path / "my_plugins").mkdir()
    (tmp_path / found[0][0]).write_text(found[0][1], "utf-8")
    monkeypatch.chdir(tmp_path)
    src = ["The weather is nice today in the city.", "WARNING: DO NOT ENTER.", "Good morning."]
    hyp = ["DAS WETTER IST HEUTE SCHÖN IN DER STADT.", "WARNUNG: NICHT BETRETEN.", "Guten Morgen."]
    for name, lines in (("src", src), ("ref", hyp), ("hyp", hyp)):
        (tmp_path / f"{name}.txt").write_text("".join(f"{x}\n" for x in lines), "utf-8")
    (tmp_path / "c.yaml").write_text("""\
schema_version: 1
experiment: doc
output_dir: runs
plugin_dirs: [my_plugins]
checks: [empty, copy-source, shouting]
test_sets:
  - {name: t, langs: en-de, source: src.txt, references: [ref.txt], systems: {s: hyp.txt}}
metrics:
  - name: bleu
""", "utf-8")
    out = run_experiment("c.yaml")
    flags = out.record["checks"]["test_sets"][0]["systems"][0]["flags"]
    assert flags == {"empty": [], "copy-source": [], "shouting": [1]}
    assert "s: 1 in capitals (33.3 %)" in (out.path / "report-table.txt").read_text("utf-8")
