"""What a first visit costs a learner on prepaid data (issue 22: 46.7 MB in the first minute,
unasked, when the service worker kept every file); prints JSON.

    ./pathshala bench --first-visit 60 [--repeat 3]

Each repeat, in a fresh phone-sized context on the built site (127.0.0.1, the build's gzip copies
sent like a static host's): lesson 1 is opened and left alone for SECONDS; the bytes are what the
host sent (bodies, compressed as sent, counted by the server), beside what the service worker
then keeps (uncompressed, its own count) and whether anything beyond the page's own needs came
(another page, matplotlib). In the same run the bare Pyodide floor (support/bench_floor.py: the
official Pyodide and NumPy, nothing else) is opened the same way, for the ratio.
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from .bench_floor import write_floor_pages
from .browser import offline_api
from .local_server import CHROMIUM_ARGS, serve

LESSON = "/lessons/optimization/"


def _visit(browser, server, url: str, seconds: float, *, site: bool) -> dict:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                                  service_workers="allow" if site else "block")
    server.sent.clear()
    page = context.new_page()
    page.goto(url)
    time.sleep(seconds)
    sent = list(server.sent)
    out = {"bytes_sent": sum(size for _, size in sent), "files_sent": len(sent)}
    if site:
        out["pages_sent"] = sorted({path for path, _ in sent if path.endswith("/") or path.endswith(".html")})
        out["matplotlib_sent"] = any("matplotlib" in path for path, _ in sent)
        out["kept_bytes"] = offline_api(page, "offlineStatus")["bytes"]
    context.close()
    return out


def first_visit(site: Path, seconds: float, repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    floor_pages = write_floor_pages(site)
    server, url = serve(site)
    runs, floors = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            for _ in range(repeat):
                floors.append(_visit(browser, server, url + floor_pages["numpy"], seconds, site=False))
                runs.append(_visit(browser, server, url + LESSON, seconds, site=True))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    site_bytes = statistics.median(run["bytes_sent"] for run in runs)
    floor_bytes = statistics.median(run["bytes_sent"] for run in floors)
    return {"lesson": LESSON, "seconds": seconds, "median_mb_sent": round(site_bytes / 1e6, 2),
            "floor_median_mb_sent": round(floor_bytes / 1e6, 2), "ratio_to_floor": round(site_bytes / floor_bytes, 2),
            "runs": runs, "floor_runs": floors}
