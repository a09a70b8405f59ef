"""Screenshots of pages of the built documentation site, to look at before calling a page done.

    mkdocs build --strict --site-dir /tmp/site
    python docs/tools/site_screenshots.py /tmp/site OUTDIR index.md significance.md

writes OUTDIR/<page>-<width>.png at 420, 1024 and 1400 CSS px (the top 1600 px of each page).
The site is served on 127.0.0.1 while the pictures are taken; a page is shown in a frame of
the width asked for (a headless window cannot be narrower than about 500 px).
"""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

WIDTHS = (420, 1024, 1400)
HEIGHT = 1600


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def page_url(page: str) -> str:
    return "/" if page == "index.md" else "/" + page.removesuffix(".md") + "/"


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    site, out, pages = Path(argv[0]), Path(argv[1]), argv[2:]
    out.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with tempfile.TemporaryDirectory() as profile:
            for page in pages:
                for width in WIDTHS:
                    harness = f"shot-{width}.html"
                    (site / harness).write_text(
                        '<!DOCTYPE html><html><body style="margin:0;overflow:hidden">'
                        f'<iframe style="border:0;width:{width}px;height:{HEIGHT}px" '
                        f'src="{page_url(page)}"></iframe></body></html>', encoding="utf-8")
                    shot = out / f"{page.removesuffix('.md')}-{width}.png"
                    subprocess.run(
                        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         f"--user-data-dir={profile}", "--hide-scrollbars",
                         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                         f"--window-size={width},{HEIGHT}", f"--screenshot={shot}",
                         f"{base}/{harness}"], check=True, capture_output=True, timeout=120)
                    (site / harness).unlink()
                    print(shot)
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
