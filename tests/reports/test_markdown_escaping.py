"""The Markdown report embeds names (systems, test sets, metrics, the baseline) as text: a
real Markdown renderer (markdown-it-py, CommonMark with HTML and GFM tables and
strikethrough) makes no element of any of them."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.reports.reporters import md_escape
from tests.support.bounded import time_bound  # noqa: F401  (fixture: each test bounded)

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py renders the report")

HOSTILE = [
    '<img src=x onerror="alert(1)">',
    "<script>alert(1)</script>",
    "**bold** _em_ `code` ~~gone~~",
    "[link](http://example.com) ![i](x.png)",
    "http://example.com www.example.com a@example.com",
    "a|b\\|c",
    "&lt;b&gt; &amp;",
    "# heading",
    "1. item",
    "- item",
]

#: the elements the report itself makes
OWN = {"table", "thead", "tbody", "tr", "th", "td", "p"}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)


def rendered(markdown: str) -> tuple[set[str], str]:
    md = markdown_it.MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    html = md.render(markdown)
    parser = Tags()
    parser.feed(html)
    return parser.tags, html


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("line", [False, True])
def test_an_escaped_name_renders_as_its_own_text(name, line):
    text = md_escape(name, line=line)
    source = text if line else f"| x |\n|---|\n| {text} |\n"
    tags, html = rendered(source)
    assert tags <= OWN, html
    # and the text shown is the name itself
    shown = html.replace("<p>", "").replace("</p>", "").strip() if line else \
        html.split("<td>")[1].split("</td>")[0]
    import html as html_module

    assert html_module.unescape(shown) == name


CONFIG = """\
schema_version: 1
experiment: md
output_dir: runs
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems:
{systems}
metrics:
  - name: bleu
reports: [markdown]
significance: {{baseline: {baseline}, samples: 20}}
"""


def test_the_markdown_report_of_hostile_system_names_makes_no_element(tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    names = [n for n in HOSTILE if "/" not in n and "\\" not in n]
    Path("ref.txt").write_text("the cat sat on the mat\nhello there world\n", "utf-8")
    systems = []
    for i, name in enumerate(names):
        Path(f"s{i}.txt").write_text("the cat sat\nhello world\n" if i else "a cat\nhi\n",
                                     "utf-8")
        systems.append(f"      {json.dumps(name)}: s{i}.txt")
    Path("md.yaml").write_text(CONFIG.format(systems="\n".join(systems),
                                             baseline=json.dumps(names[0])), "utf-8")
    assert main(["run", "md.yaml", "--quiet"]) == 0
    report = next(Path("runs/md").glob("*/report-markdown.md")).read_text("utf-8")
    tags, html = rendered(report)
    assert tags <= OWN, html
    assert "Paired tests" in html and html.count("<table>") == 2
