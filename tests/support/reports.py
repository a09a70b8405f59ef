"""A wide run for the report tests: 4 test sets x 5 metrics (one on a 0-1 scale, one at two
levels) x 13 systems (one with a long name), with significance, buckets and a drill-down, or
the same with fewer metrics; and the headless-Chromium helpers the layout tests use."""

from __future__ import annotations

import html
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.runs import REPO, run, write_config

SAMPLE = REPO / "configs" / "sample" / "en-de"
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
LONG = "Online-Translator-With-A-Very-Long-Name-2022"
SYSTEMS = ("Strong", "Medium", "Weak", "Online-A", "Online-B", "Online-G", "Online-W", "Lan-Bridge",
           "JDExploreAcademy", "OpenNMT", "PROMT", "M2M100", LONG)

CONFIG = """\
schema_version: 1
experiment: wide
seed: 5
output_dir: {out}
test_sets:
{test_sets}
metrics:
  - name: sacrebleu
  - name: sacrebleu-eff
    effective_order: true
    level: [corpus, sentence]
  - name: nltk
    preset: nltk
  - name: chen-cherry-2
    smoothing: chen-cherry-2
    mean: {{name: geometric, percent: true}}
  - name: floor
    smoothing: floor
reports: [table, markdown, latex, html]
significance:
  baseline: Medium
  samples: 300
  buckets: ref-length
  worst_segments: 3
{extra}"""

TEST_SET = """\
  - name: {name}
    langs: en-de
    source: {data}/src.txt
    references: [{refs}]
    systems:
{systems}"""


def _degrade(lines: list[str], rng: random.Random, rate: float) -> list[str]:
    """Each word dropped with probability ``rate`` (so the 13 systems score differently)."""
    return [" ".join(w for w in line.split() if rng.random() >= rate) for line in lines]


def wide_config(tmp: Path, extra: str = "", metrics: int = 5) -> Path:
    """The wide run's config with its first ``metrics`` metrics."""
    data = tmp / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name in ("src.txt", "ref.A.txt", "ref.B.txt"):
        shutil.copy(SAMPLE / name, data / name)
    rng = random.Random(7)
    bases = [p.read_text("utf-8").splitlines() for p in sorted((SAMPLE / "sys").glob("*.txt"))]
    entries = []
    for k, system in enumerate(SYSTEMS):
        lines = _degrade(bases[k % len(bases)], rng, 0.03 * (k // len(bases)))
        (data / f"{k}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        entries.append(f"      {system}: {data}/{k}.txt")
    refs = {"newstest-A-and-B": "ref.A.txt, ref.B.txt", "newstest-A": "ref.A.txt",
            "newstest-B": "ref.B.txt", "newstest-B-and-A": "ref.B.txt, ref.A.txt"}
    sets = [TEST_SET.format(name=name, data=data, systems="\n".join(entries),
                            refs=", ".join(f"{data}/{r.strip()}" for r in files.split(",")))
            for name, files in refs.items()]
    text = CONFIG.format(out=tmp / "runs", test_sets="\n".join(sets), extra=extra)
    head, rest = text.split("metrics:\n", 1)
    entries, tail = rest.split("reports:", 1)
    kept = "  - name" + "  - name".join(entries.split("  - name")[1:metrics + 1])
    return write_config(tmp / "wide.yaml", f"{head}metrics:\n{kept}reports:{tail}")


def wide_run(tmp: Path, extra: str = "", metrics: int = 5):
    return run(str(wide_config(tmp, extra, metrics)))


def deep_plugin_dir(tmp: Path) -> Path:
    """A local plugin directory with a long path (the test suite's unigram metrics in it),
    for the Plugins table of a report."""
    plugins = tmp / "a-plugin-directory-with-a-long-name" / "metrics-written-for-this-team"
    plugins.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "tests" / "support" / "metric_plugins" / "unigram.py", plugins)
    return plugins


def browser() -> str:
    """The first Chromium-like browser on PATH; skips (with the reason) without one."""
    for name in BROWSERS:
        exe = shutil.which(name)
        if exe:
            return exe
    pytest.skip(f"no {', '.join(BROWSERS)} on PATH: the layout is not measured")


def dump_dom(exe: str, page: Path | str, profile: Path, width: int, height: int = 900) -> str:
    """The DOM of ``page`` (a file, or a URL on 127.0.0.1) after load in a ``width`` x
    ``height`` headless window. No other host is reached: every other name resolves to
    nothing."""
    url = page if isinstance(page, str) else page.resolve().as_uri()
    args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
            f"--window-size={width},{height}",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--dump-dom", url]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


PROBE = Path(__file__).with_name("layout_probe.js")


def probe_script(probe: Path) -> str:
    """A probe's script with the helper it calls (frames_probe.js) before it."""
    return Path(__file__).with_name("frames_probe.js").read_text("utf-8") + probe.read_text(
        "utf-8")


def measure_layout(exe: str, page: Path, tmp: Path, widths: tuple[int, ...]
                   ) -> list[dict[str, Any]]:
    """The layout of ``page`` at each of ``widths`` (CSS px): the report is shown in iframes
    of those widths (a headless window cannot be narrower than ~500 px) and measured by
    ``layout_probe.js`` once they have loaded."""
    frames = "".join(
        f'<iframe style="display:block;border:0;width:{w}px;height:900px" '
        f'srcdoc="{html.escape(page.read_text("utf-8"), quote=True)}"></iframe>' for w in widths)
    harness = tmp / "harness.html"
    harness.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
                       f'<body style="margin:0">{frames}<script>{probe_script(PROBE)}'
                       "</script></body></html>", encoding="utf-8")
    dom = dump_dom(exe, harness, tmp / "profile", max(widths) + 100)
    start = dom.rfind('<pre id="layout-probe">')
    assert start >= 0, "the probe did not report (a frame never loaded?)"
    text = dom[start + len('<pre id="layout-probe">'):dom.index("</pre>", start)]
    return json.loads(html.unescape(text))


def screenshot(exe: str, page: Path, tmp: Path, shot: Path, width: int, height: int,
               top: int = 0, page_height: int = 20000) -> Path:
    """A PNG of ``page`` at ``width`` CSS px with every ``<details>`` open, the part from
    ``top`` down ``height`` px: the page is shown in a frame ``page_height`` tall moved up by
    ``top`` (a headless window can neither be narrower than ~500 px nor scroll)."""
    frame = (f'<iframe id="page" style="display:block;border:0;width:{width}px;'
             f'height:{page_height}px;margin-top:-{top}px" '
             f'srcdoc="{html.escape(page.read_text("utf-8"), quote=True)}"></iframe>')
    opener = ("var f=document.getElementById('page');function o(){f.contentDocument"
              ".querySelectorAll('details').forEach(function(d){d.open=true;});}"
              "if(f.contentDocument&&f.contentDocument.readyState==='complete'&&"
              "f.contentDocument.body&&f.contentDocument.body.childElementCount)o();"
              "else f.addEventListener('load',o);")
    harness = tmp / f"shot-{width}-{top}.html"
    harness.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
                       f'<body style="margin:0;overflow:hidden">{frame}<script>{opener}</script>'
                       "</body></html>", encoding="utf-8")
    args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={tmp / 'profile'}", "--hide-scrollbars",
            f"--window-size={width},{height}", "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--screenshot={shot}", harness.resolve().as_uri()]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and shot.is_file(), out.stderr[-2000:]
    return shot
