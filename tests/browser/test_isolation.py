"""Cross-origin isolation on a host that sends no special headers: the site's service worker adds
COOP/COEP to the site's own responses, so from the second load on Stop keeps variables (Pyodide's
interrupt buffer) and input() waits for the reader on shared memory. Before that (a first visit)
and where isolation is impossible (plain http on a name that is not localhost, made here with
Chromium's --host-resolver-rules), input() waits by suspending Python (WebAssembly JSPI); in a
browser without JSPI it says what to do instead."""

from __future__ import annotations

import os
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

from support.a11y import serious_violations
from support.browser import (answer_input, cell, first_visit_kept, output_snapshot, replace_code, run_cell,
                             stop_keeps_session_variables, wait_enhanced, wait_kept_offline, wait_state)
from support.local_server import CHROMIUM_ARGS, serve
from support.site import ROOT
from py_lessons.runtime.catalogue import t

pytestmark = pytest.mark.browser

GUIDE = "/guide/"
EXPLORABLE = '[data-component="explorable"][data-id="guide-lr"]'


@pytest.fixture()
def plain_host(built_site):
    """The built site on a static host with no COOP/COEP headers (checked, not assumed)."""
    server, url = serve(built_site)
    headers = urllib.request.urlopen(url + GUIDE).headers
    assert headers.get("Cross-Origin-Opener-Policy") is None and headers.get("Cross-Origin-Embedder-Policy") is None
    yield server, url
    server.shutdown()
    server.server_close()


def fetched_from_host(server, since=0):
    """What the page fetched from the host (from the `since`-th request on), apart from the
    browser's look for a newer sw.js."""
    return [path for path in server.requested[since:] if path.split("?")[0] != "/sw.js"]


def stdin_of(cell_id):
    """The lines a guide cell's input() was given at build, from the lesson source itself."""
    source = (ROOT / "site" / "guide" / "index.md").read_text(encoding="utf-8")
    return re.search(rf'```pycell id="{cell_id}" stdin="([^"]*)"', source).group(1).split("|")


