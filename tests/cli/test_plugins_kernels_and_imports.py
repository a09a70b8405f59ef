"""``evalfw plugins`` reports a plugin whose declared imports fail (a broken model stack) as
an error with the import error."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from evalfw.cli.main import main

PLUGIN = '''
import evalfw
import numpy as np


class Needy(evalfw.Metric):
    name = "needy"
    imports = ("json", {module!r})

    def segment_statistics(self, hypotheses, references):
        return np.zeros((len(hypotheses), 1), dtype=np.int64)

    def score(self, statistics):
        return 0.0


@evalfw.hookimpl
def evalfw_register_metrics():
    return [Needy]
'''


def _plugins(tmp_path: Path, module: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    (tmp_path / "needy.py").write_text(textwrap.dedent(PLUGIN.format(module=module)), "utf-8")
    assert main(["--no-plugin-autoload", "plugins", "--plugins-dir", str(tmp_path),
                 "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_plugin_whose_imports_fail_is_an_error_with_the_import_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (row,) = _plugins(tmp_path, "evalfw_no_such_module", capsys)
    assert row["status"] == "error"
    assert row["error"] == ("metric 'needy' cannot import evalfw_no_such_module: "
                            "ModuleNotFoundError: No module named 'evalfw_no_such_module'")
    assert row["components"] == {"metric": ["needy"]}


def test_a_plugin_whose_imports_work_is_ok(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (row,) = _plugins(tmp_path, "csv", capsys)
    assert row["status"] == "ok" and "error" not in row

