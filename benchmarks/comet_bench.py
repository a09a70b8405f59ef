"""COMET through evalfw against ``comet-score``, on WMT22 en-de with a tiny checkpoint.

    .venv-models/bin/python benchmarks/comet_bench.py                  # every system, 2,037 lines
    .venv-models/bin/python benchmarks/comet_bench.py --segments 300 --systems 3   # ~1 min
    .venv-models/bin/python benchmarks/comet_bench.py --json out.json

Run it with the model plugins' virtualenv (``.venv-models``, built by ``.ci/run``). It builds
the tiny COMET checkpoint of the plugin's tests (``evalfw_comet.tiny``: XLM-R, 2 layers, hidden
64, a 2,000-piece vocabulary trained on the en-de source and reference A), then times, each as
a fresh process (wall time, and CPU seconds of that process tree from ``os.wait4``):

1. ``comet-score -s src -t SYS... -r ref.A --model CKPT --batch_size B --gpus 0`` (COMET's
   own command: fp16 weights, its embedding cache, strips each line);
2. ``evalfw run`` with ``metric: comet`` on the same inputs and batch size, cache empty;
3. the same ``evalfw run`` again: every segment score from the cache.

It prints how many (source, hypothesis, reference) triples the systems share (each is
predicted once), the first run against ``comet-score``, the re-run against the first run, and
how far evalfw's scores are from ``comet-score``'s (which runs the model in fp16) and from
COMET's own fp32 ``predict`` (the plugin's tests hold these within 1e-6).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or REPO.parent / "shared")
EN_DE = SHARED / "data" / "wmt22" / "en-de"

CONFIG = """\
schema_version: 1
experiment: cometbench
seed: 1
output_dir: runs
requires: ["evalfw-comet>=0.1"]
test_sets:
  - name: en-de
    langs: en-de
    source: data/src.txt
    references: [data/ref.A.txt]
    systems: {{{systems}}}
metrics:
  - {{name: comet, metric: comet, model: "{model}", batch_size: {batch}}}
"""


def timed_child(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system of the child's process tree, from
    ``os.wait4``), standard output."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"{' '.join(argv[:3])} ... failed ({proc.returncode}):\n"
                             f"{err.read()[-3000:]}")
        return wall, usage.ru_utime + usage.ru_stime, out.read()


def lines(path: Path, n: int) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1][:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=0, help="first N lines (0: all)")
    parser.add_argument("--systems", type=int, default=0, help="first K systems (0: all)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--keep", help="work in this directory and keep it")
    args = parser.parse_args(argv)
    if not (EN_DE / "src.txt").is_file():
        raise SystemExit(f"the WMT22 en-de data is not at {EN_DE} (set EVALFW_SHARED_DIR)")
    work = Path(args.keep or tempfile.mkdtemp(prefix="comet-bench-")).resolve()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "EVALFW_CACHE_DIR": str(work / "cache"), "EVALFW_CONFIG_DIR": str(work / "config")}
    os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    try:
        return bench(args, work, env)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def bench(args: argparse.Namespace, work: Path, env: dict[str, str]) -> int:
    from evalfw_comet import tiny

    n = args.segments or None
    names = sorted(p.stem for p in (EN_DE / "sys").glob("*.txt"))[:args.systems or None]
    data = work / "data"
    (data / "sys").mkdir(parents=True, exist_ok=True)
    texts = {"src": lines(EN_DE / "src.txt", n), "ref.A": lines(EN_DE / "ref.A.txt", n)}
    texts.update({f"sys/{s}": lines(EN_DE / "sys" / f"{s}.txt", n) for s in names})
    for name, text in texts.items():
        (data / f"{name}.txt").write_text("".join(x + "\n" for x in text), "utf-8")
    start = time.perf_counter()
    checkpoint = tiny.build(work / "tiny", lines(EN_DE / "src.txt", None)
                            + lines(EN_DE / "ref.A.txt", None))
    built = time.perf_counter() - start
    segments = len(texts["src"])
    triples = [(texts["src"][i], texts[f"sys/{s}"][i], texts["ref.A"][i])
               for s in names for i in range(segments)]
    distinct = len(set(triples))

    bindir = Path(sys.executable).parent
    comet = timed_child([str(bindir / "comet-score"), "-s", str(data / "src.txt"), "-t",
                         *(str(data / "sys" / f"{s}.txt") for s in names), "-r",
                         str(data / "ref.A.txt"), "--model", str(checkpoint), "--batch_size",
                         str(args.batch_size), "--gpus", "0", "--quiet", "--to_json",
                         str(work / "comet.json")], work, env)
    systems = ", ".join(f'"{s}": data/sys/{s}.txt' for s in names)
    (work / "exp.yaml").write_text(CONFIG.format(systems=systems, model=checkpoint,
                                                 batch=args.batch_size), "utf-8")
    run = [sys.executable, "-m", "evalfw", "run", "exp.yaml", "--quiet"]
    first = timed_child(run, work, env)
    again = timed_child(run, work, env)

    theirs = json.loads((work / "comet.json").read_text("utf-8"))
    ours = evalfw_scores(work)
    diff = max(abs(row["COMET"] - ours[s][i]) for s in names
               for i, row in enumerate(theirs[str(data / "sys" / f"{s}.txt")]))
    figures = {
        "segments": segments, "systems": len(names), "batch_size": args.batch_size,
        "triples": len(triples), "distinct_triples": distinct,
        "shared_triples": len(triples) - distinct, "checkpoint_build_s": round(built, 2),
        "comet_score": {"wall_s": round(comet[0], 2), "cpu_s": round(comet[1], 2)},
        "evalfw_first": {"wall_s": round(first[0], 2), "cpu_s": round(first[1], 2)},
        "evalfw_rerun": {"wall_s": round(again[0], 2), "cpu_s": round(again[1], 2)},
        "first_vs_comet_score_wall": round(comet[0] / first[0], 2),
        "rerun_speedup_wall": round(first[0] / again[0], 1),
        "max_abs_diff_vs_comet_score_fp16": diff,
    }
    report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", "utf-8")
    return 0


def evalfw_scores(work: Path) -> dict[str, list[float]]:
    """System -> segment scores of the latest evalfw run in ``work``."""
    from evalfw.records.load import open_run

    run = open_run("cometbench", work / "runs")
    arrays = run.segments()
    return {r["system"]: arrays[r["segments"]][:, 0].tolist() for r in run.record["results"]}


def report(f: dict) -> None:
    print(f"WMT22 en-de, {f['systems']} systems x {f['segments']} segments, batch size "
          f"{f['batch_size']}, tiny checkpoint built in {f['checkpoint_build_s']} s")
    print(f"triples {f['triples']}, distinct {f['distinct_triples']}, shared across systems "
          f"{f['shared_triples']} (predicted once)")
    for label, key in (("comet-score", "comet_score"), ("evalfw run, first", "evalfw_first"),
                       ("evalfw run, from cache", "evalfw_rerun")):
        print(f"{label:24} {f[key]['wall_s']:8.2f} s wall {f[key]['cpu_s']:8.2f} CPU s")
    print(f"first run vs comet-score: x {f['first_vs_comet_score_wall']} (need >= 1)")
    print(f"re-run vs first run:      x {f['rerun_speedup_wall']} (need >= 20)")
    print(f"max |evalfw - comet-score| per segment: {f['max_abs_diff_vs_comet_score_fp16']:.2e}"
          " (comet-score runs the model in fp16; evalfw in fp32, as COMET's predict)")


if __name__ == "__main__":
    sys.exit(main())
