"""The author's server (`mkdocs serve`) isolates its pages as a well-configured host does (it has
no service worker to do it), so the guide's input() cell works for an author trying it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request

import pytest

from support.browser import cell, wait_enhanced, wait_state
from support.site import ROOT

pytestmark = pytest.mark.browser

PAGE = """\
# ঘর

```pycell id="ask" stdin="রুমা"
name = input("নাম? ")
print("নমস্কার", name)
```
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture()
def served(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f"""\
        site_name: t
        docs_dir: docs
        theme: {{name: material}}
        plugins:
          - py_lessons:
              packages: [numpy]
              cache_dir: {tmp_path / 'cache'}
        """), encoding="utf-8")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-f", str(tmp_path / "mkdocs.yml"),
                               "--dev-addr", f"127.0.0.1:{port}"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                headers = urllib.request.urlopen(url, timeout=5).headers
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "mkdocs serve did not come up"
                time.sleep(0.5)
        yield url, headers
    finally:
        server.terminate()
        server.wait(30)


def test_the_authors_server_isolates_the_page_and_input_waits_for_the_reader(browser, served):
    url, headers = served
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    try:
        page.goto(url)
        wait_enhanced(page)
        assert page.evaluate("crossOriginIsolated") is True
        cell(page, "ask").locator('[data-action="run"]').click()
        form = cell(page, "ask").locator("[data-input-form]")
        form.locator("[data-input]").wait_for(timeout=90_000)  # input() waits for the reader
        form.locator("[data-input]").fill("মিতা")
        form.locator("[data-input]").press("Enter")
        assert wait_state(page, "ask") == "done"
        assert "নমস্কার মিতা" in cell(page, "ask").locator("[data-output]").inner_text()
    finally:
        context.close()
