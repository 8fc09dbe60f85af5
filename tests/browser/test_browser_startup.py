"""Python's start-up on later visits: restored from the memory snapshot the first visit saved
(python-snapshot.js), with the very same results; a broken snapshot is dropped, never trusted."""

from __future__ import annotations

import pytest

from support.browser import output_snapshot, run_cell, wait_enhanced
from support.worker_probe import python_workers, wait_for_mark, worker_marks

pytestmark = pytest.mark.browser

CELLS = ("demo-numpy", "demo-plot")
STORED = """async () => {
  const cache = await caches.open("pathshala-python-snapshot");
  return (await cache.keys()).map((request) => request.url);
}"""
# Replace every stored snapshot with well-formed gzip of bytes that are not a snapshot.
SPOIL = """async () => {
  const cache = await caches.open("pathshala-python-snapshot");
  for (const request of await cache.keys()) {
    const junk = new Blob([new Uint8Array(4096).fill(7)]).stream().pipeThrough(new CompressionStream("gzip"));
    await cache.put(request, new Response(junk));
  }
}"""


def wait_saved(page, worker):
    """Saving runs in the background after start-up: wait for the worker's mark, then the cache."""
    assert wait_for_mark(page, worker, "pathshala:snapshot-saved", seconds=30), "no snapshot was saved"
    assert len(page.evaluate(STORED)) == 1


def open_demo(context):
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    workers = python_workers(page)
    page.goto("/demo/")  # relative to the context's base_url
    wait_enhanced(page)
    return page, workers


@pytest.fixture()
def context(browser, site_url):
    context = browser.new_context(service_workers="block", base_url=site_url)
    yield context
    context.close()


def first_visit(context):
    """Open the demo page, run a cell, wait for the snapshot; returns (build outputs, page)."""
    page, workers = open_demo(context)
    before = {cell_id: output_snapshot(page, cell_id) for cell_id in CELLS}
    assert run_cell(page, "demo-numpy") == "done"
    wait_saved(page, workers[0])
    return before, page


def test_a_later_visit_restores_python_from_the_snapshot(context):
    before, first = first_visit(context)
    first.close()
    page, workers = open_demo(context)
    for cell_id in CELLS:
        assert run_cell(page, cell_id) == "done"
        assert output_snapshot(page, cell_id) == before[cell_id]
    marks = worker_marks(workers[0])
    assert "pathshala:snapshot-restored" in marks and "pathshala:snapshot-rejected" not in marks
    assert len(page.evaluate(STORED)) == 1  # one snapshot per site and build, not one per visit


def test_a_broken_snapshot_is_dropped_and_python_starts_normally(context):
    before, first = first_visit(context)
    first.evaluate(SPOIL)  # this page's worker has finished with the cache
    first.close()
    page, workers = open_demo(context)
    assert run_cell(page, "demo-numpy") == "done"
    assert output_snapshot(page, "demo-numpy") == before["demo-numpy"]
    marks = worker_marks(workers[0])
    assert "pathshala:snapshot-rejected" in marks and "pathshala:snapshot-restored" not in marks
    # the normal start saved a good snapshot again, which the next visit uses
    wait_saved(page, workers[0])
    page.reload()
    wait_enhanced(page)
    assert run_cell(page, "demo-numpy") == "done"
    assert "pathshala:snapshot-restored" in worker_marks(workers[-1])
    assert not page.js_errors
