"""Issue 6: what a learner may type must not break the page, lose edits, or hang."""

from __future__ import annotations

import pytest

from support.browser import cell, editor_text, output_snapshot, replace_code, run_cell, start_then_stop, wait_enhanced

pytestmark = pytest.mark.browser


def open_demo(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-streams") == "done"  # Python is loaded before each scenario


def test_long_numpy_loop_is_stopped_and_python_restarts(page, site_url):
    open_demo(page, site_url)
    loop = "import numpy as np\nx = np.zeros(1000)\nwhile True:\n    x = np.sin(x) + 1"
    # a bounded wait, not a timing assertion (speed belongs to ./pathshala bench): the loop never ends
    # by itself, so reaching a stopped state at all is Stop's doing
    start_then_stop(page, "demo-numpy", loop, stopped_within_ms=15_000)
    # the reader is told that Python started afresh, and the edited code is still there
    assert "মুছে গেছে" in cell(page, "demo-numpy").locator("[data-status]").inner_text()
    assert "np.sin" in editor_text(page, "demo-numpy")
    assert run_cell(page, "demo-streams") == "done"


def test_an_author_time_limit_stops_a_runaway_cell(page, site_url):
    open_demo(page, site_url)
    page.evaluate("document.querySelector('[data-cell-id=\"demo-numpy\"]').dataset.timeout = '1'")
    replace_code(page, "demo-numpy", "while True:\n    pass")
    assert run_cell(page, "demo-numpy", timeout=10_000) == "error"
    assert "সময়সীমা" in cell(page, "demo-numpy").locator("[data-status]").inner_text()
    assert run_cell(page, "demo-streams") == "done"


@pytest.mark.parametrize("size, python_says", [
    ("10**9", "array is too big"),  # 8 GB: larger than any 32-bit WebAssembly address
    ("10**10", "Maximum allowed dimension exceeded"),  # too big for 32-bit WebAssembly to even index
])
def test_huge_allocation_explains_memory_and_the_page_keeps_working(page, site_url, size, python_says):
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", f"import numpy as np\nbig = np.ones({size})")
    assert run_cell(page, "demo-numpy") == "error"
    assert python_says in output_snapshot(page, "demo-numpy")[-1][1]
    assert cell(page, "demo-numpy").locator('[data-note="explain"]').get_attribute("data-explain") == "explain.MemoryError"
    assert run_cell(page, "demo-streams") == "done"


def test_a_list_that_grows_until_memory_runs_out(page, site_url):
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", "chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 2**20))")
    state = run_cell(page, "demo-numpy", timeout=120_000)
    assert state == "error"
    text = output_snapshot(page, "demo-numpy")[-1][1]
    assert text.strip().splitlines()[-1] == "MemoryError"
    assert cell(page, "demo-numpy").locator('[data-note="explain"]').get_attribute("data-explain") == "explain.MemoryError"
    assert run_cell(page, "demo-streams") == "done"


def test_runaway_recursion_is_reported(page, site_url):
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", "def down(n):\n    return down(n + 1)\n\ndown(0)")
    assert run_cell(page, "demo-numpy") == "error"
    assert "RecursionError" in output_snapshot(page, "demo-numpy")[-1][1]
    assert run_cell(page, "demo-streams") == "done"


def test_sys_exit_ends_the_run_without_breaking_python(page, site_url):
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", "import sys\nprint('আগে')\nsys.exit()\nprint('পরে')")
    assert run_cell(page, "demo-numpy") == "done"
    assert output_snapshot(page, "demo-numpy") == [["stdout", "আগে\n"]]
    assert "sys.exit()" in cell(page, "demo-numpy").locator("[data-status]").inner_text()
    assert run_cell(page, "demo-streams") == "done"


def test_messages_about_runs_not_in_flight_are_ignored(page, site_url):
    """Python in the worker can post messages itself (``js.postMessage``): one that names no run,
    or a run that is over, must neither write into a cell nor end the run in flight."""
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", "\n".join([
        "import js, time",
        "post = js.eval(\"(text) => postMessage(JSON.parse(text))\")",
        'post(\'{"type": "item", "item": {"type": "stdout", "text": "FORGED-NO-ID"}}\')',
        'post(\'{"type": "item", "id": 0, "item": {"type": "stdout", "text": "FORGED-OLD-RUN"}}\')',
        'post(\'{"type": "input", "prompt": "FORGED-INPUT"}\')',
        'post(\'{"type": "done", "result": {"ok": true}, "seconds": 0}\')',
        "time.sleep(0.3)  # the forged messages reach the page while this run is still in flight",
        "print('real output')",
    ]))
    state = run_cell(page, "demo-numpy")
    assert output_snapshot(page, "demo-numpy") == [["stdout", "real output\n"]]
    assert state == "done"
    assert not any("FORGED" in text for text in page.locator("[data-output]").all_inner_texts())
    assert page.locator("[data-input]").count() == 0


def test_a_message_the_protocol_does_not_have_is_refused_by_the_worker(page, site_url):
    """protocol.js lists every message: the worker answers any other with "refused" and runs nothing."""
    open_demo(page, site_url)
    answer = page.evaluate("""() => new Promise((resolve) => {
        const worker = new Worker(new URL('../assets/pathshala/python/worker.js', location.href), { type: 'module' });
        worker.onmessage = ({ data }) => { resolve(data); worker.terminate(); };
        worker.postMessage({ type: 'exec', id: 9, code: 'print(1)' });
    })""")
    assert answer["type"] == "refused" and answer["id"] == 9 and '"exec"' in answer["reason"]


def test_a_worker_that_speaks_outside_the_protocol_is_replaced(page, site_url):
    """A message of no known type from the worker (Python can post one) ends the run as a broken
    worker would, and the next run gets a fresh one."""
    open_demo(page, site_url)
    replace_code(page, "demo-numpy", "import js, time\njs.postMessage(js.JSON.parse('{\"type\": \"made-up\"}'))\n"
                                      "time.sleep(5)\nprint('never')")
    assert run_cell(page, "demo-numpy") == "error"
    assert "never" not in cell(page, "demo-numpy").locator("[data-output]").inner_text()
    assert run_cell(page, "demo-streams") == "done"
