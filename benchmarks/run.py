"""Speed and memory of evalfw next to sacreBLEU 2.6.0 and NLTK 3.10.4 on the same work.

    python benchmarks/run.py                 # every target (the 1M corpus is generated once)
    python benchmarks/run.py corpus sentence # some targets
    python benchmarks/run.py paired          # sacrebleu vs evalfw score --paired-bs (13 systems)
    python benchmarks/run.py spbleu          # sacrebleu vs evalfw score -tok flores200 (13 systems)
    python benchmarks/run.py cli             # sacrebleu vs evalfw-sacrebleu, WMT22 en-de
    python benchmarks/run.py --repeat 3      # best of 3 per measurement (the machine is noisy)

Every measurement is a fresh ``python benchmarks/tasks.py ...`` process; its CPU time
(user + system) and peak RSS come from ``os.wait4`` on that child, i.e. the kernel's rusage of
exactly that process tree, interpreter start and imports included. Per target it prints both
CPU times, the ratio, both peak memories and whether the numbers are identical (the sha256 of
the ``repr`` of every score computed, or the overlapping score for the 1M target).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = HERE / "tasks.py"
SHARED = Path(os.environ.get("EVALFW_SHARED_DIR") or HERE.parents[1] / "shared")
WMT_DIR = SHARED / "data" / "wmt22"
DEFAULT_DATA = HERE / ".data" / "synthetic-1m"


@dataclass
class Measure:
    cpu: float
    rss_mb: float
    result: dict


def measure(*args: str, repeat: int = 1) -> Measure:
    """Best (lowest CPU) of ``repeat`` fresh runs of ``tasks.py args``."""
    best: Measure | None = None
    for _ in range(repeat):
        proc = subprocess.Popen([sys.executable, str(TASKS), *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"tasks.py {' '.join(args)} failed ({proc.returncode}):\n{err}")
        m = Measure(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                    json.loads(out.strip().splitlines()[-1]))
        if best is None or m.cpu < best.cpu:
            best = m
    assert best is not None
    return best


def measure_command(argv: list[str], repeat: int = 1, cwd: Path | None = None,
                    stdin: Path | None = None) -> Measure:
    """Best (lowest CPU) of ``repeat`` fresh runs of a command line (``stdin``: a file for its
    standard input); its result is the sha256 of everything it printed on standard output."""
    best: Measure | None = None
    for _ in range(repeat):
        with open(stdin or os.devnull, "rb") as source:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    stdin=source, cwd=cwd)
            out = proc.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({os.waitstatus_to_exitcode(status)})")
        m = Measure(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                    {"n": 1, "sha256": hashlib.sha256(out).hexdigest(), "head": [len(out)]})
        if best is None or m.cpu < best.cpu:
            best = m
    assert best is not None
    return best


def paired_commands() -> tuple[list[str], list[str]]:
    """sacreBLEU's and evalfw's command lines for the paired bootstrap target: the 13 en-zh
    systems of WMT22 against reference A, tokenizer zh, text output."""
    # Paths relative to the current directory: evalfw shows absolute paths relative to it
    # (records must not leak home directories) while sacreBLEU prints them as given.
    pair = Path(os.path.relpath(WMT_DIR / "en-zh"))
    ref = str(pair / "ref.A.txt")
    systems = [str(p) for p in sorted((pair / "sys").glob("*.txt"))]
    flags = ["--paired-bs", "-tok", "zh", "-f", "text"]
    return ([sys.executable, "-m", "sacrebleu", ref, "-i", *systems, *flags],
            [sys.executable, "-m", "evalfw", "score", "-r", ref, "-i", *systems, *flags])


def spbleu_commands(refs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """sacreBLEU's and evalfw's command lines for the spBLEU target: corpus BLEU with the
    FLORES-200 tokenizer of the 13 en-zh systems of WMT22 against ``refs``, each score with 17
    decimals (so the text compared byte for byte holds every bit of it)."""
    pair = Path(os.path.relpath(WMT_DIR / "en-zh"))
    ref_files = [str(pair / f"ref.{r}.txt") for r in refs]
    systems = [str(p) for p in sorted((pair / "sys").glob("*.txt"))]
    flags = ["-tok", "flores200", "-w", "17", "-f", "text"]
    return ([sys.executable, "-m", "sacrebleu", *ref_files, "-i", *systems, *flags],
            [sys.executable, "-m", "evalfw", "score", "-r", *ref_files, "-i", *systems, *flags])


def spbleu_targets(repeat: int) -> list[dict]:
    """sacreBLEU against ``evalfw score``, with one and with two references, both reading the
    model of :mod:`spm_model` from ``$SACREBLEU/models``."""
    sys.path.insert(0, str(HERE))
    import spm_model

    print(f"(spBLEU model: {spm_model.describe(WMT_DIR)})", flush=True)
    os.environ["SACREBLEU"] = str(spm_model.home(WMT_DIR))  # for every process measured
    rows = []
    for refs in (("A",), ("A", "B")):
        theirs, ours_argv = spbleu_commands(refs)
        base = measure_command(theirs, repeat=repeat)
        ours = measure_command(ours_argv, repeat=repeat)
        rows.append(report(f"spBLEU 13 sys en-zh {len(refs)}r", "sacrebleu -tok flores200",
                           base, "evalfw score", ours, same_digest(base, ours), need=5))
    base = measure("spbleu-corpus", "sacrebleu", repeat=repeat)
    for label, impl in (("evalfw engine", "engine"), ("evalfw.compat BLEU", "compat")):
        ours = measure("spbleu-corpus", impl, repeat=repeat)
        rows.append(report("spBLEU 13 sys en-zh API", "sacrebleu BLEU(references=)", base,
                           label, ours, same_digest(base, ours), need=5))
    # the part of every row that no implementation avoids: sentencepiece's own work
    floor = measure("spbleu-floor", "sentencepiece", repeat=repeat)
    print(f"(sentencepiece alone: import, model, {floor.result['n']:,} distinct lines encoded "
          f"once in one thread: {floor.cpu:.3f} s; x5 against sacreBLEU's API row needs "
          f"{base.cpu / 5:.3f} s)", flush=True)
    return rows


def cli_targets(repeat: int) -> list[dict]:
    """Every kind of drop-in command line on the full WMT22 en-de test set (two references,
    three systems): ``sacrebleu ARGS`` against ``evalfw-sacrebleu ARGS``, standard output
    compared byte for byte."""
    sys.path.insert(0, str(HERE))
    import cli_cases

    rows = []
    with tempfile.TemporaryDirectory(prefix="evalfw-bench-cli-") as tmp:
        folder = Path(tmp)
        cli_cases.write_inputs(folder, WMT_DIR / "en-de")
        bin_dir = Path(sys.executable).parent
        for label, args in cli_cases.CASES:
            stdin = folder / cli_cases.STDIN[label] if label in cli_cases.STDIN else None
            base = measure_command([str(bin_dir / "sacrebleu"), *args], repeat, folder, stdin)
            ours = measure_command([str(bin_dir / "evalfw-sacrebleu"), *args], repeat, folder,
                                   stdin)
            rows.append(report(f"cli {label}", "sacrebleu", base, "evalfw-sacrebleu", ours,
                               same_digest(base, ours),
                               need=cli_cases.NEED.get(label, cli_cases.OTHERS_NEED)))
    return rows


def same_digest(a: Measure, b: Measure) -> bool:
    return (a.result["n"], a.result["sha256"]) == (b.result["n"], b.result["sha256"])


def same_first(a: Measure, b: Measure) -> bool:
    return a.result["head"][0] == b.result["head"][0]


def report(target: str, base_name: str, base: Measure, ours_name: str, ours: Measure,
           identical: bool, per: tuple[int, int] = (1, 1), need: float | None = 10.0) -> dict:
    # per: segments measured by (baseline, evalfw), for per-segment ratios
    ratio = (base.cpu / per[0]) / (ours.cpu / per[1])
    row = {"target": target, "baseline": base_name, "evalfw": ours_name,
           "base_cpu": base.cpu, "ours_cpu": ours.cpu, "ratio": ratio, "need": need,
           "base_mb": base.rss_mb, "ours_mb": ours.rss_mb, "identical": identical,
           "per": list(per)}
    show(row)
    return row


def show(row: dict) -> None:
    need, ratio, identical, per = row["need"], row["ratio"], row["identical"], tuple(row["per"])
    # need None: shown for information, without a target of its own
    ok = ("ok" if identical else "NOT IDENTICAL") if need is None else \
        "ok" if ratio >= need and identical else "MISSED"
    wanted = "no target" if need is None else f"need {need:g}"
    scale = "" if per == (1, 1) else f" (per segment: {per[0]:,} vs {per[1]:,} segments)"
    print(f"{row['target']:<22} {row['baseline']:<26} {row['base_cpu']:8.3f} s "
          f"{row['base_mb']:7.0f} MB | {row['evalfw']:<22} {row['ours_cpu']:7.3f} s "
          f"{row['ours_mb']:7.0f} MB | x{ratio:6.1f} ({wanted}) "
          f"identical={'yes' if identical else 'NO'} {ok}{scale}", flush=True)


def best_of_rounds(rounds: list[list[dict]]) -> list[dict]:
    """Each row with the lowest CPU of each side over all rounds. A round measures every row
    once, so the two sides of a row are measured at several times of the run, not one after
    the other: on a shared machine whose speed drifts, that keeps a slow spell from landing
    on one side only."""
    out = []
    for rows in zip(*rounds):
        base = min(r["base_cpu"] for r in rows)
        ours = min(r["ours_cpu"] for r in rows)
        per = rows[0]["per"]
        out.append({**rows[0], "base_cpu": base, "ours_cpu": ours,
                    "ratio": (base / per[0]) / (ours / per[1]),
                    "base_mb": max(r["base_mb"] for r in rows),
                    "ours_mb": max(r["ours_mb"] for r in rows),
                    "identical": all(r["identical"] for r in rows), "rounds": len(rows)})
    return out


def run_targets(names: list[str], repeat: int, data: Path) -> list[dict]:
    rows = []
    if "corpus" in names:
        base = measure("corpus", "sacrebleu", repeat=repeat)
        for label, args in [("evalfw.compat BLEU", ("corpus", "evalfw")),
                            ("evalfw engine", ("corpus-native", "evalfw"))]:
            ours = measure(*args, repeat=repeat)
            rows.append(report("corpus WMT22 44 sys", "sacrebleu BLEU(references=)",
                               base, label, ours, same_digest(base, ours)))
    if "sentence" in names:
        base = measure("sentence", "sacrebleu", repeat=repeat)
        ours = measure("sentence", "evalfw", repeat=repeat)
        rows.append(report("sentence WMT22 all seg", "sacrebleu sentence_score",
                           base, "evalfw sentence_scores", ours, same_digest(base, ours),
                           need=20))
    if "calls" in names:
        for task, metric in (("sentence-calls", "BLEU"), ("chrf-calls", "CHRF")):
            for pair in ("en-de", "de-en"):
                base = measure(task, "sacrebleu", pair, repeat=repeat)
                ours = measure(task, "evalfw", pair, repeat=repeat)
                rows.append(report(f"{metric}.sentence_score {pair}",
                                   f"sacrebleu {metric}() per call", base,
                                   f"evalfw.compat {metric}()", ours, same_digest(base, ours),
                                   need=10))
    if "cli" in names:
        rows += cli_targets(repeat)
    if "chrf" in names:
        base = measure("chrf-corpus", "sacrebleu", repeat=repeat)
        ours = measure("chrf-corpus", "evalfw", repeat=repeat)
        rows.append(report("chrF/chrF++ WMT22 44 sys", "sacrebleu CHRF(references=)", base,
                           "evalfw.compat CHRF", ours, same_digest(base, ours), need=20))
        base = measure("chrf-sentence", "sacrebleu", repeat=repeat)
        ours = measure("chrf-sentence", "evalfw", repeat=repeat)
        rows.append(report("chrF sentence all seg", "sacrebleu sentence_score", base,
                           "evalfw sentence_scores", ours, same_digest(base, ours), need=20))
    if "ter" in names:
        base = measure("ter-corpus", "sacrebleu", repeat=repeat)
        ours = measure("ter-corpus", "evalfw", repeat=repeat)
        rows.append(report("TER WMT22 44 sys", "sacrebleu TER(references=)", base,
                           "evalfw.compat TER", ours, same_digest(base, ours), need=10))
    if "nltk" in names:
        base = measure("nltk", "nltk", repeat=repeat)
        # the target is the preset; the drop-in module is reported beside it
        for label, impl, need in [("evalfw preset nltk", "evalfw", 30.0),
                                  ("evalfw.compat.nltk", "evalfw-compat", None)]:
            ours = measure("nltk", impl, repeat=repeat)
            rows.append(report("nltk corpus_bleu WMT22", "nltk corpus_bleu", base, label, ours,
                               same_digest(base, ours), need=need))
    if "paired" in names:
        theirs, ours_argv = paired_commands()
        base = measure_command(theirs, repeat=repeat)
        ours = measure_command(ours_argv, repeat=repeat)
        rows.append(report("paired-bs 13 sys en-zh", "sacrebleu --paired-bs", base,
                           "evalfw score --paired-bs", ours, same_digest(base, ours), need=5))
    if "spbleu" in names:
        rows += spbleu_targets(repeat)
    if "synthetic" in names or "cache" in names:
        _ensure_corpus(data)
    if "synthetic" in names:
        base = measure("synthetic", "sacrebleu", str(data), repeat=repeat)
        ours = measure("synthetic", "evalfw", str(data), repeat=repeat)
        rows.append(report("synthetic 1M (13a)", "sacrebleu 100k slice", base,
                           "evalfw stream 1M", ours, same_first(base, ours),
                           per=(100_000, 1_000_000)))
    if "cache" in names:
        tmp = Path(tempfile.mkdtemp(prefix="evalfw-bench-cache-"))
        try:
            cold = measure("cached", "evalfw", str(data), str(tmp))
            warm = measure("cached", "evalfw", str(data), str(tmp), repeat=repeat)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        rows.append(report("re-run from cache 1M", "evalfw first run", cold,
                           "evalfw re-run", warm, same_digest(cold, warm)))
    return rows


def byte_compile_evalfw() -> None:
    """Compile evalfw's modules to ``__pycache__`` once, as ``pip install`` does for an
    installed package (sacreBLEU's and NLTK's are). Without it, an environment with
    ``PYTHONDONTWRITEBYTECODE=1`` (this one) makes every measured process recompile evalfw."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(HERE.parent / "evalfw")],
                   env=env, check=True, stdout=subprocess.DEVNULL)


def _ensure_corpus(data: Path) -> None:
    sys.path.insert(0, str(HERE))
    import synth

    print(f"(synthetic corpus: {data}; generated once, deterministic)", flush=True)
    synth.write(data, 1_000_000)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="*", default=[],
                    help="corpus sentence calls chrf ter nltk paired spbleu cli synthetic "
                         "cache (default: all)")
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs per measurement")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every row K times over, then show each side's best")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="synthetic corpus folder")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    args = ap.parse_args(argv)
    names = args.targets or ["corpus", "sentence", "calls", "chrf", "ter", "nltk", "paired",
                             "spbleu", "cli", "synthetic", "cache"]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; CPU s = user+sys of the "
          "whole process; MB = peak RSS", flush=True)
    byte_compile_evalfw()
    rounds = []
    for k in range(args.rounds):
        if args.rounds > 1:
            print(f"-- round {k + 1} of {args.rounds}", flush=True)
        rounds.append(run_targets(names, args.repeat, args.data))
    rows = rounds[0]
    if args.rounds > 1:
        print(f"-- best of {args.rounds} rounds x {args.repeat} runs, each side", flush=True)
        rows = best_of_rounds(rounds)
        for row in rows:
            show(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
