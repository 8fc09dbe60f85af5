"""Python's start-up: restored from the memory snapshot the build ships (python-snapshot.js,
node/make_snapshot.mjs) with the very same results as the build; a spoiled, foreign or missing
snapshot is never trusted (Python starts the normal way). The wheels are CPython bytecode
(bytecode.py), and the page's Python imports them."""

from __future__ import annotations

import gzip
import json

import pytest

from support.browser import output_snapshot, replace_code, run_cell, wait_enhanced
from support.worker_probe import python_workers, worker_marks

pytestmark = pytest.mark.browser

CELLS = ("demo-numpy", "demo-plot")
SNAPSHOT_URL = "**/pyodide/python-snapshot.gz"
BUILD_ID_AT = 16  # Pyodide 0.27's snapshot header: magic, heap offset, JSON length, padding, build id


@pytest.fixture()
def context(browser, site_url):
    context = browser.new_context(service_workers="block", base_url=site_url)
    yield context
    context.close()


def open_demo(context):
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    workers = python_workers(page)
    page.goto("/demo/")  # relative to the context's base_url
    wait_enhanced(page)
    return page, workers


def shipped_snapshot(built_site) -> bytes:
    manifest = json.loads((built_site / "pyodide" / "pathshala-manifest.json").read_text())
    assert manifest["snapshot"] == "python-snapshot.gz"
    return gzip.decompress((built_site / "pyodide" / manifest["snapshot"]).read_bytes())


def test_python_starts_from_the_shipped_snapshot_with_the_builds_results(context, built_site):
    raw = shipped_snapshot(built_site)
    assert int.from_bytes(raw[:4], "little") == 0x706E7300  # Pyodide's snapshot magic
    fetched = []
    context.on("requestfinished", lambda request: fetched.append(request.url))
    page, workers = open_demo(context)
    before = {cell_id: output_snapshot(page, cell_id) for cell_id in CELLS}
    for cell_id in CELLS:
        assert run_cell(page, cell_id) == "done"
        assert output_snapshot(page, cell_id) == before[cell_id]
    marks = worker_marks(workers[0])
    assert "pathshala:snapshot-restored" in marks and "pathshala:snapshot-rejected" not in marks
    assert any(url.endswith("/pyodide/python-snapshot.gz") for url in fetched)
    assert not page.js_errors


def _foreign(raw: bytes) -> bytes:
    """The real snapshot, as another Pyodide build would have written it: one bit of its build id
    flipped (the layout check passes; Pyodide itself must refuse it)."""
    spoiled = bytearray(raw)
    spoiled[BUILD_ID_AT] ^= 1
    return gzip.compress(bytes(spoiled))


SPOILED = {
    "not a snapshot": lambda raw: gzip.compress(bytes(4096 * 16)),
    "cut short": lambda raw: gzip.compress(raw[: len(raw) // 2 + 12345]),
    "not gzip": lambda raw: raw[:100_000],
    "foreign build": _foreign,
}


@pytest.mark.parametrize("spoil", [*SPOILED, "missing"])
def test_a_spoiled_foreign_or_missing_snapshot_starts_python_normally(context, built_site, spoil):
    raw = shipped_snapshot(built_site)
    if spoil == "missing":
        context.route(SNAPSHOT_URL, lambda route: route.fulfill(status=404, body="not here"))
    else:
        body = SPOILED[spoil](raw)
        context.route(SNAPSHOT_URL, lambda route: route.fulfill(status=200, body=body,
                                                               content_type="application/gzip"))
    page, workers = open_demo(context)
    before = output_snapshot(page, "demo-numpy")
    assert run_cell(page, "demo-numpy") == "done"
    assert output_snapshot(page, "demo-numpy") == before
    marks = worker_marks(workers[0])
    assert "pathshala:snapshot-rejected" in marks and "pathshala:snapshot-restored" not in marks
    assert not page.js_errors


def test_the_page_imports_numpy_and_the_runtime_from_bytecode(context):
    page, _ = open_demo(context)
    replace_code(page, "demo-numpy", (
        "import numpy, py_lessons.runtime.execute as ex\n"
        "print(numpy.__file__.rsplit('/', 2)[-2:], ex.__file__.rsplit('/', 1)[-1])\n"
        "numpy.zeros(2).reshape(3)\n"))
    assert run_cell(page, "demo-numpy") == "error"
    [[stream, printed], [kind, traceback]] = output_snapshot(page, "demo-numpy")
    assert (stream, printed) == ("stdout", "['numpy', '__init__.pyc'] execute.pyc\n")
    assert kind == "traceback" and 'File "<cell>", line 3' in traceback  # the reader's line, as before
    assert "ValueError: cannot reshape array of size 2 into shape (3,)" in traceback
    # input() fails inside the runtime (this page is not cross-origin isolated): its frames, from
    # the bytecode wheel, stay out of the reader's traceback as they do from source
    replace_code(page, "demo-numpy", "name = input('নাম? ')\n")
    assert run_cell(page, "demo-numpy") == "error"
    traceback = output_snapshot(page, "demo-numpy")[-1][1]
    assert 'File "<cell>", line 1' in traceback and "execute.py" not in traceback
