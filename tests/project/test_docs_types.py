"""Type checkers see evalfw's API: mypy passes on the Python examples of the documentation
(README.md and the pages of docs/: scripts, plugin files, the drop-in imports) and the example
plugins in plugins/, each checked as a user's code with evalfw installed."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.doc_blocks import blocks

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
EXAMPLE_PLUGINS = [
    REPO / "plugins" / "local" / "textbook.py",
    REPO / "plugins" / "evalfw-smooth-floorplus" / "src" / "evalfw_smooth_floorplus" / "__init__.py",
    REPO / "plugins" / "evalfw-embed-sim" / "src" / "evalfw_embed_sim" / "__init__.py",
]


def doc_examples() -> dict[str, str]:
    """Module name -> code: every Python block of the documentation as a module of its own
    (a plugin file under its own name), named after its page and line."""
    files: dict[str, str] = {}
    for page in PAGES:
        for block in blocks(page):
            if block.lang != "python":
                continue
            stem = re.sub(r"\W", "_", f"{page.stem}_{block.line}").lower()
            if block.marker == "file":
                stem = f"plugin_{Path(block.arg or stem).stem}_{block.line}"
            files[f"{stem}.py"] = block.code
    return files


def test_the_docs_have_api_and_plugin_examples() -> None:
    found = doc_examples()
    assert sum(n.startswith("plugin_") for n in found) >= 5
    assert sum("from evalfw.compat." in code for code in found.values()) >= 2
    assert any("evalfw.run(" in code for code in found.values())


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_mypy_passes_on_the_examples(tmp_path: Path) -> None:
    for name, code in doc_examples().items():
        (tmp_path / name).write_text(code, "utf-8")
    (tmp_path / "user_script.py").write_text(USER_SCRIPT, "utf-8")
    for i, path in enumerate(EXAMPLE_PLUGINS):
        (tmp_path / f"example_plugin_{i}.py").write_text(path.read_text("utf-8"), "utf-8")
    # run outside the repository, as a user's project: evalfw comes from the installation
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--python-version",
         f"{sys.version_info[0]}.{sys.version_info[1]}", *sorted(p.name for p in
                                                                 tmp_path.glob("*.py"))],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr

USER_SCRIPT = '''\
import evalfw
from evalfw.compat import nltk, sacrebleu
from evalfw.compat.sacrebleu.metrics import BLEU, METRICS, TER

score: float = evalfw.corpus_bleu(["a b"], [["a b"]]).score
bleu: float = sacrebleu.corpus_bleu(["a b"], [["a b"]]).score
ter: float = TER().corpus_score(["a b"], [["a b"]]).score
signature: str = str(BLEU(tokenize="13a").get_signature())
classes = list(METRICS.values())
value = nltk.corpus_bleu([[["a", "b"]]], [["a", "b"]])
metric: evalfw.Metric = evalfw.metric("bleu", preset="nltk")
'''
