"""Retake the pictures of ``dominolog serve`` in docs/guides/club-night.md (not a test): the club season imported into a
new store, the installed server started, the board, a followed match and every table photographed
in Debian's headless Chromium at 1280 x 757 (every table at 1920 x 1080, a projector's screen), into
``docs/serve-*.png``.

    python tests/make_screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from tests.serving import chromium
    from tests.webserver import Server

    with tempfile.TemporaryDirectory(prefix="dominolog-shots-") as folder:
        tmp = Path(folder)
        db = tmp / "club.db"
        dominolog = shutil.which("dominolog") or sys.exit("the console script dominolog is not installed")
        subprocess.run([dominolog, "import", "--db", str(db), str(ROOT / "replays" / "club-season")], check=True)
        with Server(db, tmp, "--no-analyse") as s:
            driver = chromium(tmp)
            try:
                driver.set_window_size(1280, 900)
                first = s.client.get("/api/matches").json()["matches"][0]["id"]
                for name, path in (("board", "/"), ("match", f"/m/{first}"), ("tables", "/tables")):
                    if name == "tables":  # a projector's screen
                        metrics = {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}
                        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                    driver.get(s.url.rstrip("/") + path)
                    time.sleep(1.0)
                    driver.save_screenshot(str(ROOT / "docs" / f"serve-{name}.png"))
            finally:
                driver.quit()


if __name__ == "__main__":
    main()
