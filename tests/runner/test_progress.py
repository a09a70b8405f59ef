"""Run progress: a rich bar with stage n/N and an ETA on a terminal, fitted to its width; one
log line per finished stage when stderr is not a terminal; nothing with --quiet."""

from __future__ import annotations

import io
import re

from evalfw.cli.main import main
from evalfw.runner.progress import BarProgress, LogProgress, Stages, StageWork, for_stream
from tests.support.runs import run, workdir  # noqa: F401  (fixture)

LINE = re.compile(r"^evalfw: \[(\d)/(\d)\] (\w+)(: .+)? in \d+\.\d s$")


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_one_line_per_stage_off_a_terminal(workdir):
    buf = io.StringIO()
    run("configs/wmt-significance.yaml", progress=LogProgress(buf))
    lines = buf.getvalue().splitlines()
    assert [LINE.match(x).group(1, 2, 3) for x in lines] == [
        ("1", "4", "config"), ("2", "4", "statistics"), ("3", "4", "significance"),
        ("4", "4", "store")]
    assert re.search(r"statistics: 3 cells in", lines[1])
    assert "\r" not in buf.getvalue() and "\x1b" not in buf.getvalue()


def test_without_significance_there_are_three_stages(workdir):
    buf = io.StringIO()
    run("configs/wmt.yaml", progress=LogProgress(buf))
    assert [LINE.match(x).group(2) for x in buf.getvalue().splitlines()] == ["3"] * 3


def test_cli_logs_stages_unless_quiet(workdir, capsys):
    assert main(["run", "configs/wmt.yaml"]) == 0
    err = capsys.readouterr().err
    assert "evalfw: [2/3] statistics: " in err and "evalfw: [3/3] store: " in err
    assert main(["run", "configs/wmt.yaml", "--quiet"]) == 0
    assert "evalfw: [" not in capsys.readouterr().err


def test_a_plain_callable_still_gets_ticks(workdir):
    ticks = []
    run("configs/wmt.yaml", progress=lambda done, total, label: ticks.append((done, total)))
    assert ticks and ticks[-1][0] == ticks[-1][1]


def test_choice_follows_the_stream():
    assert for_stream(quiet=True, stream=Tty()) is None
    assert isinstance(for_stream(stream=io.StringIO()), LogProgress)
    bar = for_stream(stream=Tty())
    assert isinstance(bar, BarProgress)
    bar.close()


def test_bar_shows_stage_count_and_eta_within_the_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    out = Tty()
    bar = BarProgress(out)
    stages = Stages(bar, 3)
    with stages.stage("config"):
        pass
    with stages.stage("statistics"):
        for i in range(1, 11):
            bar(i, 10, "en-de")
            bar.bar.refresh()
    bar.close()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    drawn = [x for x in re.split(r"[\r\n]", text) if x.strip()]
    assert any("[2/3] statistics en-de" in x and "10/10" in x and "eta" in x for x in drawn)
    assert max(len(x) for x in drawn) <= 60


class Recording(BarProgress):
    """A bar on a fake terminal that also keeps what each update asked for."""

    def __init__(self) -> None:
        super().__init__(Tty())
        self.updates: list[tuple[str, int, int]] = []

    def __call__(self, done: int, total: int, label: str) -> None:
        super().__call__(done, total, label)
        self.updates.append((self.stage, done, total))
        self.bar.refresh()


def test_one_bar_per_stage_with_one_total_and_no_repeated_word(workdir):
    """The significance stage has several tables and tests: its bar counts them all against
    one total (so the ETA is the stage's) and its description names the stage once."""
    bar = Recording()
    run("configs/wmt-significance.yaml", ["significance.method=both"], progress=bar)
    bar.close()
    stage = [(done, total) for name, done, total in bar.updates if name == "[3/4] significance"]
    assert len(stage) > 2 and len({total for _, total in stage}) == 1
    done = [d for d, _ in stage]
    assert done == sorted(done) and done[-1] == stage[0][1]  # never restarts, ends full
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bar.console.file.getvalue())
    assert "[3/4] significance en-de/sacrebleu ar" in text
    for line in re.split(r"[\r\n]", text):
        words = line.split()
        assert not any(a == b for a, b in zip(words, words[1:]) if a.isalpha()), line


def test_a_resolution_warning_is_a_line_above_the_bar_or_in_the_log(workdir):
    bar = Recording()
    run("configs/wmt-significance.yaml", ["significance.samples=10"], progress=bar)
    bar.close()
    assert "evalfw: warning: significance is out of reach: with 10 paired bootstrap " \
        "resamples" in bar.console.file.getvalue()
    buf = io.StringIO()
    run("configs/wmt-significance.yaml", ["significance.samples=10"], progress=LogProgress(buf))
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("evalfw: warning: significance is out of reach")
    assert [LINE.match(x).group(3) for x in lines[1:]] == [
        "config", "statistics", "significance", "store"]


def test_held_stage_work_is_counted_and_shown_from_its_release():
    calls = []
    work = StageWork(lambda d, t, label: calls.append((d, t, label)), 30, held=True)
    work.part("a", 10, "a bootstrap")(5, 10)
    work.part("b", 20, "b ar").complete()
    assert calls == []  # another stage has the bar
    work.release()
    work.part("a", 10, "a bootstrap").complete()
    assert calls == [(25, 30, "b ar"), (30, 30, "a bootstrap")]
