"""What stepping through costs (issue 25): each lesson cell run, then traced, in the built site's
Pyodide (the build's runner, the same runtime wheel a reader's worker runs), and a 10⁶-step loop
traced in Chromium while the page's frames are watched.

    ./pathshala bench --trace
    PYTHONPATH=tests .venv/bin/python -m support.bench_trace SITE

Per lesson page: Python's seconds for its cells run plainly and traced (each in a session of its
own, cells in page order, as a reader runs them), their ratio, the steps recorded and how many
cells reached the bound. In the browser: seconds from the click to the view and the longest gap
between animation frames meanwhile (the trace runs in the worker: the page should not wait).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import statistics
from pathlib import Path

from py_lessons.plugin.execute.runner import PyodideRunner

from .bench_lighthouse import lesson_pages
from .local_server import CHROMIUM_ARGS, serve

CELL = re.compile(r'<div class="pycell" ([^>]*)>.*?<pre class="pycell-code" tabindex="0">(.*?)</pre>', re.S)
ATTR = re.compile(r'data-([\w-]+)="([^"]*)"')
MILLION = "i = 0\nwhile i < 10**6:\n    i += 1\n"


def page_cells(page: Path) -> list[dict]:
    """The page's runnable cells in order: id, session, code (exercise editors left out)."""
    cells = []
    for attrs, code in CELL.findall(page.read_text(encoding="utf-8")):
        data = dict(ATTR.findall(attrs))
        if data.get("cell-kind") == "exercise":
            continue
        cells.append({"id": data["cell-id"], "session": data.get("session"), "code": html.unescape(code)})
    return cells


def overhead(site: Path) -> dict:
    runner = PyodideRunner(site / "pyodide")
    pages = {}
    try:
        runner.run("pass", None, "warm-up", 120)
        for path in lesson_pages(site):
            if not path.startswith("/lessons/"):
                continue
            cells = page_cells(site / path.strip("/") / "index.html")
            if not cells:
                continue
            runner.reset()
            run_s = trace_s = 0.0
            steps = limited = 0
            for cell in cells:
                plain = runner.run(cell["code"], cell["session"] and f"plain::{cell['session']}", cell["id"], 300)
                traced = runner.run(cell["code"], cell["session"] and f"trace::{cell['session']}", cell["id"], 300,
                                    trace={})
                run_s += plain["seconds"]
                trace_s += traced["seconds"]
                recording = traced["result"].get("trace", {})
                steps += len(recording.get("steps", []))
                limited += bool(recording.get("limited"))
            pages[path] = {"cells": len(cells), "run_s": round(run_s, 3), "trace_s": round(trace_s, 3),
                           "trace_to_run": round(trace_s / run_s, 2) if run_s else None,
                           "steps": steps, "cells_at_the_bound": limited}
    finally:
        runner.close()
    ratios = [page["trace_to_run"] for page in pages.values() if page["trace_to_run"]]
    return {"pages": pages, "median_trace_to_run": statistics.median(ratios), "max_trace_to_run": max(ratios)}


FRAMES = """() => {
  window.__gaps = [];
  let last = performance.now();
  const tick = (now) => { window.__gaps.push(now - last); last = now; if (!window.__stopFrames) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""


def million_in_the_page(site: Path, repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    seconds, gaps = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            for _ in range(repeat):
                context = browser.new_context(service_workers="block")
                page = context.new_page()
                page.goto(url + "/demo/")
                page.wait_for_selector('[data-cell-id="demo-streams"][data-enhanced]')
                cell = page.locator('[data-cell-id="demo-streams"]')
                cell.locator('[data-action="run"]').click()  # Python loaded first: the trace alone is timed
                page.wait_for_selector('[data-cell-id="demo-streams"][data-state="done"]', timeout=120_000)
                cell.locator("[data-editor]").click()
                page.wait_for_selector('[data-cell-id="demo-streams"][data-editor-state="ready"]')
                cell.locator(".cm-content").click()
                page.keyboard.press("Control+A")
                page.keyboard.insert_text(MILLION)
                page.evaluate(FRAMES)
                began = page.evaluate("performance.now()")
                cell.locator('[data-action="trace"]').click()
                page.wait_for_selector('[data-cell-id="demo-streams"] [data-trace]', timeout=120_000)
                ended = page.evaluate("performance.now()")
                seconds.append((ended - began) / 1000)
                gaps.append(page.evaluate("() => { window.__stopFrames = true; return Math.max(...window.__gaps); }"))
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return {"click_to_view_s": [round(s, 3) for s in seconds], "max_frame_gap_ms": [round(g, 1) for g in gaps],
            "median_click_to_view_s": round(statistics.median(seconds), 3),
            "median_max_frame_gap_ms": round(statistics.median(gaps), 1)}


def trace_bench(site: Path, repeat: int) -> dict:
    return {"lesson_cells": overhead(site), "million_step_loop": million_in_the_page(site, repeat)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps({"trace": trace_bench(args.site, args.repeat)}, indent=1))


if __name__ == "__main__":
    main()
