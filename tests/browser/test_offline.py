"""The course with the server gone: after one visit the service worker serves every page,
Pyodide and its wheels. The site is served from a sub-path (/course/) to prove it needs no root."""

from __future__ import annotations

import pytest

from support.browser import output_snapshot, run_cell, wait_enhanced

pytestmark = pytest.mark.browser


def test_site_works_offline_after_one_visit_from_a_sub_path(browser, course_server):
    server, base = course_server
    context = browser.new_context()  # service workers allowed here
    page = context.new_page()
    page.goto(base + "/guide/")
    wait_enhanced(page)
    # caching starts once the first output is in (it must not compete with the first Run)
    assert run_cell(page, "guide-tabs-py", timeout=120_000) == "done"
    scope = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;   // installed = everything precached
        return registration.scope;
    }""")
    assert scope == base + "/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    cached = page.evaluate("""async () => {
        const names = await caches.keys();
        let urls = [];
        for (const name of names) urls = urls.concat((await (await caches.open(name)).keys()).map((r) => r.url));
        return urls;
    }""")
    assert any(url.split("?")[0].endswith("/pyodide/pyodide.asm.wasm") for url in cached)
    assert any("/pyodide/matplotlib-" in url for url in cached)

    server.shutdown()  # the classroom server is gone
    server.server_close()

    page.goto(base + "/demo/")  # a page never opened while the server was up
    wait_enhanced(page)
    assert run_cell(page, "demo-plot", timeout=120_000) == "done"
    kinds = [entry[0] for entry in output_snapshot(page, "demo-plot")]
    assert "figure" in kinds and "stdout" in kinds
    context.close()


def test_service_worker_precaches_every_file_with_a_revision(built_site):
    import re

    sw = (built_site / "sw.js").read_text(encoding="utf-8")
    listed = {url: revision for revision, url in re.findall(r'\{"revision":"([^"]+)","url":"([^"]+)"\}', sw)}
    on_disk = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
               if p.is_file() and p.suffix in {".html", ".js", ".css", ".wasm", ".whl", ".zip", ".json", ".woff2", ".ttf"}
               and p.name != "sw.js"}
    assert on_disk - set(listed) == set()
    # a revision is the file's content hash: a rebuild that changes a file changes its revision,
    # and the new worker (skipWaiting + clientsClaim) replaces the old cache
    assert len(set(listed.values())) > len(listed) * 0.9
