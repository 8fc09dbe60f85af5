"""The built course served by the classroom host (`./pathshala host`, py_lessons.host) in its own
process: production headers on the real site, a page cross-origin isolated from its first load
(no service worker needed) whose Stop keeps variables, and, on a LAN-style origin (plain http,
not localhost: a made-up name that Chromium maps to 127.0.0.1), the Bangla notice of what such an
address lacks, while cells still run. Traffic to 127.0.0.1 only."""

from __future__ import annotations

import gzip
import shutil

import brotli
import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import (cell, output_snapshot, replace_code, run_cell, stop_keeps_session_variables, wait_enhanced,
                             wait_state)
from support.host import get, start_host, stop_host
from support.local_server import CHROMIUM_ARGS

pytestmark = pytest.mark.browser

LAN_NAME = "classroom.test"
NOTICE = "[data-lan-notice]"


@pytest.fixture(scope="module")
def host(built_site):
    process, url = start_host(built_site)
    yield url
    stop_host(process)


def test_the_host_sends_the_course_production_style(host, built_site):
    page = (built_site / "guide" / "index.html").read_bytes()
    status, headers, body = get(host, "/guide/", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and brotli.decompress(body) == page  # the build's brotli copy, smaller than its gzip one
    assert headers["content-encoding"] == "br" and headers["content-type"] == "text/html; charset=utf-8"
    status, headers, body = get(host, "/guide/", {"Accept-Encoding": "gzip, deflate"})  # plain http on a LAN
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == page
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["cross-origin-embedder-policy"] == "require-corp"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert headers["cache-control"] == "no-cache"
    assert get(host, "/guide/", {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})[0] == 304

    wasm = (built_site / "pyodide" / "pyodide.asm.wasm").read_bytes()
    status, headers, body = get(host, "/pyodide/pyodide.asm.wasm", {"Range": "bytes=4096-8191"})
    assert status == 206 and body == wasm[4096:8192] and headers["content-range"] == f"bytes 4096-8191/{len(wasm)}"
    status, headers, body = get(host, "/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip"})
    assert headers["content-type"] == "application/wasm" and gzip.decompress(body) == wasm

    # kept for a year: only names with a content hash; the service worker and the course's own
    # runtime wheel (same name on every build) are revalidated
    [bundle] = (built_site / "assets" / "javascripts").glob("bundle.*.min.js")
    assert "immutable" in get(host, f"/assets/javascripts/{bundle.name}")[1]["cache-control"]
    [runtime] = (built_site / "pyodide").glob("py_lessons-*.whl")
    for path in ("/sw.js", f"/pyodide/{runtime.name}", "/assets/pathshala/site.js"):
        assert get(host, path)[1]["cache-control"] == "no-cache", path


def test_isolated_from_the_first_load_so_stop_keeps_variables(browser, host):
    context = browser.new_context(service_workers="block")  # the host's headers alone
    page = context.new_page()
    page.goto(host + "/guide/")
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is True
    assert page.locator(NOTICE).count() == 0  # 127.0.0.1 is a secure context: nothing to say

    replace_code(page, "guide-session-first", "total = 41")
    assert run_cell(page, "guide-session-first") == "done"  # Python has loaded: a Stop now meets the loop
    assert stop_keeps_session_variables(page, t("cell.state.stopped")) == str(41 + 1)
    context.close()


def test_stop_waits_for_a_python_slow_to_end_and_says_so(browser, host):
    """A run that takes its time to end after Stop (its KeyboardInterrupt handler works on for
    4 s, longer than Python is given to take the interrupt) is waited for once Python has taken it,
    the cell saying it is stopping, and Python is not replaced: its variables stay. With a fixed
    grace from the click (1 s, then 3 s) a run like it was restarted (the fresh-clone CI's Stop
    failures on a loaded machine)."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(host + "/guide/")
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is True
    replace_code(page, "guide-session-first", "import time\ntotal = 41\ntry:\n    while True:\n        pass\n"
                                              "except KeyboardInterrupt:\n    began = time.monotonic()\n"
                                              "    while time.monotonic() - began < 4.0:\n        pass\n    raise")
    cell(page, "guide-session-first").locator('[data-action="run"]').click()
    page.locator('[data-cell-id="guide-session-first"][data-python-began]').wait_for(timeout=60_000)
    cell(page, "guide-session-first").locator('[data-action="stop"]').click()
    status = cell(page, "guide-session-first").locator("[data-status]")
    assert status.inner_text() == t("cell.state.stopping")
    assert wait_state(page, "guide-session-first", states=("error",), timeout=20_000) == "error"
    assert status.inner_text() == t("cell.state.stopped")
    replace_code(page, "guide-session-second", "print(total + 1)")
    assert run_cell(page, "guide-session-second") == "done"
    assert output_snapshot(page, "guide-session-second") == [["stdout", f"{41 + 1}\n"]]
    context.close()


def test_a_run_that_never_ends_after_stop_is_ended_by_a_fresh_python(browser, host):
    """Python took the interrupt, but the run's handler loops on: Stop still ends it, by a fresh
    Python, and says the variables are gone; the next run works."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(host + "/guide/")
    wait_enhanced(page)
    replace_code(page, "guide-session-first", "try:\n    while True:\n        pass\n"
                                              "except KeyboardInterrupt:\n    while True:\n        pass")
    cell(page, "guide-session-first").locator('[data-action="run"]').click()
    page.locator('[data-cell-id="guide-session-first"][data-python-began]').wait_for(timeout=60_000)
    cell(page, "guide-session-first").locator('[data-action="stop"]').click()
    assert wait_state(page, "guide-session-first", states=("error",), timeout=30_000) == "error"
    assert cell(page, "guide-session-first").locator("[data-status]").inner_text() == t("cell.state.restarted")
    replace_code(page, "guide-session-second", "print(6 * 7)")
    assert run_cell(page, "guide-session-second") == "done"
    assert output_snapshot(page, "guide-session-second") == [["stdout", "42\n"]]
    context.close()


def test_on_a_lan_style_origin_the_page_says_what_is_missing_and_cells_still_run(browser, host):
    port = host.rsplit(":", 1)[1]
    lan = browser.browser_type.launch(executable_path=shutil.which("chromium"),
                                      args=CHROMIUM_ARGS + [f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
    try:
        page = lan.new_page(viewport={"width": 360, "height": 800})
        page.goto(f"http://{LAN_NAME}:{port}/demo/")
        wait_enhanced(page)
        assert page.evaluate("[isSecureContext, crossOriginIsolated]") == [False, False]
        notice = page.locator(NOTICE)
        # this Chromium suspends WebAssembly (JSPI), so input() waits here: only Stop's caveat is said
        expected = " ".join(t(key) for key in ("host.insecure.works", "host.insecure.offline",
                                               "host.insecure.python_suspend", "host.insecure.todo"))
        page.wait_for_function("(text) => document.querySelector('[data-lan-notice] [role=status]')"
                               "?.textContent === text", arg=expected)
        assert notice.is_visible() and notice.get_attribute("aria-label") == t("host.insecure.label")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert serious_violations(page) == []

        built = output_snapshot(page, "demo-numpy")
        assert run_cell(page, "demo-numpy") == "done"
        assert output_snapshot(page, "demo-numpy") == built

        notice.locator('[data-action="dismiss-lan-notice"]').click()
        assert notice.count() == 0
        page.reload()  # dismissed for the rest of the visit
        wait_enhanced(page)
        assert page.locator(NOTICE).count() == 0
    finally:
        lan.close()
