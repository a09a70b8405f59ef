"""Makes the screenshots of the HTML report that the Start page shows (docs/images/).

A real run: ``configs/wmt-significance.yaml`` on the WMT22 English-German systems beside the
repository (``../shared/data/wmt22``, or ``$EVALFW_SHARED_DIR/data/wmt22``), its HTML report
rendered by ``evalfw show``, photographed by headless Chromium at 1400 and 420 CSS pixels.
Run it from the repository after a change to the report, and look at the pictures:

    python docs/tools/report_screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.support.reports import browser, screenshot  # noqa: E402
from tests.support.shared_data import WMT22  # noqa: E402

IMAGES = REPO / "docs" / "images"
#: (file, width, height) of each picture, in CSS pixels
SHOTS = (("report-wide.png", 1400, 1000), ("report-phone.png", 420, 1300))


def main() -> int:
    if not WMT22.is_dir():
        print(f"report_screenshots: the WMT22 data is not at {WMT22}", file=sys.stderr)
        return 2
    exe = browser()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(REPO / "configs", work / "configs")
        evalfw = [sys.executable, "-m", "evalfw"]
        subprocess.run([*evalfw, "run", "configs/wmt-significance.yaml", "--quiet",
                        "--set", f"data_root={WMT22}",
                        "--set", "significance.baseline=Online-W"],
                       cwd=work, check=True, stdout=subprocess.DEVNULL)
        page = work / "report.html"
        with page.open("w", encoding="utf-8") as out:
            subprocess.run([*evalfw, "show", "wmt-significance", "--format", "html"],
                           cwd=work, check=True, stdout=out)
        IMAGES.mkdir(exist_ok=True)
        for name, width, height in SHOTS:
            shot = screenshot(exe, page, work, work / name, width, height)
            shutil.copyfile(shot, IMAGES / name)
            print(f"{IMAGES / name}: {width} px wide, {(IMAGES / name).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
