"""The documentation site builds with ``mkdocs build --strict``, its generated references
match the code, and every page reads on a phone and a wide screen: in headless Chromium at
420 and 1400 CSS px no page scrolls sideways and wide code blocks scroll inside themselves.

The site needs the docs extra (``pip install -e '.[docs]'``); without it these tests skip,
saying so, except in CI (CI=true), where ``.ci/run`` installs it and a skip would hide a
broken site.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from tests.support.reports import browser, dump_dom, probe_script
from tests.support.shared_data import REPO

pytestmark = pytest.mark.slow
WIDTHS = (420, 1400)
PROBE = REPO / "tests" / "support" / "site_probe.js"
#: a page the probe must find fault with: it scrolls sideways, and its code block does not
#: scroll inside itself
CONTROL = ("<!DOCTYPE html><html><body><div style='width:2000px'>wide</div>"
           "<pre style='overflow:visible;width:300px'><code style='overflow:visible'>"
           + "x" * 400 + "</code></pre></body></html>")


def _need_mkdocs() -> None:
    missing = [m for m in ("mkdocs", "material", "mkdocstrings") if importlib.util.find_spec(m)
               is None]
    if missing:
        message = (f"{', '.join(missing)} not installed: the documentation site is not built "
                   "(pip install -e '.[docs]')")
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; .ci/run installs it before the tests")
        pytest.skip(message)


def nav_pages() -> list[str]:
    """The Markdown files the site's navigation lists, in order."""
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))

    def walk(items: list) -> Iterator[str]:
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from walk(value)
            else:
                yield value

    return list(walk(config["nav"]))


def html_path(page: str) -> str:
    """Where MkDocs writes a page (directory URLs): index.md -> index.html, a.md -> a/."""
    return "index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _need_mkdocs()
    out = tmp_path_factory.mktemp("site") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return out


def test_every_page_of_docs_is_in_the_navigation():
    listed = nav_pages()
    on_disk = sorted(p.name for p in (REPO / "docs").glob("*.md"))
    assert sorted(listed) == on_disk
    assert len(listed) == len(set(listed))


def test_the_site_builds_every_page(site: Path):
    for page in nav_pages():
        assert (site / html_path(page)).is_file(), page


def _text(site: Path, page: str, tags: bool = True) -> str:
    """A built page's HTML, or with ``tags=False`` its text (highlighted code splits words
    into spans)."""
    text = (site / html_path(page)).read_text(encoding="utf-8")
    return html.unescape(text if tags else re.sub(r"<[^>]+>", "", text))


def test_the_command_reference_has_every_command(site: Path):
    from evalfw.cli.main import COMMANDS

    text = _text(site, "cli.md")
    for command in COMMANDS:
        assert f"usage: evalfw {command}" in text, command
    assert "usage: evalfw-sacrebleu" in text
    assert "usage: evalfw runs prune" in text and "usage: evalfw trust add" in text


def test_the_config_reference_has_every_key(site: Path):
    from evalfw.config import static_schema

    text = _text(site, "config-reference.md")
    schema = static_schema()
    for key in schema["properties"]:
        assert key in text, key
    for key in schema["properties"]["significance"]["properties"]:
        assert key in text, key
    for component in ("13a", "flores200", "add-k", "chen-cherry-2", "html", "dask", "language"):
        assert f"<code>{component}</code>" in text, component


def test_the_hook_reference_has_every_hook(site: Path):
    from evalfw.host.hookspecs import Hookspecs

    text = _text(site, "plugins.md", tags=False)
    hooks = [name for name in vars(Hookspecs) if name.startswith("evalfw_register_")]
    assert len(hooks) >= 11
    for name in hooks:
        assert f"def {name}()" in text, name
    assert ".. code-block::" not in text and ":class:" not in text


def test_the_api_reference_is_rendered_from_the_docstrings(site: Path):
    text = _text(site, "python-api.md")
    for name in ("corpus_bleu", "load_run", "RunResult", "Metric", "segment_statistics",
                 "evalfw.compat.nltk"):
        assert name in text, name
    assert ":class:" not in text and ":func:" not in text


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (argparse's name)
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1 (one origin, so the probe may read the pages'
    DOM), stopped after the module's tests."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet,
                                                                     directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def layouts(site: Path, served: str, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """What the probe measured of every page at every width."""
    exe = browser()
    (site / "probe-control.html").write_text(CONTROL, encoding="utf-8")
    frames = ('<iframe data-page="control" style="display:block;border:0;width:420px;'
              'height:300px" src="/probe-control.html"></iframe>')
    frames += "".join(
        f'<iframe data-page="{page}" style="display:block;border:0;width:{width}px;'
        f'height:700px" src="/{html_path(page)}"></iframe>'
        for width in WIDTHS for page in nav_pages())
    (site / "probe.html").write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
        f'{frames}<script>{probe_script(PROBE)}</script></body></html>',
        encoding="utf-8")
    tmp = tmp_path_factory.mktemp("chromium")
    dom = dump_dom(exe, f"{served}/probe.html", tmp / "profile", max(WIDTHS) + 100)
    start = dom.rfind('<pre id="site-probe">')
    assert start >= 0, "the probe did not report (a page never loaded?)"
    found = json.loads(html.unescape(dom[start + len('<pre id="site-probe">'):
                                         dom.index("</pre>", start)]))
    assert len(found) == 1 + len(WIDTHS) * len(nav_pages())
    control = found.pop(0)
    assert control["sideways"] > 1000 and control["offenders"], control
    assert control["code"] and "does not scroll" in control["code"][0], control
    return found


@pytest.mark.browser
def test_no_page_scrolls_sideways(layouts: list[dict]):
    wide = [(m["page"], m["width"], m["sideways"], m["offenders"]) for m in layouts
            if m["sideways"] > 0 or m["offenders"]]
    assert not wide, wide


@pytest.mark.browser
def test_code_blocks_scroll_inside_themselves(layouts: list[dict]):
    bad = [(m["page"], m["width"], m["code"]) for m in layouts if m["code"]]
    assert not bad, bad
    # at 420 px the command reference's help texts are wider than the screen: they must be
    # seen scrolling in their boxes, or the probe measured nothing
    phone_cli = next(m for m in layouts if m["page"] == "cli.md" and m["width"] == 420)
    assert phone_cli["scrolling"] >= 5, phone_cli
