"""The course as an installable app that takes a new build in without losing anything: Chromium
finds it installable from / and from a sub-path, offline.js tells how big the offline copy is,
and a new build deployed while a lesson is open is announced; "reload now" shows the new build
with the reader's edited code and progress as they were."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.ship.writer import MAKE_SERVICE_WORKER
from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import cell, editor_text, first_visit_kept, offline_api, replace_code, wait_enhanced
from support.local_server import CHROMIUM_ARGS, serve
from support.site import ROOT
from support.work import precached_bytes

pytestmark = pytest.mark.browser

LESSON = "/lessons/optimization/practice/"  # its last part: the cell edited here and the "finished" stamp
MARKER = "second-build-marker"



@pytest.mark.parametrize("where", ["root", "sub-path"])
def test_chromium_finds_the_course_installable_and_offline_js_tells_its_size(browser, built_site, request,
                                                                                 tmp_path, where):
    base = request.getfixturevalue("site_url") if where == "root" else request.getfixturevalue("course_server")[1]
    # a profile on disk: Chromium never offers to install from an incognito-like context
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(base + LESSON)
        wait_enhanced(page)
        before = first_visit_kept(page)  # what opening the lesson kept
        assert before["ready"] is False and before["keepAll"] is False
        assert 0 < before["bytes"] < before["totalBytes"] == precached_bytes(built_site)
        # the home page's "available offline" box calls this; some Chromium versions also want a
        # service worker with a fetch handler before they call a site installable
        status = offline_api(page, "makeAvailableOffline")
        assert status == {"ready": True, "keepAll": True, "bytes": precached_bytes(built_site),
                          "totalBytes": precached_bytes(built_site), "failed": False}
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")

        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == base + "/manifest.webmanifest" and manifest["errors"] == []
        assert manifest["manifest"]["startUrl"] == base + "/" and manifest["manifest"]["scope"] == base + "/"
        assert cdp.send("Page.getAppId")["appId"] == base + "/"  # two courses on one host: two apps
    finally:
        context.close()


@pytest.fixture()
def two_builds(built_site, tmp_path):
    """The course served from /course/, a link to build A (the built site) that switch_to_b()
    points at build B: the same site with one lesson changed and its own service worker."""
    build_a, build_b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(built_site, build_a)
    shutil.copytree(built_site, build_b)
    lesson = build_b / LESSON.strip("/") / "index.html"
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(re.sub(r"(</h1>)", rf'\1<p id="{MARKER}">{MARKER}</p>', text, count=1), encoding="utf-8")
    namespace = re.search(r'storageNamespace = "([^"]+)"', (build_b / "assets/pathshala/site.js").read_text()).group(1)
    subprocess.run(["node", str(MAKE_SERVICE_WORKER), str(build_b), namespace, str(dependencies.node_modules())],
                   check=True, capture_output=True, cwd=ROOT)
    for stale in (lesson.with_name("index.html.gz"), lesson.with_name("index.html.br"), build_b / "sw.js.gz",
                  build_b / "sw.js.br"):  # the host would send these
        stale.unlink(missing_ok=True)
    assert (build_b / "sw.js").read_bytes() != (build_a / "sw.js").read_bytes()

    served = tmp_path / "served"
    served.mkdir()
    (served / "course").symlink_to(build_a)

    def switch_to_b():
        (served / "next").symlink_to(build_b)
        os.replace(served / "next", served / "course")  # one step: no request sees neither build

    server, url = serve(served)
    yield url + "/course", switch_to_b
    server.shutdown()
    server.server_close()


def test_a_new_build_is_announced_and_reloading_keeps_edits_and_progress(browser, two_builds):
    base, switch_to_b = two_builds
    context = browser.new_context()  # service workers allowed
    page = context.new_page()
    page.goto(base + LESSON)
    wait_enhanced(page)
    offline_api(page, "makeAvailableOffline")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    # the reader's work: an edited cell (kept in localStorage as it is typed) and the lesson marked done
    edited = "print('আমার নিজের কোড', 6 * 7)"
    replace_code(page, "opt-try", edited)
    complete = page.locator('[data-component="complete"]')
    complete.locator('[data-action="complete"]').click()
    assert complete.get_attribute("data-state") == "complete"
    assert page.locator("[data-update-notice]").count() == 0  # the first install is not news

    switch_to_b()
    page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
    notice = page.locator("[data-update-notice]")
    notice.wait_for(timeout=120_000)
    page.wait_for_function("() => document.querySelector('[data-update-notice] [role=status]').textContent !== ''")
    assert notice.locator("[role=status]").inner_text() == t("update.available")
    assert notice.locator('[data-action="reload-now"]').inner_text() == t("update.reload")
    assert page.locator(f"#{MARKER}").count() == 0  # the open page is build A until the reader reloads
    assert serious_violations(page, "document.querySelector('[data-update-notice]')") == []
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = notice.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360

    with page.expect_navigation():
        notice.locator('[data-action="reload-now"]').click()
    wait_enhanced(page)
    assert page.locator(f"#{MARKER}").inner_text() == MARKER  # build B, from its service worker
    # bounded wait: on a busy machine the restored code may still be on its way into the editor
    page.wait_for_function("""(code) => { const c = document.querySelector('[data-cell-id="opt-try"]');
        const view = c.querySelector('.cm-content') || c.querySelector('[data-editor] pre');
        return view.innerText.trim() === code; }""", arg=edited, timeout=15_000)
    assert editor_text(page, "opt-try") == edited
    assert cell(page, "opt-try").locator("[data-status]").inner_text() == t("cell.state.restored")
    page.wait_for_selector('[data-component="complete"][data-enhanced]')  # its script may come after the cells'
    assert page.locator('[data-component="complete"]').get_attribute("data-state") == "complete"
    assert page.locator("[data-update-notice]").count() == 0
    context.close()
