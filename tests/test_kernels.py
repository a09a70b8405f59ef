"""The compiled kernels: one list (setup.py builds exactly it), the switches, and how a
missing kernel is reported (``evalfw plugins``, a note on stderr from computing commands)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from evalfw import kernels
from evalfw.cli.main import main

SETUP = Path(__file__).resolve().parents[1] / "setup.py"


def _setup_extensions() -> list[str]:
    tree = ast.parse(SETUP.read_text("utf-8"))
    return [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Extension"]


def test_setup_builds_exactly_the_listed_kernels() -> None:
    assert sorted(_setup_extensions()) == sorted(k.module for k in kernels.KERNELS)


@pytest.mark.skipif(kernels.hidden(), reason="EVALFW_NO_KERNELS=1 hides the kernels")
def test_every_kernel_is_built_in_the_development_install() -> None:
    assert kernels.missing() == []
    assert all(kernels.status(k) == "compiled" for k in kernels.KERNELS)


def test_no_kernels_switch_hides_every_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_NO_KERNELS", "1")
    monkeypatch.setenv("EVALFW_NATIVE", "1")
    assert all(kernels.load(k.module) is None for k in kernels.KERNELS)
    assert all("EVALFW_NO_KERNELS=1" in kernels.status(k) for k in kernels.KERNELS)
    assert kernels.missing() == []  # asked for: nothing to warn about


def _not_built(monkeypatch: pytest.MonkeyPatch, kernel: kernels.Kernel) -> None:
    monkeypatch.delenv("EVALFW_NO_KERNELS", raising=False)
    monkeypatch.setitem(kernels._IMPORTED, kernel.module, None)


def test_a_kernel_not_built_is_listed_as_fallback(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    ter = next(k for k in kernels.KERNELS if k.module.endswith("._ter"))
    _not_built(monkeypatch, ter)
    assert main(["--no-plugin-autoload", "plugins"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if ter.module in x)
    assert "fallback: Python (not built" in line
    for other in kernels.KERNELS:
        if other is not ter and kernels.built(other.module) is not None:
            assert f"compiled  [{other.module}]" in out


def test_computing_commands_note_a_missing_kernel(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    chrf = next(k for k in kernels.KERNELS if k.module.endswith("._chrf"))
    _not_built(monkeypatch, chrf)
    (tmp_path / "ref.txt").write_text("a b c\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("a b c\n", "utf-8")
    args = ["--no-plugin-autoload", "score", "-r", str(tmp_path / "ref.txt"),
            "-i", str(tmp_path / "hyp.txt"), "-m", "chrf"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "evalfw: note: compiled kernels not built (chrF statistics)" in err
    monkeypatch.setenv("EVALFW_NATIVE", "0")  # the fallback chosen on purpose: quiet
    assert main(args) == 0
    assert "note" not in capsys.readouterr().err
