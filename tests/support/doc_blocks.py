"""The code blocks of the documentation (docs/*.md and README.md) and what the tests do with
them.

Every fenced block names its language. A ``bash`` block holds commands, one a line (``\\``
continues a line, ``#`` starts a comment); a ``python`` block is a script. Two comment lines
just above a block say more about it:

- ``<!-- file: PATH -->``: the block is a file the page asks the reader to save at PATH (a
  plugin); the tests write it there before the page's commands run;
- ``<!-- not run: REASON -->``: the block cannot run in a test (it reaches another machine,
  installs packages, starts a server); the reason is shown to the reader in the source only.

``pip install`` commands are never run by these tests (installing is what ``.ci/run`` and the
fresh-virtualenv test do); what they name is checked instead: each path exists and each extra
is declared.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tests.support.shared_data import REPO

FENCE = re.compile(
    r"^(?:(?P<indent0> *)<!-- (?P<marker>file|not run): (?P<arg>.+?) -->\n)?"
    r"(?P<indent> *)```(?P<lang>[^\s`]*)[^\n]*\n(?P<code>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S)


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, text, the marker above it, and where."""

    page: str
    line: int
    lang: str
    code: str
    marker: str | None = None
    arg: str | None = None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order, indentation (of list items) removed."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = len(m.group("indent"))
        code = "".join(line[indent:] if line[:indent].strip() == "" else line
                       for line in m.group("code").splitlines(keepends=True))
        line = text.count("\n", 0, m.start("indent")) + 1
        found.append(Block(path.name, line, m.group("lang"), code, m.group("marker"),
                           m.group("arg")))
    return found


def commands(block: Block) -> list[str]:
    """The command lines of a bash block: continuations joined, comment lines left out."""
    lines: list[str] = []
    pending = ""
    for raw in block.code.splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def split_install(command: str) -> tuple[list[str], str]:
    """(the ``pip install`` parts of a command line, what is left to run): ``pip install -e .
    && evalfw run configs/wmt.yaml`` gives (["pip install -e ."], "evalfw run configs/wmt.yaml")."""
    parts = [part.strip() for part in command.split("&&")]
    installs = [part for part in parts if part.startswith("pip install")]
    rest = " && ".join(part for part in parts if not part.startswith("pip install"))
    return installs, rest


def _extras(project: Path) -> set[str]:
    data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data.get("project", {}).get("optional-dependencies", {}))


def install_problems(command: str) -> list[str]:
    """What a ``pip install`` command names that does not exist: a path of this repository
    that is missing, an extra that its project does not declare."""
    problems = []
    for word in shlex.split(command.split("#")[0])[2:]:
        if word.startswith("-"):
            continue
        name, _, extras = word.partition("[")
        wanted = {e.strip() for e in extras.rstrip("]").split(",") if e.strip()}
        if name == "evalfw":
            project = REPO
        elif name == "." or name.startswith(("./", "plugins/")):
            project = REPO / name
            if not (project / "pyproject.toml").is_file():
                problems.append(f"{word}: {project} is no project of this repository")
                continue
        else:
            continue  # a package from the index (torch==2.13.0, dask-jobqueue, ...)
        missing = wanted - _extras(project)
        if missing:
            problems.append(f"{word}: no extra {', '.join(sorted(missing))} in "
                            f"{project / 'pyproject.toml'}")
    return problems


__all__ = ["Block", "blocks", "commands", "install_problems", "split_install"]
