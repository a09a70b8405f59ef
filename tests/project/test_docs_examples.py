"""Every command and Python example of the documentation site and of README.md runs as written.

Each page of docs/ (and README.md, after its two set-up commands, which
``test_readme_commands.py`` runs) runs in a folder laid out as the repository is (``configs/``,
``plugins/local``, the WMT22 data at ``../shared``), with a few aligned text files under the
names the pages use (``ref.txt``, ``hyp.txt``, ``base.txt``, ...): its ``file:`` blocks are
written, then its ``bash`` commands and ``python`` blocks run in the page's order, and each must
exit with status 0. ``tests/support/doc_blocks.py`` says how a page marks a block that cannot
run offline. A page whose examples need more than this (a SentencePiece model where sacreBLEU
keeps it) has a test of its own, named in ``OWN_TESTS``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.doc_blocks import Block, blocks, commands, install_problems, split_install
from tests.support.shared_data import REPO, SHARED, need_wmt22

DOCS = REPO / "docs"
#: page name -> file: the site's pages and the README
PAGES = {p.name: p for p in [REPO / "README.md", *sorted(DOCS.glob("*.md"))]}
#: pages whose examples another test runs (it must name the page)
OWN_TESTS = {
    "tokenizers.md": "tests/project/test_spbleu_docs.py",
    "significance.md": "tests/project/test_docs_significance.py",
    "meta-evaluation.md": "tests/project/test_meta_docs.py",
}
#: the files the pages' commands read, from the sample data (configs/sample/en-de)
TEXTS = {"ref.txt": "ref.A.txt", "ref.A.txt": "ref.A.txt", "ref.B.txt": "ref.B.txt",
         "hyp.txt": "sys/Strong.txt", "base.txt": "sys/Medium.txt", "sys.txt": "sys/Strong.txt",
         "sys1.txt": "sys/Strong.txt", "sys2.txt": "sys/Weak.txt", "src.txt": "src.txt"}
LANGUAGES = {"bash", "python", "yaml", "text", "toml", "json", "console"}


def all_blocks() -> list[Block]:
    return [b for path in PAGES.values() for b in blocks(path)]


def test_every_block_says_what_it_is():
    found = all_blocks()
    assert len(found) > 50
    unnamed = [b.where for b in found if b.lang not in LANGUAGES]
    assert not unnamed, f"blocks without a known language (one of {sorted(LANGUAGES)}): {unnamed}"
    unexplained = [b.where for b in found if b.marker == "not run" and len(b.arg or "") < 10]
    assert not unexplained, f"'not run' blocks must say why: {unexplained}"
    misplaced = [b.where for b in found if b.marker == "file" and b.lang != "python"]
    assert not misplaced, f"file: markers stand above python blocks: {misplaced}"


def test_every_install_line_names_what_exists():
    installs = [(b.where, part) for b in all_blocks() if b.lang == "bash"
                for line in commands(b) for part in split_install(line)[0]]
    assert len(installs) >= 5
    problems = [f"{where}: {problem}" for where, line in installs
                for problem in install_problems(line)]
    assert not problems, "\n".join(problems)


def test_pages_with_their_own_test_are_run_there():
    for page, test in OWN_TESTS.items():
        assert page in (REPO / test).read_text(encoding="utf-8"), f"{test} does not run {page}"


def _project(base: Path) -> Path:
    """A folder laid out as the repository, beside ``shared`` (the WMT22 data)."""
    data = need_wmt22()
    (base / "shared").symlink_to(SHARED if SHARED.is_dir() else data.parents[1])
    folder = base / "project"
    shutil.copytree(REPO / "configs", folder / "configs")
    shutil.copytree(REPO / "plugins" / "local", folder / "plugins" / "local")
    sample = REPO / "configs" / "sample" / "en-de"
    for name, source in TEXTS.items():
        shutil.copyfile(sample / source, folder / name)
    return folder


def _run(block: Block, argv: list[str], folder: Path, env: dict[str, str], what: str) -> None:
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, (f"{block.where}: {what} exited {done.returncode}\n"
                                  f"{done.stdout[-1500:]}\n{done.stderr[-3000:]}")


@pytest.mark.slow
@pytest.mark.wmt22
@pytest.mark.parametrize("page", [p for p in PAGES if p not in OWN_TESTS])
def test_page_examples_run(page, tmp_path):
    folder = _project(tmp_path)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "EVALFW_CACHE_DIR": str(tmp_path / "cache"), "EVALFW_NO_DOWNLOAD": "1",
           "HF_HUB_OFFLINE": "1", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"}
    found = blocks(PAGES[page])
    if page == "README.md":  # its first block installs and runs the whole suite
        found = found[1:]
    for block in found:
        if block.marker == "file":
            (folder / block.arg).parent.mkdir(parents=True, exist_ok=True)
            (folder / block.arg).write_text(block.code, encoding="utf-8")
    for block in found:
        if block.marker == "not run":
            continue
        if block.lang == "python":
            if block.marker != "file":
                _run(block, [sys.executable, "-c", block.code], folder, env, "the Python block")
        elif block.lang == "bash":
            for line in commands(block):
                _, rest = split_install(line)
                if rest:
                    _run(block, ["bash", "-c", rest], folder, env, f"`{rest}`")
