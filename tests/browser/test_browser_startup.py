"""Python's start-up: restored from the memory snapshot the build ships (python-snapshot.js,
node/make_snapshot.mjs) with the very same results as the build; a spoiled, foreign or missing
snapshot is never trusted (Python starts the normal way). The wheels are CPython bytecode
(bytecode.py), and the page's Python imports them."""

from __future__ import annotations

import gzip
import json

import brotli
import pytest

from support.browser import output_snapshot, replace_code, run_cell, wait_enhanced
from support.local_server import serve
from support.worker_probe import python_workers, worker_marks

pytestmark = pytest.mark.browser

CELLS = ("demo-numpy", "demo-plot")
SNAPSHOT_URL = "**/pyodide/python-snapshot.bin"
GZIP_COPY_URL = SNAPSHOT_URL + ".gz"
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
    """The snapshot as taken; its brotli and gzip copies (what hosts send) hold the same bytes."""
    manifest = json.loads((built_site / "pyodide" / "pathshala-manifest.json").read_text())
    assert manifest["snapshot"] == "python-snapshot.bin"
    raw = (built_site / "pyodide" / manifest["snapshot"]).read_bytes()
    packed = built_site / "pyodide" / (manifest["snapshot"] + ".br")
    assert brotli.decompress(packed.read_bytes()) == raw
    assert gzip.decompress(packed.with_suffix(".gz").read_bytes()) == raw
    return raw


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
    # the test host sends the brotli copy, which the browser decodes: no second fetch
    assert any(url.endswith("/pyodide/python-snapshot.bin") for url in fetched)
    assert not any(url.endswith("/pyodide/python-snapshot.bin.gz") for url in fetched)
    assert not page.js_errors


def test_a_host_that_sends_files_as_they_are_costs_the_gzip_copy_not_the_whole_snapshot(browser, built_site):
    raw = shipped_snapshot(built_site)
    server, url = serve(built_site)
    server.as_is = True
    context = browser.new_context(service_workers="block", base_url=url)
    try:
        page, workers = open_demo(context)
        before = output_snapshot(page, "demo-numpy")
        assert run_cell(page, "demo-numpy") == "done"
        assert output_snapshot(page, "demo-numpy") == before
        marks = worker_marks(workers[0])
        assert "pathshala:snapshot-restored" in marks and "pathshala:snapshot-rejected" not in marks
        sent = dict(server.sent)
        gzip_copy = (built_site / "pyodide" / "python-snapshot.bin.gz").stat().st_size
        assert sent["/pyodide/python-snapshot.bin.gz"] == gzip_copy
        # the snapshot itself was cancelled as soon as it came uncompressed: a part of it crossed
        assert sent["/pyodide/python-snapshot.bin"] < len(raw) / 2, (sent["/pyodide/python-snapshot.bin"], len(raw))
        assert not page.js_errors
    finally:
        context.close()
        server.shutdown()


def _foreign(raw: bytes) -> bytes:
    """The real snapshot, as another Pyodide build would have written it: one bit of its build id
    flipped (the layout check passes; Pyodide itself must refuse it)."""
    spoiled = bytearray(raw)
    spoiled[BUILD_ID_AT] ^= 1
    return bytes(spoiled)