def test_isolated_after_the_first_load_so_input_works_and_stop_keeps_variables(browser, plain_host):
    server, url = plain_host
    context = browser.new_context()  # service workers allowed
    page = context.new_page()
    page.goto(url + GUIDE)
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is False
    # first visit, not isolated yet: input() waits all the same, Python suspended (JSPI)
    lines = stdin_of("guide-input")
    built = output_snapshot(page, "guide-input")
    cell(page, "guide-input").locator('[data-action="run"]').click()
    answer_input(page, "guide-input", "আপনার নাম?", lines[0])
    answer_input(page, "guide-input", "কত বার শুভেচ্ছা?", lines[1])
    assert wait_state(page, "guide-input") == "done"
    assert output_snapshot(page, "guide-input") == built
    first_visit_kept(page)  # installed once Python had started, then handed what the visit fetched
    # the reader moves the explorable's slider: Python loads matplotlib and its Bangla font for it
    # (the guide's prefetch may have begun that, before the hand-over or after it); once drawn, each
    # file the visit fetched is kept, those fetched after the hand-over once the page is idle: a
    # reload before that fetched them again (the CI met it: the Bangla font and matplotlib's list)
    explorable = page.locator(EXPLORABLE)
    explorable.locator('input[data-param="lr"]').focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.dataset.values && el.dataset.state === 'ready'",
                           arg=explorable.element_handle(), timeout=120_000)
    wait_kept_offline(page, fetched_from_host(server))

    server.requested.clear()
    page.reload()
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is True
    page.wait_for_function("() => document.querySelector('[data-cell-id]') && performance.getEntriesByType('resource').length > 5")
    # every file now comes from the offline copy, with the isolation headers: the host is asked
    # only for Python's start-up snapshot, which the first visit did not use (not isolated, a
    # page that calls input(): Python started without it, to suspend for the line)
    assert set(fetched_from_host(server)) <= {"/pyodide/python-snapshot.bin"}, server.requested

    # input(): the reader answers with the lines the build was given (Enter once, the Send button
    # once), and the page reproduces the build's output exactly
    cell(page, "guide-input").locator('[data-action="run"]').click()
    field = cell(page, "guide-input").locator("[data-input]")
    field.wait_for(state="visible", timeout=90_000)
    assert field.evaluate("(el) => el === document.activeElement")  # the reader can type at once
    assert serious_violations(page, "document.querySelector('[data-cell-id=\"guide-input\"]')") == []
    answer_input(page, "guide-input", "আপনার নাম?", lines[0])
    answer_input(page, "guide-input", "কত বার শুভেচ্ছা?", lines[1], press_enter=False)
    assert wait_state(page, "guide-input") == "done"
    assert output_snapshot(page, "guide-input") == built

    # another answer, another conversation
    cell(page, "guide-input").locator('[data-action="run"]').click()
    answer_input(page, "guide-input", "আপনার নাম?", "করিম")
    answer_input(page, "guide-input", "কত বার শুভেচ্ছা?", "২")
    assert wait_state(page, "guide-input") == "done"
    printed = cell(page, "guide-input").locator("[data-output]").inner_text()
    expected = "আপনার নাম? করিম\nকত বার শুভেচ্ছা? ২\n" + "স্বাগতম, করিম!\n" * 2
    assert printed.strip("\n") == expected.strip("\n")

    # Stop while input() waits ends the run; Python is not restarted
    cell(page, "guide-input").locator('[data-action="run"]').click()
    field.wait_for(state="visible", timeout=30_000)
    cell(page, "guide-input").locator('[data-action="stop"]').click()
    assert wait_state(page, "guide-input", states=("error",), timeout=5_000) == "error"
    assert cell(page, "guide-input").locator("[data-input]").count() == 0
    assert cell(page, "guide-input").locator("[data-status]").inner_text() == t("cell.state.stopped")

    # Stop interrupts a busy loop and the session keeps its variables
    assert stop_keeps_session_variables(page, t("cell.state.stopped")) == str(41 + 1)

    # Restart Python (isolated or not, a fresh worker): the variable is gone
    before_restart = len(server.requested)
    page.locator('[data-page-controls] [data-action="restart"]').click()
    assert run_cell(page, "guide-session-second") == "error"
    assert "NameError" in cell(page, "guide-session-second").locator("[data-output]").inner_text()
    # the new worker started from the offline copy too (the snapshot was asked for once, above)
    assert fetched_from_host(server).count("/pyodide/python-snapshot.bin") == 1, server.requested
    assert fetched_from_host(server, since=before_restart) == [], server.requested

    # an author's time limit counts Python's time, not the reader's typing
    replace_code(page, "guide-session-first", "import time\nname = input('নাম? ')\nprint(name)")
    page.evaluate("document.querySelector('[data-cell-id=\"guide-session-first\"]').dataset.timeout = '2'")
    cell(page, "guide-session-first").locator('[data-action="run"]').click()
    cell(page, "guide-session-first").locator("[data-input]").wait_for(timeout=30_000)
    page.wait_for_timeout(3_000)  # longer than the limit, spent by the reader
    answer_input(page, "guide-session-first", "নাম?", "ধীরে")
    assert wait_state(page, "guide-session-first") == "done"
    assert float(cell(page, "guide-session-first").get_attribute("data-run-ms")) < 3_000  # the wait is not counted
    context.close()


