"""`evalfw run` / `evalfw.run`: what a run computes and what its record holds."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import sacrebleu

import evalfw
from evalfw.cli.main import main
from evalfw.records.document import validate_record
from evalfw.records.load import load_segments, open_run
from tests.support.runs import REPO, mini, run, workdir  # noqa: F401  (fixture)

pytestmark = pytest.mark.parity

SAMPLE = REPO / "configs" / "sample" / "en-de"


def sample_lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text("utf-8").split("\n")[:-1]


def numbers(record: dict) -> list[dict]:
    return [{k: v for k, v in r.items()} for r in record["results"]]


def test_two_runs_give_two_versions_with_identical_results(workdir):
    first = evalfw.run("configs/wmt.yaml")
    second = evalfw.run("configs/wmt.yaml")
    assert first["version"] != second["version"]
    versions = sorted(p.name for p in (workdir / "runs" / "wmt").iterdir())
    assert versions == sorted([first["version"], second["version"]])
    assert numbers(first) == numbers(second)
    a = load_segments(workdir / "runs" / "wmt" / first["version"], first)
    b = load_segments(workdir / "runs" / "wmt" / second["version"], second)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_sample_scores_equal_sacrebleu_and_record_is_complete(workdir):
    outcome = run()
    record = outcome.record
    validate_record(record)
    assert json.loads((outcome.path / "record.json").read_text()) == record
    refs = [sample_lines("ref.A.txt"), sample_lines("ref.B.txt")]
    corpus = {(r["system"], r["metric"]): r for r in record["results"] if r["level"] == "corpus"}
    systems = sorted(p.stem for p in (SAMPLE / "sys").glob("*.txt"))
    assert len(systems) >= 3 and sorted({s for s, _ in corpus}) == systems
    for system in systems:
        hyps = sample_lines(f"sys/{system}.txt")
        want = sacrebleu.BLEU().corpus_score(hyps, refs)
        got = corpus[(system, "sacrebleu")]
        assert got["score"] == want.score and type(got["score"]) is float
        assert got["counts"] == want.counts and got["totals"] == want.totals
        assert got["precisions"] == want.precisions and got["bp"] == want.bp
        assert (got["hyp_len"], got["ref_len"]) == (want.sys_len, want.ref_len)
        sent = [r for r in record["results"] if r["system"] == system
                and r["level"] == "sentence" and r["metric"] == "sacrebleu-eff"]
        (row,) = sent
        scores = load_segments(outcome.path, record)[row["sentence_scores"]]
        bleu = sacrebleu.BLEU(effective_order=True)
        expect = [bleu.sentence_score(h, [a, b]).score for h, a, b in zip(hyps, *refs)]
        assert scores.tolist() == expect
    spec = next(s for s in record["specs"] if s["metric"] == "sacrebleu")
    oracle = sacrebleu.BLEU()
    oracle.corpus_score(sample_lines("sys/Strong.txt"), refs)
    assert spec["sacrebleu_signature"] == oracle.get_signature().format()
    components = spec["definition"]["options"]  # BLEU's definition: its components
    assert spec["definition"]["name"] == "bleu" and spec["definition"]["version"]
    assert components["tokenizer"]["name"] == "13a"  # the test set's tokenizer
    assert {"version"} <= set(components["smoothing"])
    # every input is recorded with hash, lines and bytes, paths relative as written
    inputs = {i["path"]: i for i in record["inputs"]}
    assert inputs["configs/sample/en-de/ref.A.txt"]["lines"] == 40
    assert {i["role"] for i in record["inputs"]} == {"reference", "source", "system"}
    assert not any(i["path"].startswith("/") for i in record["inputs"])
    env = record["environment"]
    assert {"evalfw", "numpy", "regex", "pluggy", "jsonschema", "PyYAML"} <= set(env["packages"])
    assert record["config"]["path"] == "configs/wmt.yaml" and record["seed"] == 12345
    assert record["segments"]["sha256"] and (outcome.path / "segments.npz").is_file()
    for name in ("report-table.txt", "report-latex.tex", "report-csv.csv", "report-markdown.md"):
        assert (outcome.path / name).is_file()


def test_record_keeps_no_environment_variables_beyond_the_allowlist(workdir, monkeypatch):
    from evalfw.runner._environment import ENV_ALLOWLIST

    for name in ENV_ALLOWLIST:  # as the suite may run with some set (EVALFW_NO_KERNELS=1)
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    outcome = run()
    text = (outcome.path / "record.json").read_text()
    assert "hunter2" not in text and "SECRET_TOKEN" not in text
    assert outcome.record["environment"]["variables"] == {"PYTHONHASHSEED": "0"}
    assert str(workdir) not in text  # no absolute paths of the user's machine


def test_overrides_are_applied_and_recorded(workdir):
    record = evalfw.run("configs/wmt.yaml", overrides=["metrics[0].max_order=2", "seed=7"])
    assert record["seed"] == 7
    assert [o["set"] for o in record["command"]["overrides"]] == ["metrics[0].max_order=2",
                                                                  "seed=7"]
    spec = next(s for s in record["specs"] if s["metric"] == "sacrebleu")
    assert spec["definition"]["options"]["max_order"] == 2
    row = next(r for r in record["results"] if r["metric"] == "sacrebleu")
    assert len(row["precisions"]) == 2


def test_stats_are_shared_between_metrics_with_the_same_tokens(workdir):
    record = run().record
    cells = {(r["system"], r["metric"]): r["segments"] for r in record["results"]}
    # sacrebleu, sacrebleu-eff and chen-cherry-2 count the same 13a n-grams: one cell
    assert cells[("Strong", "sacrebleu")] == cells[("Strong", "chen-cherry-2")]
    # BLEU: (clipped floor 0, floor 1) x systems; chrF: one cell per system
    assert len(record["segments"]["cells"]) == 2 * 3 + 3


def test_jobs_give_identical_results_and_progress_is_reported(workdir):
    seen = []
    one = run(progress=lambda d, t, label: seen.append((d, t, label))).record
    four = run(jobs=4).record
    assert numbers(one) == numbers(four)
    assert seen[-1][0] == seen[-1][1] and seen[-1][2] == "en-de"


@pytest.mark.slow
def test_randomized_configs_match_sacrebleu(tmp_path, monkeypatch):
    """Random corpora and random sacreBLEU options through a config: every number as
    sacreBLEU computes it."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(3)
    vocab = "der die das Haus Katze läuft schnell und , . ! ? 3.5 km/h".split()
    for case in range(100):
        n = rng.randint(1, 12)

        def corpus(n: int = n) -> bytes:
            return "".join(" ".join(rng.choices(vocab, k=rng.randint(0, 9))) + "\n"
                           for _ in range(n)).encode()

        ref, a, b = corpus(), corpus(), corpus()
        if not ref.strip(b"\n") or not a.strip(b"\n") and not b.strip(b"\n"):
            continue
        smooth = rng.choice(["exp", "floor", "add-k", "none"])
        lower = rng.random() < 0.3
        extra = f"    smoothing: {smooth}\n    lowercase: {'true' if lower else 'false'}\n"
        cfg = mini(tmp_path, ref, a, b, extra)
        record = run(str(cfg)).record
        refs = [ref.decode().split("\n")[:-1]]
        for row in record["results"]:
            hyps = (a if row["system"] == "A" else b).decode().split("\n")[:-1]
            want = sacrebleu.BLEU(smooth_method=smooth, lowercase=lower).corpus_score(hyps, refs)
            assert (row["score"], row["counts"], row["totals"]) == (
                want.score, want.counts, want.totals), (case, row["system"])