# what reaches the page: the snapshot as the host sends it (the browser has decoded it), or, from
# a host that sends it uncompressed, its gzip copy, which the page decodes itself
SPOILED = {
    "not a snapshot": {SNAPSHOT_URL: lambda raw: bytes(4096 * 16)},
    "cut short": {SNAPSHOT_URL: lambda raw: raw[: len(raw) // 2 + 12345]},
    "foreign build": {SNAPSHOT_URL: _foreign},
    "gzip copy not gzip": {GZIP_COPY_URL: lambda raw: raw[:100_000]},
    "gzip copy foreign": {GZIP_COPY_URL: lambda raw: gzip.compress(_foreign(raw))},
}


@pytest.mark.parametrize("spoil", [*SPOILED, "missing"])
def test_a_spoiled_foreign_or_missing_snapshot_starts_python_normally(context, built_site, spoil):
    raw = shipped_snapshot(built_site)
    if spoil == "missing":
        context.route(SNAPSHOT_URL, lambda route: route.fulfill(status=404, body="not here"))
    else:
        (url, spoiled), = SPOILED[spoil].items()
        body = spoiled(raw)
        if url == SNAPSHOT_URL:  # as a host sends its brotli copy (a fulfilled body is not decoded again)
            context.route(SNAPSHOT_URL, lambda route: route.fulfill(status=200, body=body, headers={
                "content-type": "application/octet-stream", "content-encoding": "br"}))
        else:  # a host that sends files as they are
            context.route(SNAPSHOT_URL, lambda route: route.fulfill(status=200, body=raw[:4096]))
            context.route(GZIP_COPY_URL, lambda route: route.fulfill(status=200, body=body,
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


# [start of the NumPy wheel's download, the snapshot restored] in the worker's clock, and every
# wheel the worker fetched
EARLY_WHEELS = """() => {
    const wheels = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.whl'));
    const restored = performance.getEntriesByName('pathshala:snapshot-restored')[0]?.startTime ?? null;
    return [wheels.find((e) => e.name.includes('/numpy-'))?.startTime ?? null, restored, wheels.map((e) => e.name)];
}"""


def test_the_wheels_a_page_imports_download_while_python_starts(context):
    requested = []
    context.on("request", lambda request: requested.append(request.url))
    page, workers = open_demo(context)
    assert run_cell(page, "demo-numpy") == "done"
    numpy_began, restored, wheels = workers[0].evaluate(EARLY_WHEELS)
    # asked for before the snapshot was restored, not once Python asked for it after
    assert numpy_began is not None and restored is not None and numpy_began < restored
    # once, from the stored twins (this host compresses), and not matplotlib, which the page's plot
    # cell imports but which loads only when the reader reaches for it
    numpy_wheels = [url for url in requested if "/numpy-" in url]
    assert len(numpy_wheels) == 1 and "/pyodide/stored/numpy-" in numpy_wheels[0]
    assert not any("matplotlib" in url for url in requested)


def test_an_early_wheel_that_is_not_the_builds_is_refused(context, built_site):
    # a valid wheel, but not the file the lock names: NumPy as built where its stored twin belongs
    manifest = json.loads((built_site / "pyodide" / "pathshala-manifest.json").read_text())
    other = (built_site / "pyodide" / manifest["packages"]["numpy"]["file"]).read_bytes()
    context.route("**/pyodide/stored/numpy-*.whl", lambda route: route.fulfill(
        status=200, body=other, content_type="application/octet-stream"))
    page, _ = open_demo(context)
    # Pyodide refuses it as it would any download that fails its lock's integrity: no NumPy
    assert run_cell(page, "demo-numpy") == "error"
    assert "No module named 'numpy'" in output_snapshot(page, "demo-numpy")[-1][1]


def test_a_page_with_cells_starts_python_from_its_head(context):
    requested = []
    context.on("request", lambda request: requested.append(request.url))
    page, workers = open_demo(context)
    assert run_cell(page, "demo-numpy") == "done"
    # the worker was asked for while the page's head was read, before the page's modules reached
    # the code that used to start it (python-worker.js)
    worker_at = next(i for i, url in enumerate(requested) if url.endswith("/python/worker.js"))
    module_at = next(i for i, url in enumerate(requested) if url.endswith("/python/python-worker.js"))
    assert worker_at < module_at
    # that one worker ran the cell: the page took it on, with what it said before
    assert len(workers) == 1 and workers[0].evaluate("self.name") == "python-early"
    assert page.evaluate("self.pathshalaEarlyPython.taken") is True
    assert not page.js_errors


def test_a_page_without_cells_starts_no_python(context):
    workers = []
    page = context.new_page()
    page.on("worker", lambda worker: workers.append(worker.url))
    page.goto("/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    assert not any(url.endswith("/python/worker.js") for url in workers)
    assert page.evaluate("self.pathshalaEarlyPython === undefined")