def test_an_input_typed_into_a_page_without_one_waits_after_restart(browser, plain_host):
    """The demo page calls no input(), so its Python starts from the fast snapshot, which cannot
    suspend; an input() the reader types there says so, and Restart starts one that can."""
    context = browser.new_context(service_workers="block")  # never isolated
    page = context.new_page()
    page.goto(plain_host[1] + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-streams", "name = input('নাম? ')\nprint('নমস্কার', name)")
    assert run_cell(page, "demo-streams") == "error"
    note = cell(page, "demo-streams").locator('[data-note="explain"]')
    assert note.get_attribute("data-explain") == "explain.input.restart"
    assert t("page.restart") in note.inner_text()  # it names the button, which is on the page
    page.locator('[data-page-controls] [data-action="restart"]').click()
    cell(page, "demo-streams").locator('[data-action="run"]').click()
    answer_input(page, "demo-streams", "নাম?", "রুমা")
    assert wait_state(page, "demo-streams") == "done"
    assert cell(page, "demo-streams").locator("[data-output]").inner_text().strip().endswith("নমস্কার রুমা")
    context.close()


@pytest.fixture()
def lan_browser(browser, plain_host):
    """Chromium that reaches the plain host as http://classroom.test:PORT, a name that is not
    localhost (mapped to 127.0.0.1 by Chromium itself): not a secure context, so no service
    worker and no isolation, ever."""
    port = plain_host[1].rsplit(":", 1)[1]
    lan = browser.browser_type.launch(executable_path=shutil.which("chromium"),
                                      args=CHROMIUM_ARGS + ["--host-resolver-rules=MAP classroom.test 127.0.0.1"])
    yield lan, f"http://classroom.test:{port}"
    lan.close()


def test_on_an_insecure_lan_style_origin_input_waits_and_stop_keeps_variables(lan_browser):
    lan, base = lan_browser
    page = lan.new_page()
    page.goto(base + GUIDE)
    wait_enhanced(page)
    assert page.evaluate("isSecureContext") is False and page.evaluate("crossOriginIsolated") is False
    lines = stdin_of("guide-input")
    built = output_snapshot(page, "guide-input")
    cell(page, "guide-input").locator('[data-action="run"]').click()
    answer_input(page, "guide-input", "আপনার নাম?", lines[0])
    answer_input(page, "guide-input", "কত বার শুভেচ্ছা?", lines[1], press_enter=False)
    assert wait_state(page, "guide-input") == "done"
    assert output_snapshot(page, "guide-input") == built

    # Stop while input() waits ends the run without restarting Python: the session's variable stays
    replace_code(page, "guide-session-first", "kept = 41\nname = input('নাম? ')")
    cell(page, "guide-session-first").locator('[data-action="run"]').click()
    cell(page, "guide-session-first").locator("[data-input]").wait_for(timeout=90_000)
    cell(page, "guide-session-first").locator('[data-action="stop"]').click()
    assert wait_state(page, "guide-session-first", states=("error",), timeout=5_000) == "error"
    assert cell(page, "guide-session-first").locator("[data-status]").inner_text() == t("cell.state.stopped")
    replace_code(page, "guide-session-second", "print(kept + 1)")
    assert run_cell(page, "guide-session-second") == "done"
    assert cell(page, "guide-session-second").locator("[data-output]").inner_text().strip() == str(41 + 1)


# A browser whose WebAssembly cannot suspend: the site as built, but its Python worker starts by
# taking JSPI away (as Pyodide itself tests for it: "Suspending" or "Suspender" in WebAssembly).
WITHOUT_JSPI = "delete WebAssembly.Suspending; delete WebAssembly.Suspender;\n"


@pytest.fixture()
def site_without_jspi(built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site, site, copy_function=os.symlink)  # every file the build's, but one
    worker = Path("assets/pathshala/python/worker.js")
    for name in (worker, worker.with_name("worker.js.gz"), worker.with_name("worker.js.br")):
        (site / name).unlink(missing_ok=True)
    (site / worker).write_text(WITHOUT_JSPI + (built_site / worker).read_text(encoding="utf-8"), encoding="utf-8")
    server, url = serve(site)
    yield url
    server.shutdown()
    server.server_close()


def test_without_jspi_on_an_insecure_origin_input_explains_what_to_do(browser, site_without_jspi):
    port = site_without_jspi.rsplit(":", 1)[1]
    lan = browser.browser_type.launch(executable_path=shutil.which("chromium"),
                                      args=CHROMIUM_ARGS + ["--host-resolver-rules=MAP classroom.test 127.0.0.1"])
    try:
        page = lan.new_page()
        page.goto(f"http://classroom.test:{port}/demo/")
        wait_enhanced(page)
        replace_code(page, "demo-streams", "name = input('নাম? ')")
        assert run_cell(page, "demo-streams") == "error"
        note = cell(page, "demo-streams").locator('[data-note="explain"]')
        assert note.get_attribute("data-explain") == "explain.input.impossible"
        assert note.inner_text().endswith(t("explain.input.impossible"))
    finally:
        lan.close()
