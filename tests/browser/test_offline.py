"""The course with the server gone, paid for as it is used. A first visit keeps what it fetched
(the page, Python, the packages its cells ran) and nothing more; the whole course offline is the
reader's choice; a reader who asked the browser to save data pays for Python only at the first Run.
The site is served from a sub-path (/course/) to prove it needs no root."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from support.browser import (KEPT_FILES, OFFLINE_MODULE, SAVE_DATA, first_visit_kept, offline_api, output_snapshot,
                             run_cell, wait_enhanced, wait_kept_offline)
from support.work import precache_manifest, precached_bytes
from support.worker_probe import python_workers, worker_marks

pytestmark = pytest.mark.browser

LESSON = "/lessons/optimization/"
FIRST_CELL = "opt-three-lr"  # NumPy only
# An init script: the page's idle moments come only while the test allows (globalThis.__idleHeld false).
IDLE_SWITCH = """(() => {
  const ask = globalThis.requestIdleCallback;
  globalThis.__idleHeld = false;
  globalThis.requestIdleCallback = (callback, options) => ask((deadline) => globalThis.__idleHeld || callback(deadline), options);
})();"""


def quiet(server, seconds=3.0, limit=120.0):
    """Wait until the host has had no request for `seconds` (the visit's downloads are over)."""
    deadline = time.monotonic() + limit
    seen, since = len(server.requested), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        if len(server.requested) != seen:
            seen, since = len(server.requested), time.monotonic()
        elif time.monotonic() - since >= seconds:
            return
    raise AssertionError("the page kept downloading")


def site_file(path: str, prefix: str = "/course/") -> str:
    """The built file a request of the host was for (a folder's page is its index.html)."""
    name = path.split("?")[0].removeprefix(prefix)
    return name + "index.html" if name.endswith("/") or name == "" else name


def test_a_first_visit_keeps_what_it_fetched_and_nothing_more(browser, course_server, built_site):
    server, base = course_server
    listed = precache_manifest(built_site)
    context = browser.new_context()  # service workers allowed here
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    assert run_cell(page, FIRST_CELL, timeout=120_000) == "done"
    quiet(server)

    fetched = {site_file(path) for path, _ in server.sent} & set(listed)
    # the page and what its first cell needs; no other lesson, no package its cells did not import
    assert any(name.endswith("pyodide.asm.wasm") for name in fetched)
    assert any("/numpy-" in name for name in fetched)
    assert not any("matplotlib" in name for name in fetched)
    assert {name for name in fetched if name.endswith(".html")} == {LESSON.strip("/") + "/index.html"}
    # kept: exactly what was fetched, each file once (the editor and the course's scripts, which
    # any page may load, and the tab's icon, which Chromium fetches only now and then and outside
    # the page's own list, come with the first page)
    kept = {url.removeprefix(base + "/") for url in page.evaluate(KEPT_FILES)}
    shell = {name for name in listed if name.startswith(("assets/pathshala/", "assets/vendor/editor.js",
                                                         "assets/vendor/dompurify/", "assets/images/favicon.png"))}
    assert kept == fetched | shell
    # each file sent once: what was fetched before the worker controlled the page is kept from the
    # browser's HTTP cache, not downloaded again
    sent = [site_file(path) for path, _ in server.sent]
    assert [name for name in set(sent) if sent.count(name) > 1] == []
    # the worker was installed only after Python's start-up (its work competes with start-up's)
    requested = [site_file(path) for path in server.requested]
    numpy_wheel = next(name for name in requested if "/numpy-" in name)
    assert requested.index("sw.js") > requested.index(numpy_wheel)
    # this host compresses what it sends: NumPy and the standard library came as their stored twins
    assert {"pyodide/stored/python_stdlib.zip", "pyodide/python_stdlib.zip"} & fetched == {"pyodide/stored/python_stdlib.zip"}
    assert {name.split("/")[1] for name in fetched if "/numpy-" in name} == {"stored"}
    status = offline_api(page, "offlineStatus")
    assert status["bytes"] == sum((built_site / name).stat().st_size for name in kept)
    assert status["totalBytes"] == precached_bytes(built_site)
    assert status["ready"] is False and status["keepAll"] is False

    server.shutdown()  # the classroom server is gone
    server.server_close()
    workers = python_workers(page)
    page.goto(base + LESSON)  # what was read works as before
    wait_enhanced(page)
    assert run_cell(page, FIRST_CELL, timeout=120_000) == "done"
    # Python's start-up snapshot was kept as the host sent it (brotli, decoded) and is used offline
    assert "pathshala:snapshot-restored" in worker_marks(workers[0])
    # and search, whose index the visit fetched once it had settled, though nobody searched then
    page.locator("input.md-search__input").click()
    page.keyboard.insert_text("ঢাল")
    page.wait_for_selector(".md-search-result__link", timeout=15_000)
    with pytest.raises(PlaywrightError):
        page.goto(base + "/demo/")  # never opened, so never downloaded
    context.close()


def test_a_host_that_sends_files_as_they_are_never_makes_the_visit_pay_the_whole_snapshot(browser, course_server,
                                                                                        built_site):
    server, base = course_server
    server.as_is = True  # no compressed copies sent: the snapshot would be 25 MB
    snapshot = built_site / "pyodide" / "python-snapshot.bin"
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    assert run_cell(page, FIRST_CELL, timeout=120_000) == "done"
    quiet(server)
    # the page cancelled it and took the gzip copy; the service worker kept neither
    sent = [(site_file(path), size) for path, size in server.sent]
    assert sum(size for name, size in sent if name == "pyodide/python-snapshot.bin") < snapshot.stat().st_size / 2, sent
    assert not any(url.endswith(".bin") for url in page.evaluate(KEPT_FILES))
    # and the wheels and the standard library as built, never their stored twins
    assert not any("/stored/" in name for name, _ in sent), sent
    assert any(name == "pyodide/python_stdlib.zip" for name, _ in sent)
    status = offline_api(page, "offlineStatus")
    assert status["totalBytes"] == precached_bytes(built_site, as_is=True)
    context.close()


def test_the_whole_course_works_offline_after_the_readers_choice(browser, course_server):
    server, base = course_server
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    status = offline_api(page, "makeAvailableOffline")
    assert status["ready"] is True and status["keepAll"] is True
    assert status["bytes"] == status["totalBytes"]
    cached = page.evaluate(KEPT_FILES)
    assert any(url.endswith("/pyodide/pyodide.asm.wasm") for url in cached)
    assert any("/pyodide/matplotlib-" in url for url in cached)

    server.shutdown()
    server.server_close()
    page.goto(base + "/demo/")  # a page never opened while the server was up
    wait_enhanced(page)
    assert run_cell(page, "demo-plot", timeout=120_000) == "done"
    kinds = [entry[0] for entry in output_snapshot(page, "demo-plot")]
    assert "figure" in kinds and "stdout" in kinds
    assert offline_api(page, "offlineStatus")["keepAll"] is True  # remembered
    context.close()


def test_save_data_fetches_python_only_at_the_first_run(browser, course_server):
    server, base = course_server
    context = browser.new_context()
    # what Chromium reports when the reader turned on its data saver
    context.add_init_script(SAVE_DATA)
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    quiet(server)
    assert not any("/pyodide/" in path for path in server.requested)
    assert run_cell(page, FIRST_CELL, timeout=120_000) == "done"
    assert any(path.endswith("pyodide.asm.wasm") for path in server.requested)
    context.close()


def test_what_python_fetched_after_the_hand_over_is_kept_when_the_reader_leaves_before_an_idle_moment(
        browser, course_server):
    """Files Python's worker fetched after the first visit's hand-over are handed to the service
    worker once the page is idle; a reader who leaves first (a reload, the next page) must not
    leave them to be fetched again: the page hands them over as it goes (pagehide)."""
    server, base = course_server
    context = browser.new_context()  # service workers allowed here
    context.add_init_script(IDLE_SWITCH)
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    first_visit_kept(page)
    # the lesson's notebook: a site file this visit never fetched, reported as Python's worker
    # reports what it fetched, in a page that has no idle moment before the reader leaves
    late = "/course" + LESSON + "optimization.ipynb"
    assert not any(path.split("?")[0] == late for path in server.requested)
    page.evaluate("globalThis.__idleHeld = true")
    page.evaluate(f"async (path) => (await import({OFFLINE_MODULE})).keepFetched([new URL(path, location.href).href])", late)
    page.goto(base + "/")
    wait_kept_offline(page, [late], timeout_s=30)
    context.close()
