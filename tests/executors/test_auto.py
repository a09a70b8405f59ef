"""The ``auto`` executor (the default): serial for small work or one core, one process per
core for large work; the choice is in the record and on stderr, ``--executor serial`` and
``--jobs`` still decide; the numbers never depend on it. BLAS runs on one thread while evalfw
computes and gets its count back afterwards, without environment variables."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.executors import auto as auto_module
from evalfw.executors.auto import Auto
from evalfw.runner.run import run_experiment
from tests.support.runs import REPO

CONFIG = REPO / "configs" / "wmt-significance.yaml"


def _record(tmp_path: Path) -> dict:
    found = sorted(tmp_path.glob("runs/*/*/record.json"))
    return json.loads(found[-1].read_text("utf-8"))


def test_small_work_stays_serial_and_says_so(tmp_path, capsys) -> None:
    status = main(["run", str(CONFIG), "--set", f"output_dir={tmp_path / 'runs'}", "--no-cache",
                   "--format", "json"])
    err = capsys.readouterr().err  # not a terminal: the config stage's line says it
    assert status == 0 and "config: " in err and "; executor auto: serial" in err, err
    executor = _record(tmp_path)["executor"]
    assert executor["name"] == "auto" and executor["chose"] == "serial"
    assert executor["cores"] >= 1 and 0 <= executor["estimated_serial_s"] < 1


def test_large_work_on_several_cores_takes_a_pool_of_one_process_per_core(monkeypatch) -> None:
    monkeypatch.setattr(auto_module, "usable_cores", lambda: 3)
    executor = Auto()
    said = executor.plan(120.0)
    assert "3 worker processes" in said and "--executor serial" in said
    assert executor.parallelism == 3
    assert executor.record_entry() == {"name": "auto", "chose": "processes", "cores": 3,
                                   "workers": 3, "estimated_serial_s": 120.0}
    assert Auto(workers=2).plan(120.0).startswith("executor auto: 2 worker processes")


def test_one_core_or_little_work_is_serial(monkeypatch) -> None:
    monkeypatch.setattr(auto_module, "usable_cores", lambda: 1)
    one = Auto()
    assert "serial" in one.plan(1000.0) and one.parallelism == 1
    monkeypatch.setattr(auto_module, "usable_cores", lambda: 8)
    little = Auto()
    assert "serial" in little.plan(0.5) and little.record_entry()["chose"] == "serial"


def test_a_pool_chosen_by_auto_gives_the_serial_numbers(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    serial = run_experiment(CONFIG, store=False, cache=False, jobs=1)
    executor = Auto(min_seconds=0, workers=2)
    monkeypatch.setattr(executor, "cores", 2)
    pooled = run_experiment(CONFIG, store=False, cache=False, executor=executor)
    assert pooled.record["executor"]["chose"] == "processes"
    assert pooled.record["results"] == serial.record["results"]
    assert pooled.record["significance"] == serial.record["significance"]


@pytest.mark.parametrize("argv, name", [(["--executor", "serial"], "serial"),
                                        (["--jobs", "1"], "serial"),
                                        (["--jobs", "2"], "processes")])
def test_the_options_still_decide(tmp_path, capsys, argv, name) -> None:
    status = main(["run", str(CONFIG), "--set", f"output_dir={tmp_path / 'runs'}", "--quiet",
                   "--format", "json", *argv])
    assert status == 0
    assert _record(tmp_path)["executor"]["name"] == name
    assert "executor auto" not in capsys.readouterr().err


def test_blas_is_limited_while_computing_and_given_back(monkeypatch) -> None:
    from evalfw.executors import blas

    libs = blas._openblas()
    if not libs:
        pytest.skip("no OpenBLAS loaded in this process (numpy built with another BLAS)")
    before = [get() for get, _ in libs]
    environ = dict(os.environ)
    with blas.one_blas_thread():
        assert [get() for get, _ in libs] == [1] * len(libs)
    assert [get() for get, _ in libs] == before
    assert dict(os.environ) == environ


def test_on_a_terminal_the_choice_is_a_line_above_the_bar(tmp_path, monkeypatch) -> None:
    import io

    from evalfw.runner.progress import BarProgress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.chdir(tmp_path)
    stream = Tty()
    bar = BarProgress(stream)
    run_experiment(CONFIG, store=False, cache=False, progress=bar)
    bar.close()
    assert "evalfw: executor auto: serial (about" in stream.getvalue()


def test_every_executor_describes_itself_as_a_component(host) -> None:
    # describe() is Component's signature text; the record's entry is record_entry()
    for name in host.registry("executor").names():
        executor = host.component("executor", name, {})
        assert isinstance(executor.describe(), str) and executor.describe().startswith(name)
        assert repr(executor) == f"<executor {executor.describe()}>"
        assert executor.record_entry()["name"] == name
        executor.close()
