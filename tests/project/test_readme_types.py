"""Type checkers see evalfw's API: mypy passes on the README's Python examples, its plugin
examples, and the example plugins in plugins/ (as a user's code, evalfw installed)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"(<!-- file: [^ ]+ -->\n)?```python\n(.*?)```", re.S)
#: names the README's API examples take as given
PRELUDE = """\
import evalfw

hyps: list[str] = ["the cat sat"]
refs: list[str] = ["the cat sat"]
refs_a: list[str] = refs
refs_b: list[str] = refs
"""
EXAMPLE_PLUGINS = [
    REPO / "plugins" / "local" / "textbook.py",
    REPO / "plugins" / "evalfw-smooth-floorplus" / "src" / "evalfw_smooth_floorplus" / "__init__.py",
    REPO / "plugins" / "evalfw-embed-sim" / "src" / "evalfw_embed_sim" / "__init__.py",
]


def readme_examples() -> dict[str, str]:
    """File name -> code: the API examples as one module (each drop-in import line, an
    alternative to the others, in a module of its own), each plugin example as a module."""
    api: list[str] = []
    files: dict[str, str] = {}
    for marker, code in FENCE.findall((REPO / "README.md").read_text("utf-8")):
        if marker:
            files[f"plugin_{len(files)}.py"] = code
            continue
        for line in code.splitlines():
            if line.startswith("from evalfw.compat"):
                files[f"dropin_{len(files)}.py"] = line.split("#")[0] + "\n"
            else:
                api.append(line)
    files["api_examples.py"] = PRELUDE + "\n".join(api) + "\n"
    return files


def test_the_readme_has_api_and_plugin_examples() -> None:
    names = list(readme_examples())
    assert sum(n.startswith("plugin_") for n in names) >= 2
    assert sum(n.startswith("dropin_") for n in names) >= 3


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_mypy_passes_on_the_examples(tmp_path: Path) -> None:
    for name, code in readme_examples().items():
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
