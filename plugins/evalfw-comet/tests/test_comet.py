"""The ``comet`` metric against COMET's own ``predict`` on a tiny checkpoint built offline
from the WMT22 en-de data: the same segment and system scores through ``evalfw run``, the
record naming what was run, re-runs and ``verify`` from the cache without torch, each shared
(source, hypothesis, reference) triple predicted once, reference-free checkpoints, and the
one-line error for a hub name the offline hub cannot give."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Tiny

#: segments of WMT22 en-de per system in the run tests (all 2,037 in benchmarks/comet_bench.py)
SEGMENTS = 200
SYSTEMS = ("Online-A", "Online-W")
BATCH = 16

CONFIG = """\
schema_version: 1
experiment: cometrun
seed: 1
output_dir: runs
requires: ["evalfw-comet>=0.1"]
test_sets:
  - name: en-de
    langs: en-de
    source: data/src.txt
    references: [data/ref.A.txt]
    systems: {{"*": "data/sys/*.txt"}}
metrics:
  - {{name: comet, metric: comet, model: "{model}", batch_size: {batch}}}
"""


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1]


def _data(en_de: Path) -> dict[str, list[str]]:
    """The first SEGMENTS lines of source, reference A and SYSTEMS, plus a system that shares
    all but ten of its lines with the first (written under ./data)."""
    files = {"src": lines(en_de / "src.txt")[:SEGMENTS],
             "ref.A": lines(en_de / "ref.A.txt")[:SEGMENTS]}
    for name in SYSTEMS:
        files[f"sys/{name}"] = lines(en_de / "sys" / f"{name}.txt")[:SEGMENTS]
    first = files[f"sys/{SYSTEMS[0]}"]
    files["sys/Copy"] = [h if i % 20 else h + " ." for i, h in enumerate(first)]
    for name, text in files.items():
        path = Path("data") / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(x + "\n" for x in text), "utf-8")
    return files


def _evalfw(*args: str) -> subprocess.CompletedProcess[str]:
    """``evalfw ARGS`` in a new process that reports whether it imported torch or comet."""
    code = ("import sys; from evalfw.cli.main import main; rc = main(sys.argv[1:]); "
            "print('IMPORTED', 'torch' in sys.modules, 'comet' in sys.modules, "
            "file=sys.stderr); sys.exit(rc)")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ))


def _stored(name: str = "cometrun") -> tuple[dict, dict]:
    from evalfw.records.load import open_run

    run = open_run(name, Path("runs"))
    arrays = run.segments()
    scores = {r["system"]: (r["score"], arrays[r["segments"]][:, 0].tolist())
              for r in run.record["results"] if r["level"] == "corpus"}
    return run.record, scores


def _comet_predict(checkpoint: Path, src: list[str], mt: list[str],
                   ref: list[str] | None) -> tuple[list[float], float]:
    from comet import load_from_checkpoint

    model = load_from_checkpoint(str(checkpoint))
    data = [{"src": s, "mt": h, **({"ref": ref[i]} if ref else {})}
            for i, (s, h) in enumerate(zip(src, mt))]
    out = model.predict(data, batch_size=BATCH, gpus=0, progress_bar=False)
    return list(out.scores), float(out.system_score)


def test_run_matches_comet_and_rerun_loads_no_model(tiny: Tiny, en_de: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import evalfw_comet

    files = _data(en_de)
    Path("exp.yaml").write_text(CONFIG.format(model=tiny.checkpoint, batch=BATCH), "utf-8")
    predicted: list[int] = []
    real = evalfw_comet._predict

    def counted(model, data, batch_size, device):  # type: ignore[no-untyped-def]
        predicted.append(len(data))
        return real(model, data, batch_size, device)

    monkeypatch.setattr(evalfw_comet, "_predict", counted)
    loads: list[str] = []
    load = evalfw_comet.Comet.load

    def counted_load(self, device):  # type: ignore[no-untyped-def]
        loads.append(device)
        return load(self, device)

    monkeypatch.setattr(evalfw_comet.Comet, "load", counted_load)
    from evalfw.cli.main import main

    # in this process (the counters above are this process's): `auto` would choose worker
    # processes for a model metric's declared cost
    assert main(["run", "exp.yaml", "--quiet", "--jobs", "1"]) == 0
    record, got = _stored()
    # every distinct triple once: the copy of the first system adds its 10 changed lines only
    distinct = len({(files["src"][i], files[f"sys/{s}"][i], files["ref.A"][i])
                    for s in (*SYSTEMS, "Copy") for i in range(SEGMENTS)})
    assert sum(predicted) == distinct and sum(predicted) < 3 * SEGMENTS
    assert loads == ["cpu"]  # once for the three systems
    names = (*SYSTEMS, "Copy")  # one COMET call for all: its scores do not depend on batching
    every, _ = _comet_predict(tiny.checkpoint, files["src"] * 3,
                              [h for s in names for h in files[f"sys/{s}"]], files["ref.A"] * 3)
    for k, system in enumerate(names):
        want = every[k * SEGMENTS:(k + 1) * SEGMENTS]
        want_system = sum(want) / len(want)  # COMET's system score: the mean, in this order
        score, segments = got[system]
        assert max(abs(a - b) for a, b in zip(segments, want)) <= 1e-6, system
        assert abs(score - want_system) <= 1e-6, system
        assert len(set(segments)) > SEGMENTS // 2  # the tiny model's scores differ by segment
    # the record names the model, the checkpoint's content and the packages that computed it
    (spec,) = record["specs"]
    import hashlib

    sha = hashlib.sha256(tiny.checkpoint.read_bytes()).hexdigest()
    assert spec["definition"]["checkpoint"] == {"sha256": sha, "reference_free": False}
    assert spec["definition"]["options"]["model"] == str(tiny.checkpoint)
    assert f"model:{tiny.checkpoint}@sha256:{sha[:12]}" in spec["signature"]
    versions = record["environment"]["implementations"]["comet"]
    for package in ("unbabel-comet 2.2.7", "torch 2.13.0", "transformers 4."):
        assert package in versions
    # a re-run, verify and compare read the scores from the cache: no torch, no COMET
    again = _evalfw("run", "exp.yaml", "--quiet")
    assert again.returncode == 0, again.stderr
    assert "IMPORTED False False" in again.stderr
    _, rerun = _stored()
    assert rerun == got
    checked = _evalfw("verify", "cometrun", "--runs-dir", "runs")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "IMPORTED False False" in checked.stderr
    runs = sorted(p for p in Path("runs/cometrun").iterdir() if (p / "record.json").is_file())
    compared = _evalfw("compare", str(runs[0]), str(runs[-1]))
    assert compared.returncode == 0, compared.stdout + compared.stderr
    assert "IMPORTED False False" in compared.stderr


def test_reference_free_checkpoint_reads_no_reference(tiny: Tiny, en_de: Path) -> None:
    import evalfw_comet

    from evalfw.metrics.base import SegmentContext

    src = lines(en_de / "src.txt")[:40]
    hyp = lines(en_de / "sys" / "Online-A.txt")[:40]
    metric = evalfw_comet.Comet(model=str(tiny.qe_checkpoint), batch_size=BATCH)
    assert not metric.uses_references() and metric.definition()["checkpoint"]["reference_free"]
    context = SegmentContext("en-de", "Online-A", "en-de", src)
    with_a = metric.segment_statistics(hyp, [lines(en_de / "ref.A.txt")[:40]], context)
    with_b = evalfw_comet.Comet(model=str(tiny.qe_checkpoint), cache=False).segment_statistics(
        hyp, [lines(en_de / "ref.B.txt")[:40]], context)
    want, _ = _comet_predict(tiny.qe_checkpoint, src, hyp, None)
    assert max(abs(a - b) for a, b in zip(with_a[:, 0].tolist(), want)) <= 1e-6
    assert max(abs(a - b) for a, b in zip(with_b[:, 0].tolist(), want)) <= 1e-6


def test_several_references_mean_or_first(tiny: Tiny, en_de: Path) -> None:
    import evalfw_comet

    from evalfw.metrics.base import SegmentContext

    src, hyp = lines(en_de / "src.txt")[:20], lines(en_de / "sys" / "Online-W.txt")[:20]
    ref_a, ref_b = lines(en_de / "ref.A.txt")[:20], lines(en_de / "ref.B.txt")[:20]
    context = SegmentContext("en-de", "Online-W", "en-de", src)
    mean = evalfw_comet.Comet(model=str(tiny.checkpoint)).segment_statistics(
        hyp, [ref_a, ref_b], context)[:, 0].tolist()
    first = evalfw_comet.Comet(model=str(tiny.checkpoint), multi_reference="first") \
        .segment_statistics(hyp, [ref_a, ref_b], context)[:, 0].tolist()
    with_a, _ = _comet_predict(tiny.checkpoint, src, hyp, ref_a)
    with_b, _ = _comet_predict(tiny.checkpoint, src, hyp, ref_b)
    assert max(abs(m - (a + b) / 2) for m, a, b in zip(mean, with_a, with_b)) <= 1e-6
    assert max(abs(f - a) for f, a in zip(first, with_a)) <= 1e-6


def test_offline_hub_name_is_one_line_error(tiny: Tiny, en_de: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from evalfw.cli.main import main

    _data(en_de)
    Path("exp.yaml").write_text(CONFIG.format(model="Unbabel/wmt22-comet-da", batch=8),
                                "utf-8")
    assert main(["run", "exp.yaml", "--quiet"]) == 2
    message = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(message) == 1 and message[0].startswith("evalfw: error: "), message
    assert "'Unbabel/wmt22-comet-da'" in message[0] and "HF_HUB_OFFLINE" in message[0]
    assert "checkpoints/model.ckpt" in message[0]


def test_missing_checkpoint_and_source(tiny: Tiny, tmp_path: Path) -> None:
    import evalfw_comet

    from evalfw.errors import ConfigError
    from evalfw.metrics.base import SegmentContext

    with pytest.raises(ConfigError, match="does not exist"):
        evalfw_comet.Comet(model=str(tmp_path / "nothing" / "model.ckpt"))
    metric = evalfw_comet.Comet(model=str(tiny.checkpoint.parents[1]))  # the directory
    assert metric.checkpoint.path == tiny.checkpoint.resolve()
    with pytest.raises(ConfigError, match="COMET reads the source"):
        metric.segment_statistics(["a"], [["b"]], SegmentContext("t", "s"))


def test_dask_local_cluster_gives_the_local_numbers(tiny: Tiny, en_de: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The same run on a Dask LocalCluster (one worker process, on 127.0.0.1, started and
    stopped by the run): the worker loads the checkpoint itself; scores as in this process."""
    pytest.importorskip("distributed")
    from evalfw.cli.main import main

    files = _data(en_de)
    config = CONFIG.format(model=tiny.checkpoint, batch=BATCH)
    Path("exp.yaml").write_text(config, "utf-8")
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    _, local = _stored()
    Path("dask.yaml").write_text(
        config.replace("experiment: cometrun", "experiment: cometdask")
        + "executor: {name: dask, workers: 1, worker_timeout: 120}\n", "utf-8")
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(Path("dask-cache").resolve()))  # model runs
    assert main(["run", "dask.yaml", "--quiet", "--no-cache"]) == 0
    _, remote = _stored("cometdask")
    import sqlite3

    from evalfw.metrics import _score_cache as score_cache

    with sqlite3.connect(Path("dask-cache") / "segment-scores.sqlite") as db:  # the worker's
        (stored,) = db.execute(f"SELECT COUNT(*) FROM {score_cache.TABLE}").fetchone()
    assert stored == len({(files["src"][i], files[f"sys/{s}"][i], files["ref.A"][i])
                          for s in (*SYSTEMS, "Copy") for i in range(SEGMENTS)})
    assert remote.keys() == local.keys()
    for system, (score, segments) in local.items():
        assert abs(remote[system][0] - score) <= 1e-6
        assert max(abs(a - b) for a, b in zip(remote[system][1], segments)) <= 1e-6
