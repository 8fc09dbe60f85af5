"""The course with the server gone: after one visit the service worker serves every page,
Pyodide and its wheels. The site is served from a sub-path (/course/) to prove it needs no root."""

from __future__ import annotations

import base64
import hashlib

import pytest

from support.browser import output_snapshot, run_cell, wait_enhanced
from support.work import precache_manifest

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


def test_service_worker_precaches_every_file_with_its_sha256(built_site):
    listed = precache_manifest(built_site)
    on_disk = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
               if p.is_file() and p.suffix in {".html", ".js", ".css", ".wasm", ".whl", ".zip", ".json", ".woff2", ".ttf"}
               and p.name != "sw.js"}
    assert on_disk - set(listed) == set()
    # the integrity is the file's SHA-256 as the build left it (the service worker serves a cached
    # copy only if it matches, and uses it as the revision: a changed file gets a new cache key)
    wrong = [url for url, integrity in listed.items()
             if integrity != "sha256-" + base64.b64encode(hashlib.sha256((built_site / url).read_bytes()).digest()).decode()]
    assert wrong == []
