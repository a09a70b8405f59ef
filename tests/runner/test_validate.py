"""``evalfw validate`` checks what ``run`` checks before scoring (with the run's own code) and
says what it did not check."""

from __future__ import annotations

import json

import pytest

from evalfw.cli.main import main
from evalfw.runner.validate import validate
from tests.support.runs import REPO, mini, workdir  # noqa: F401  (fixture)
from tests.support.shared_data import need_wmt22

SIGNIFICANCE = "significance: {baseline: A, samples: 100}"


def errors(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("evalfw: error: ") and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.wmt22
def test_a_misspelt_baseline_on_wmt22_fails_validate_as_run_fails(workdir, capsys):
    data = need_wmt22()
    args = ["configs/wmt-significance.yaml", "--set", f"data_root={data}",
            "--set", "significance.baseline=OnlineA"]
    assert main(["validate", *args]) == 2
    said = errors(capsys)
    assert "system 'OnlineA' is not in test set 'en-de'" in said
    assert "did you mean 'Online-A'" in said
    assert main(["run", *args, "--quiet"]) == 2
    assert errors(capsys) == said  # one check, one message
    assert not (workdir / "runs").exists()


@pytest.mark.wmt22
def test_validate_counts_the_lines_of_every_wmt22_file(workdir, capsys):
    data = need_wmt22()
    assert main(["validate", "configs/wmt-significance.yaml", "--set", f"data_root={data}",
                 "--set", "significance.baseline=Online-A"]) == 0
    out = capsys.readouterr().out
    systems = len(list((data / "en-de" / "sys").glob("*.txt")))
    assert out.startswith("ok: ")
    assert (f"checked: test set 'en-de': 2037 lines in each file (source, 2 references, "
            f"{systems} systems)") in out
    assert "baseline 'Online-A' is a system of every test set" in out
    assert "not checked: no segment is scored" in out


def test_system_files_of_different_lengths_are_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"r1\nr2\nr3\n", b"a1\na2\na3\n", b"b1\nb2\n")
    assert main(["validate", "mini.yaml"]) == 2
    said = errors(capsys)
    assert "b.txt has 2 lines but ref.txt has 3" in said and "test set 't'" in said


def test_a_source_of_another_length_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"r1\nr2\n", b"a1\na2\n", b"b1\nb2\n")
    (tmp_path / "src.txt").write_bytes(b"s1\n")
    text = (tmp_path / "mini.yaml").read_text("utf-8").replace(
        "references:", "source: src.txt\n    references:")
    (tmp_path / "mini.yaml").write_text(text, "utf-8")
    assert main(["validate", "mini.yaml"]) == 2
    assert "src.txt has 1 lines but ref.txt has 2" in errors(capsys)


def test_an_unknown_analysed_metric_gets_a_did_you_mean(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"r\n", b"a\n", b"b\n",
         "significance: {baseline: A, metrics: [bleux]}")
    assert main(["validate", "mini.yaml"]) == 2
    said = errors(capsys)
    assert "'bleux' is not a metric with a corpus level" in said and "'bleu'" in said


def test_validate_says_what_it_checked_and_what_not(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"r1\nr2\n", b"a1\na2\n", b"b1 .\nb2\n", SIGNIFICANCE)
    found = validate("mini.yaml")
    assert found.segments == {"t": 2}
    assert any("baseline 'A' is a system of every test set" in c for c in found.checked)
    assert any("2 lines in each file (1 reference, 2 systems)" in c for c in found.checked)
    assert any("no segment is scored" in n for n in found.not_checked)
    assert any("writable" in n for n in found.not_checked)
    assert main(["validate", "mini.yaml", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["segments"] == {"t": 2}
    assert data["checked"] == list(found.checked)
    assert data["not_checked"] == list(found.not_checked)
    assert not (tmp_path / "runs").exists()  # nothing written


def test_the_repository_config_validates(capsys):
    assert main(["validate", str(REPO / "configs" / "wmt.yaml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ok: wmt (1 test set, 5 metrics)"
    assert any(line.startswith("  not checked: ") for line in out)


def test_validate_warns_when_the_resamples_cannot_reach_alpha(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    mini(tmp_path, b"r1\nr2\n", b"a1\na2\n", b"b1\nb2\n",
         "significance: {baseline: A, samples: 10}")
    assert main(["validate", "mini.yaml"]) == 0
    err = capsys.readouterr().err
    assert "evalfw: warning: significance is out of reach" in err and "resamples" in err
    assert validate("mini.yaml").resolution_warning in err
