"""Runs with a SentencePiece tokenizer: the record keeps the model's sha256 (in the metric's
definition and evalfw's signature), ``verify`` re-runs with the same model and refuses another
one before re-running anything, ``show`` and ``compare`` need no model, and the statistics
cache never answers for another model under the same file name."""

from __future__ import annotations

import json
import shutil
import warnings

import pytest

from evalfw.cli.main import main
from evalfw.runner.verify import verify
from tests.support.runs import run, write_config
from tests.support.spm_models import generated_model, generated_text, sacrebleu_home, use_home

pytestmark = pytest.mark.parity
pytest.importorskip("sentencepiece")

CONFIG = """\
schema_version: 1
experiment: sp
output_dir: runs
test_sets:
  - name: t
    langs: en-zh
    references: [ref.txt]
    systems: {{A: a.txt, B: b.txt}}
    tokenizer: {tokenizer}
metrics:
  - name: bleu
  - name: bleu-lc
    metric: bleu
    lowercase: true
reports: [json]
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A config over generated text, a sacreBLEU home with the generated model, a private
    statistics cache; the current directory is the project's."""
    lines = generated_text(seed=11, lines=120)
    for name, shift in (("ref", 0), ("a", 1), ("b", 2)):
        (tmp_path / f"{name}.txt").write_text(
            "".join(" ".join(line.split()[shift:]) + "x\n" for line in lines), "utf-8")
    write_config(tmp_path / "sp.yaml", CONFIG.format(tokenizer="flores200"))
    use_home(monkeypatch, sacrebleu_home(tmp_path / "sacrebleu", generated_model()))
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def sacrebleu_scores(project, lowercase: bool = False) -> dict[str, float]:
    from sacrebleu.metrics import BLEU

    def lines(name: str) -> list[str]:
        return (project / f"{name}.txt").read_text("utf-8").splitlines()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        bleu = BLEU(tokenize="flores200", lowercase=lowercase)
    return {s: bleu.corpus_score(lines(s.lower()), [lines("ref")]).score for s in ("A", "B")}


def swap_model(project, model) -> None:
    shutil.copyfile(model, project / "sacrebleu" / "models" / "flores200sacrebleuspm")


def test_the_record_keeps_the_models_sha256_and_sacrebleus_numbers(project):
    from evalfw.tokenizers._spm_models import from_file

    sha = from_file(str(generated_model()), "t", "").sha256
    record = run("sp.yaml", cache=False).record
    for spec in record["specs"]:
        tokenizer = spec["definition"]["options"]["tokenizer"]
        assert tokenizer == {"name": "flores200", "version": "1", "model": None, "sha256": sha}
        assert f"|tok:flores200@1[sha256={sha}]|" in spec["signature"]
        assert "|tok:flores200|" in spec["sacrebleu_signature"]
    scores = {(r["metric"], r["system"]): r["score"] for r in record["results"]
              if r["level"] == "corpus"}
    for metric, lowercase in (("bleu", False), ("bleu-lc", True)):
        for system, score in sacrebleu_scores(project, lowercase).items():
            assert scores[(metric, system)] == score


def test_verify_reads_the_same_model_and_refuses_another(project, capsys):
    path = run("sp.yaml", cache=False).path
    assert verify(str(path)).ok
    swap_model(project, generated_model(120))
    verdict = verify(str(path))
    assert not verdict.ok and verdict.compared == 0  # refused before re-running anything
    assert len(verdict.problems) == 1
    assert "metric 'bleu' on test set 't' (and 1 more): tokenizer 'flores200' read the " \
        "model" in verdict.problems[0]
    assert "its option sha256 asks for" in verdict.problems[0]
    capsys.readouterr()
    assert main(["verify", "sp"]) == 1
    assert "read the model" in capsys.readouterr().out


def test_show_and_compare_need_no_model(project, capsys):
    first = run("sp.yaml", cache=False).path
    second = run("sp.yaml", cache=False).path
    shutil.rmtree(project / "sacrebleu")
    capsys.readouterr()
    assert main(["show", str(first), "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown
    assert main(["compare", str(first), str(second)]) == 0
    status = verify(str(first))  # the model is an input: missing, the record cannot be verified
    assert not status.ok and not status.problems
    assert "is missing" in status.unverifiable[0], status.unverifiable


def test_the_statistics_cache_tells_models_apart(project):
    first = run("sp.yaml").record
    swap_model(project, generated_model(120))
    second = run("sp.yaml").record
    assert first["specs"][0]["signature"] != second["specs"][0]["signature"]
    for system, score in sacrebleu_scores(project).items():
        assert [r["score"] for r in second["results"]
                if (r["metric"], r["system"], r["level"]) == ("bleu", system, "corpus")] \
            == [score]


def test_a_model_option_in_a_config(project):
    mine = project / "mine.model"
    shutil.copyfile(generated_model(120), mine)
    write_config(project / "sp.yaml", CONFIG.format(
        tokenizer="{name: flores200, model: mine.model}"))
    record = run("sp.yaml", cache=False).record
    spec = record["specs"][0]
    options = spec["definition"]["options"]["tokenizer"]
    assert options["model"] == "mine.model"
    assert f"|tok:flores200[sha256={options['sha256']}]|" in spec["sacrebleu_signature"]
    assert verify(str(record_path(project))).ok


def record_path(project):
    return sorted((project / "runs" / "sp").iterdir())[-1]


def test_worker_processes_score_as_one_process(project):
    serial = run("sp.yaml", cache=False).record
    parallel = run("sp.yaml", cache=False, jobs=2).record  # workers get the model's bytes
    assert parallel["executor"]["name"] == "processes"
    assert [r["score"] for r in parallel["results"]] == [r["score"] for r in serial["results"]]
