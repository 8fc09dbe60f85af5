""""My work" with a big file: how long the home page takes to read, preview and store N items
(issue 21: 5,000 items froze the page 21 s, 30,000 crashed the tab); prints JSON.

    ./pathshala bench --work-import 30000 [--repeat 5]

Each repeat, in a fresh context on the built site (127.0.0.1): the file (N edited cells, ~100 bytes
each) is chosen -> the preview is shown (read + checked + merge plan), then "apply" -> the status
says imported (stored). Beside them, in the same page, the floor no import can beat: the browser's
bare JSON.parse of the text plus one localStorage.setItem per item (the same keys under another
prefix, then removed), and the import's ratio to it, measured in the same run.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
from pathlib import Path

from .local_server import CHROMIUM_ARGS, serve
from .work import namespace, work_file

STATE = "(state) => document.querySelector('[data-component=\"my-work\"]').dataset.state === state"


def bench_file(ns: str, count: int) -> str:
    return work_file(ns, [{"key": f"cell:/lessons/optimization/:bench-{i}", "value": f"print({i})",
                                  "saved": "2020-01-01T00:00:00Z"} for i in range(count)], course="bench")


FLOOR = """(text) => {
    let t0 = performance.now();
    const { items } = JSON.parse(text);
    const parse = performance.now() - t0;
    t0 = performance.now();
    for (const item of items) localStorage.setItem(`floor:${item.key}`, JSON.stringify(item.value));
    return [parse, performance.now() - t0]; }"""


def _opened(browser, url: str):
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector('[data-component="my-work"] [data-work-actions]:not([hidden])')
    return context, page


def _one(browser, url: str, path: Path, text: str) -> dict:
    context, page = _opened(browser, url)
    page.evaluate("window.t0 = performance.now()")
    page.locator('[data-action="import-work"]').set_input_files(str(path))
    page.wait_for_function(STATE, arg="preview", timeout=300_000)
    preview_ms = page.evaluate("performance.now() - window.t0")
    page.evaluate("window.t0 = performance.now()")
    page.locator('[data-action="apply-import"]').click()
    page.wait_for_function(STATE, arg="imported", timeout=300_000)
    apply_ms = page.evaluate("performance.now() - window.t0")
    context.close()
    context, page = _opened(browser, url)  # the floor in a fresh context: storage as empty as the import's
    parse_ms, set_ms = page.evaluate(FLOOR, text)
    context.close()
    return {"preview_ms": preview_ms, "apply_ms": apply_ms, "json_parse_ms": parse_ms, "bare_set_items_ms": set_ms}


def work_import(site: Path, count: int, repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    text = bench_file(namespace(site), count)
    folder = Path(tempfile.mkdtemp(prefix="pathshala-work-"))
    path = folder / "work.json"
    path.write_text(text, encoding="utf-8")
    server, url = serve(site)
    runs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        runs = [_one(browser, url, path, text) for _ in range(repeat)]
        browser.close()
    server.shutdown()
    shutil.rmtree(folder, ignore_errors=True)
    medians = {name: round(statistics.median(run[name] for run in runs), 1) for name in runs[0]}
    return {"items": count, "file_bytes": len(text.encode()), "medians": medians,
            "import_ms": round(medians["preview_ms"] + medians["apply_ms"], 1),
            "ratio_import_to_floor": round((medians["preview_ms"] + medians["apply_ms"])
                                           / (medians["json_parse_ms"] + medians["bare_set_items_ms"]), 2),
            "runs": [{name: round(value, 1) for name, value in run.items()} for run in runs]}
