"""The command lines of the ``cli`` benchmark target (``benchmarks/run.py cli``): one of each
kind the drop-in ``evalfw-sacrebleu`` serves, run by both commands in a folder holding the
full WMT22 en-de test set (2,037 lines: ``ref.A``, ``ref.B``, three systems)."""

from __future__ import annotations

from pathlib import Path

SYSTEMS = ("Online-A", "Online-B", "PROMT")
THREE = [f"{s}.txt" for s in SYSTEMS]

CASES: list[tuple[str, list[str]]] = [
    ("bleu json", ["ref.A.txt", "-i", "Online-A.txt"]),
    ("bleu text 2 refs", ["ref.A.txt", "ref.B.txt", "-i", "Online-A.txt", "-f", "text"]),
    ("bleu -b -w 4 intl lc", ["ref.A.txt", "-i", "Online-A.txt", "-b", "-w", "4", "-tok",
                              "intl", "-lc"]),
    ("chrf", ["ref.A.txt", "-i", "Online-A.txt", "-m", "chrf"]),
    ("chrf++ 2 refs", ["ref.A.txt", "ref.B.txt", "-i", "Online-A.txt", "-m", "chrf", "-cw",
                       "2"]),
    ("ter", ["ref.A.txt", "-i", "Online-A.txt", "-m", "ter"]),
    ("bleu chrf ter text", ["ref.A.txt", "-i", "Online-A.txt", "-m", "bleu", "chrf", "ter",
                            "-f", "text"]),
    ("stdin", ["ref.A.txt", "-f", "text"]),  # Online-A.txt on standard input (STDIN)
    ("tsv refs -nr 2", ["refs.tsv", "-nr", "2", "-i", "Online-A.txt"]),
    ("sentence bleu", ["ref.A.txt", "-i", "Online-A.txt", "-sl"]),
    ("sentence chrf", ["ref.A.txt", "-i", "Online-A.txt", "-sl", "-m", "chrf"]),
    ("confidence bleu", ["ref.A.txt", "-i", "Online-A.txt", "-ci"]),
    ("confidence chrf ter", ["ref.A.txt", "-i", "Online-A.txt", "-ci", "-m", "chrf", "ter",
                             "-f", "text"]),
    ("3 systems table", ["ref.A.txt", "-i", *THREE, "-f", "text", "-m", "bleu", "chrf"]),
    ("3 systems latex", ["ref.A.txt", "-i", *THREE, "-f", "latex"]),
    ("3 systems json", ["ref.A.txt", "-i", *THREE]),
    ("paired-bs bleu", ["ref.A.txt", "-i", *THREE, "--paired-bs", "-f", "text"]),
    ("paired-bs chrf ter", ["ref.A.txt", "-i", *THREE, "--paired-bs", "-m", "chrf", "ter",
                            "-f", "text"]),
    ("paired-ar bleu", ["ref.A.txt", "-i", *THREE, "--paired-ar", "-f", "text"]),
    ("paired-ar 3 metrics latex", ["ref.A.txt", "-i", *THREE, "--paired-ar", "-m", "bleu",
                                   "chrf", "ter", "-f", "latex"]),
]


#: the cases that read a system on standard input
STDIN = {"stdin": "Online-A.txt"}
#: the ratio each case must reach: 5 for all three metrics, 3 for the others
NEED = {"bleu chrf ter text": 5.0}
OTHERS_NEED = 3.0


def write_inputs(folder: Path, pair: Path) -> None:
    def head(path: Path) -> list[str]:
        return path.read_text(encoding="utf-8").split("\n")[:-1]

    refs = [head(pair / "ref.A.txt"), head(pair / "ref.B.txt")]
    for name, text in (("ref.A.txt", refs[0]), ("ref.B.txt", refs[1])):
        (folder / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    (folder / "refs.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in zip(*refs)),
                                     encoding="utf-8")
    for system in SYSTEMS:
        (folder / f"{system}.txt").write_text("\n".join(head(pair / "sys" / f"{system}.txt"))
                                              + "\n", encoding="utf-8")
