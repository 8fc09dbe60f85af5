"""A learner's code cannot change the course. A cell runs in a worker of the course's own origin;
once the offline copy exists, a few lines there could once replace a cached lesson page or script
with their own, and every later page would run it with the learner's saved work. Two walls, each
tested on its own here:
1. the Python worker has no origin storage (Cache Storage, IndexedDB, file systems, nested workers):
   an attack from a cell finds none of it;
2. the service worker serves a cached file only if its SHA-256 is the build's: every entry of the
   offline copy overwritten (as a writer that got past wall 1 would) changes nothing served,
   and the copy is repaired.
Afterwards Python still runs, asks for input() and stops as before."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from support.browser import (answer_input, offline_api, cell, replace_code, run_cell, stop_keeps_session_variables,
                             wait_enhanced, wait_state)
from support.local_server import serve
from support.work import offline_copy, precache_manifest
from py_lessons.runtime.catalogue import t

pytestmark = pytest.mark.browser

GUIDE = "/guide/"
POISONED_PAGE = '<!doctype html><title>PWNED</title><script>window.__pwned = "page"</script>'
POISONED_SCRIPT = 'window.__pwned = "script"; document.title = "PWNED";'

# Run from a cell: every way a worker has to the origin's storage, each tried for real.
ATTACK = '''import js
js.eval("""
self.__attack = "pending";
(async () => {
  const page = () => new Response(%r, { headers: { "Content-Type": "text/html" } });
  const script = () => new Response(%r, { headers: { "Content-Type": "text/javascript" } });
  const attempts = {
    caches: async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) await cache.put(request, /[.]m?js/.test(request.url) ? script() : page());
      }
    },
    indexedDB: () => new Promise((done, failed) => { const open = indexedDB.open("pwned"); open.onsuccess = done; open.onerror = failed; }),
    storage: async () => { const root = await navigator.storage.getDirectory(); await root.getFileHandle("pwned", { create: true }); },
    worker: () => new Promise((done, failed) => {
      const nested = new Worker(URL.createObjectURL(new Blob(["postMessage(typeof caches)"])));
      nested.onmessage = ({ data }) => (data === "undefined" ? failed(new Error("no caches there")) : done());
      nested.onerror = failed;
    }),
    fileSystem: () => new Promise((done, failed) => webkitRequestFileSystem(0, 1024, done, failed)),
  };
  const outcome = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    try { await attempt(); outcome[name] = "written"; } catch (error) { outcome[name] = error.name; }
  }
  self.__attack = JSON.stringify(outcome);
})();
""")
print("reachable:", sorted(name for name in ("caches", "indexedDB", "Worker", "SharedWorker") if hasattr(js, name)))
''' % (POISONED_PAGE, POISONED_SCRIPT)

REPORT = 'import js\nprint(js.eval("self.__attack"))'

SERVED_SHA256 = """async (urls) => {
  const served = {};
  for (const url of urls) {
    const bytes = await (await fetch(url, { cache: "no-store" })).arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    served[url] = btoa(String.fromCharCode(...digest));
  }
  return served;
}"""

POISON_EVERY_ENTRY = """async ([page, script]) => {
  let written = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const body = /[.]m?js/.test(request.url) ? script : page;
      await cache.put(request, new Response(body, { headers: { "Content-Type": "text/html" } }));
      written += 1;
    }
  }
  return written;
}"""


def differs_from_build(page, base, site):
    """The precached files whose bytes, fetched by the page now, are not the built file's
    (SHA-256 of the file on disk, computed here)."""
    urls = sorted(precache_manifest(site))
    served = page.evaluate(SERVED_SHA256, [f"{base}/{url}" for url in urls])
    return [url for url in urls
            if served[f"{base}/{url}"] != base64.b64encode(hashlib.sha256((site / url).read_bytes()).digest()).decode()]


def not_taken_over(page):
    assert page.title() != "PWNED"
    assert page.evaluate("window.__pwned") is None


@pytest.fixture()
def offline_course(browser, built_site):
    """The course on a plain static host, its offline copy complete and the page isolated by it."""
    server, base = serve(built_site)
    context = browser.new_context()  # service workers allowed
    page = context.new_page()
    page.goto(base + GUIDE)
    wait_enhanced(page)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
    offline_api(page, "makeAvailableOffline")
    page.reload()
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is True
    yield page, base
    context.close()
    server.shutdown()
    server.server_close()


def test_a_cell_cannot_change_what_the_course_serves(offline_course, built_site):
    page, base = offline_course
    replace_code(page, "guide-tabs-py", ATTACK)
    assert run_cell(page, "guide-tabs-py") == "done"
    assert cell(page, "guide-tabs-py").locator("[data-output]").inner_text().strip() == "reachable: []"
    replace_code(page, "guide-session-second", REPORT)
    for _ in range(20):  # the attack's promises settle after the cell has returned
        assert run_cell(page, "guide-session-second") == "done"
        report = cell(page, "guide-session-second").locator("[data-output]").inner_text().strip()
        if report != "pending":
            break
        page.wait_for_timeout(250)
    outcome = json.loads(report)
    assert set(outcome) == {"caches", "indexedDB", "storage", "worker", "fileSystem"}
    assert "written" not in outcome.values(), outcome

    page.goto(base + GUIDE)
    wait_enhanced(page)
    not_taken_over(page)
    assert differs_from_build(page, base, built_site) == []


def test_the_offline_copy_serves_only_the_builds_bytes(offline_course, built_site):
    page, base = offline_course
    # every entry overwritten: what a writer that got past the Python worker's wall would do
    # (every file of the site, and the entry that records the reader's choice of the whole course)
    assert page.evaluate(POISON_EVERY_ENTRY, [POISONED_PAGE, POISONED_SCRIPT]) == len(offline_copy(built_site)) + 1
    page.goto(base + GUIDE)
    wait_enhanced(page)
    not_taken_over(page)
    assert differs_from_build(page, base, built_site) == []
    page.goto(base + "/demo/")  # a page not opened since
    wait_enhanced(page)
    not_taken_over(page)

    # and the copy itself is the build again (each file fetched anew, with its integrity)
    repaired = page.evaluate("""async () => {
        const bytes = {};
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            const body = await (await cache.match(request)).text();
            bytes[request.url] = body.includes("PWNED");
          }
        }
        return bytes;
    }""")
    listed = {f"{base}/{url}" for url in precache_manifest(built_site)}
    poisoned_still = sorted(url for url, bad in repaired.items() if bad and url in listed)
    assert poisoned_still == []

    # Python as before: it runs, waits for input() and Stop keeps its variables
    page.goto(base + GUIDE)
    wait_enhanced(page)
    assert page.evaluate("crossOriginIsolated") is True
    cell(page, "guide-input").locator('[data-action="run"]').click()
    answer_input(page, "guide-input", "আপনার নাম?", "করিম")
    answer_input(page, "guide-input", "কত বার শুভেচ্ছা?", "২")
    assert wait_state(page, "guide-input") == "done"
    assert stop_keeps_session_variables(page, t("cell.state.stopped")) == "42"