def test_cli_run_prints_the_table_and_stores_a_version(workdir, capsys):
    assert main(["run", "configs/wmt.yaml", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.splitlines()[2].split() == ["en-de"] * 6  # 5 BLEU columns and chrf
    assert "Strong" in out and "Signatures:" in out
    stored = open_run("wmt", workdir / "runs")
    assert stored.record["command"]["argv"] == ["evalfw", "run", "configs/wmt.yaml"]
    assert main(["run", "configs/wmt.yaml", "--format", "csv", "--set", "seed=3", "-j", "2"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("test_set,system,metric,level,score")
    assert "evalfw: stored runs/wmt/" in err
    latest = open_run("wmt", workdir / "runs").record
    assert latest["command"]["argv"] == ["evalfw", "run", "configs/wmt.yaml", "--set", "seed=3",
                                         "--format", "csv", "--jobs", "2"]
    assert latest["results"] == stored.record["results"]


def test_cli_run_errors_are_one_line_with_status_2(workdir, capsys):
    (workdir / "configs/sample/en-de/sys/Weak.txt").write_bytes(b"zu kurz\n")
    assert main(["run", "configs/wmt.yaml"]) == 2
    err = capsys.readouterr().err
    # stages finished before the error were logged (stderr is not a terminal); the error
    # itself is one line, the last
    *stages, error = err.splitlines()
    assert all(line.startswith("evalfw: [") for line in stages)
    assert error.startswith("evalfw: error: ") and "Traceback" not in err
    assert "Weak.txt has 1 lines" in error and "ref.A.txt has 40" in error
    assert not (workdir / "runs" / "wmt").exists() or not any(
        (workdir / "runs" / "wmt").iterdir())


def test_unknown_format_is_a_clear_error(workdir, capsys):
    assert main(["run", "configs/wmt.yaml", "--format", "latx", "-q"]) == 2
    assert "did you mean 'latex'" in capsys.readouterr().err


@pytest.mark.parametrize("level", ["sentence", "corpus"])
def test_levels_follow_the_metric(tmp_path, monkeypatch, level):
    monkeypatch.chdir(tmp_path)
    cfg = mini(tmp_path, b"a b c d\ne f g h\n", b"a b c d\ne f\n", b"a b\ne f g h\n",
               f"    level: {level}\n")
    rows = run(str(cfg)).record["results"]
    assert {r["level"] for r in rows} == {level}
    if level == "sentence":
        assert all(r["n"] == 2 for r in rows)


def test_rerun_reuses_cached_statistics_and_verify_recomputes(workdir, monkeypatch):
    from evalfw.metrics.bleu import engine
    from evalfw.runner.verify import verify

    first = evalfw.run("configs/wmt.yaml")
    assert (workdir / "runs" / ".cache" / "stats").is_dir()

    def no_counting(*args, **kwargs):
        raise AssertionError("statistics were recomputed")

    with monkeypatch.context() as m:
        m.setattr(engine, "segment_stats", no_counting)
        m.setattr(engine, "stats_from_tokens", no_counting)
        second = evalfw.run("configs/wmt.yaml")  # every cell comes from the cache
    assert numbers(first) == numbers(second)
    # verify must prove the numbers again, never read them back from the cache
    monkeypatch.setattr("evalfw.runner.cache.StatsCache.load",
                        lambda *a, **k: (_ for _ in ()).throw(AssertionError("cache used")))
    assert verify(f"runs/wmt/{second['version']}").ok
    monkeypatch.setenv("EVALFW_NO_CACHE", "1")
    assert numbers(evalfw.run("configs/wmt.yaml")) == numbers(first)
