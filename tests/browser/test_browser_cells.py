"""Real Chromium, real Pyodide: every cell's in-page Run reproduces its build-time output."""

from __future__ import annotations

import re

import pytest

from support.course import course_pages_with_cells
from py_lessons.plugin.base.strings import t
from support.browser import (cell, editor_text, output_snapshot, replace_code, run_cell, start_then_stop,
                             wait_enhanced, wait_state)

pytestmark = pytest.mark.browser


def pages_with_cells(site_dir):
    found = []
    for html in sorted(site_dir.rglob("*.html")):
        if "pyodide" in html.parts:
            continue
        ids = re.findall(r'data-cell-id="([^"]+)"', html.read_text(encoding="utf-8"))
        if ids:
            found.append(("/" + html.relative_to(site_dir).as_posix().removesuffix("index.html"), ids))
    return found


def test_the_pages_with_cells_are_every_built_page_with_cells(built_site):
    assert sorted(path for path, _ in pages_with_cells(built_site)) == course_pages_with_cells() != []


@pytest.mark.parametrize("path", course_pages_with_cells())
def test_every_cell_reproduces_its_build_output(page, site_url, built_site, path):
    ids = dict(pages_with_cells(built_site))[path]
    page.goto(site_url + path)
    wait_enhanced(page)
    for cell_id in ids:
        if cell(page, cell_id).get_attribute("data-cell-kind") == "exercise":
            continue  # a code exercise's editor: it has no build output to reproduce
        if "input(" in editor_text(page, cell_id):
            continue  # it waits for the reader's lines: test_isolation.py answers them
        before = output_snapshot(page, cell_id)
        expects_error = cell(page, cell_id).get_attribute("data-raises") is not None
        state = run_cell(page, cell_id)
        after = output_snapshot(page, cell_id)
        assert state == ("error" if expects_error else "done"), (path, cell_id, after)
        assert after == before, f"{path} {cell_id}: the page's Run differs from the build output"
        figures = [entry for entry in after if entry[0] == "figure"]
        assert all(flag is True for _, flag in figures), f"{cell_id}: an empty figure"
    assert not page.js_errors


def test_edit_and_rerun_shows_new_output(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-numpy", "import numpy as np\nprint(np.arange(4) * 3)")
    assert run_cell(page, "demo-numpy") == "done"
    assert output_snapshot(page, "demo-numpy") == [["stdout", "[0 3 6 9]\n"]]
    cell(page, "demo-numpy").locator('[data-action="reset"]').click()
    assert "marks" in editor_text(page, "demo-numpy")
    assert cell(page, "demo-numpy").get_attribute("data-state") == "idle"


def test_editor_loads_only_when_the_reader_reaches_for_a_cell(page, site_url, request_log):
    earlier = len(request_log.urls)  # the log is shared by every test of the session
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    page.wait_for_timeout(500)
    editor_requests = lambda: [url for url in request_log.urls[earlier:] if url.endswith("/assets/vendor/editor.js")]  # noqa: E731
    assert not editor_requests(), "the editor was fetched before anyone touched a cell"
    assert page.locator(".cm-editor").count() == 0
    # Run works from the build's text alone
    assert run_cell(page, "demo-streams") in ("done", "error")
    [[_, build_output]] = output_snapshot(page, "demo-numpy")
    # a keyboard reader tabs into the code: the editor loads and takes the focus
    cell(page, "demo-numpy").locator("[data-editor] [tabindex]").first.focus()  # the pre, or its code if that scrolls
    page.wait_for_function("() => document.activeElement?.classList.contains('cm-content')")
    assert editor_requests()
    assert "marks" in editor_text(page, "demo-numpy")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("\nprint('typed')")
    assert run_cell(page, "demo-numpy") == "done"
    [[stream, text]] = output_snapshot(page, "demo-numpy")
    assert stream == "stdout" and text == build_output + "typed\n"
    assert not page.js_errors


@pytest.mark.parametrize("shortcut", ["Shift+Enter", "Control+Enter"])
def test_keyboard_shortcut_runs_cell(page, site_url, shortcut):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-streams", "print(6 * 7)")
    page.keyboard.press(shortcut)
    assert wait_state(page, "demo-streams") == "done"
    assert output_snapshot(page, "demo-streams") == [["stdout", "42\n"]]
    # the shortcut ran the cell; it did not insert a line break into the code
    assert editor_text(page, "demo-streams").strip() == "print(6 * 7)"


def test_first_run_shows_bangla_loading_progress(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    page.evaluate("""() => {
        window.__statusSeen = [];
        const status = document.querySelector('[data-cell-id="demo-plot"] [data-status]');
        new MutationObserver(() => window.__statusSeen.push(status.textContent))
            .observe(status, { childList: true, characterData: true, subtree: true });
    }""")
    assert run_cell(page, "demo-plot") == "done"
    seen = page.evaluate("window.__statusSeen")
    loading = [text for text in seen if "%" in text]
    assert loading, seen
    assert all("লোড হচ্ছে" in text for text in loading)
    assert any("matplotlib" in text for text in loading)  # the plot's own package download is shown
    assert "সেকেন্ড" in seen[-1]


def test_raising_cell_shows_traceback_and_next_cell_still_works(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-numpy", "values = [1, 2]\nprint(values[5])")
    assert run_cell(page, "demo-numpy") == "error"
    snapshot = output_snapshot(page, "demo-numpy")
    assert snapshot[-1][0] == "traceback"
    assert "IndexError: list index out of range" in snapshot[-1][1]
    assert 'File "<cell>", line 2' in snapshot[-1][1]
    assert run_cell(page, "demo-streams") == "done"


def test_infinite_loop_is_stopped_and_next_run_works(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-streams") == "done"  # Pyodide is loaded before the loop starts
    start_then_stop(page, "demo-numpy", "while True:\n    pass", stopped_within_ms=15_000)  # never ends by itself
    assert cell(page, "demo-numpy").locator("[data-status]").inner_text().strip()
    replace_code(page, "demo-numpy", "print('আবার চলছে')")
    assert run_cell(page, "demo-numpy") == "done"
    assert output_snapshot(page, "demo-numpy") == [["stdout", "আবার চলছে\n"]]


def test_stop_while_a_package_loads_ends_the_run_at_once_and_keeps_python(page, site_url):
    """Stop pressed while Python still fetches what the cell imports (matplotlib: seconds) ends
    that run at once, without restarting Python: the session's variables stay, and the loading
    goes on for the next run (a restart would throw both away)."""
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    # a mark on a module outlives a run (each cell runs in its own namespace) but not Python
    replace_code(page, "demo-numpy", "import sys\nsys.kept = 41")
    assert run_cell(page, "demo-numpy") == "done"
    cell(page, "demo-plot").locator('[data-action="run"]').click()
    # Stop in the same task that sees the loading status: from Playwright, the round trips between
    # seeing it and clicking could outlast the download on a loaded machine, and Stop then met a
    # running Python (another test's case) instead of a run that had not begun
    page.wait_for_function("""() => {
        const root = document.querySelector('[data-cell-id="demo-plot"]');
        if (!root.querySelector("[data-status]").textContent.includes("matplotlib")) return false;
        root.querySelector('[data-action="stop"]').click();
        return true;
    }""", timeout=30_000, polling=20)
    assert wait_state(page, "demo-plot", states=("error", "idle"), timeout=1_000) in ("error", "idle")
    assert cell(page, "demo-plot").locator("[data-status]").inner_text() == t("cell.state.stopped")
    replace_code(page, "demo-numpy", "import sys\nprint(sys.kept + 1)")
    assert run_cell(page, "demo-numpy") == "done", output_snapshot(page, "demo-numpy")
    assert output_snapshot(page, "demo-numpy") == [["stdout", "42\n"]]
    assert run_cell(page, "demo-plot") == "done"


def test_no_request_leaves_the_site(page, site_url, request_log):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-plot") == "done"
    page.goto(site_url + "/")
    assert request_log.urls, "no requests were recorded at all"
    assert request_log.off_origin == []


@pytest.mark.parametrize("code, explain_key, error_line", [
    ("print(undefined_name)", "explain.NameError", "NameError: name 'undefined_name' is not defined"),
    ("import numpy as np\nnp.ones((2, 3)) @ np.ones((2, 3))", "explain.ValueError.shape", "ValueError: matmul"),
    ("import torch", "explain.ModuleNotFoundError.torch", "ModuleNotFoundError: No module named 'torch'"),
    ("import requests", "explain.ModuleNotFoundError.network", "No module named 'requests'"),
    # not isolated, and Python started from the snapshot (no cell of the page calls input()): Restart
    ("x = input('নাম? ')", "explain.input.restart", "InputNotAvailable"),
    ("if True\n    pass", "explain.SyntaxError", "SyntaxError"),
])
def test_common_errors_get_a_bangla_explanation_below_the_traceback(page, site_url, code, explain_key, error_line):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-streams", code)
    assert run_cell(page, "demo-streams") == "error"
    traceback = output_snapshot(page, "demo-streams")[-1]
    assert traceback[0] == "traceback" and error_line in traceback[1]
    note = cell(page, "demo-streams").locator('[data-note="explain"]')
    assert note.get_attribute("data-explain") == explain_key
    assert re.search("[\u0980-\u09ff]", note.inner_text())  # Bangla text
    if explain_key.endswith("torch"):
        href = note.locator("a").get_attribute("href")
        assert href.startswith(site_url) and href.endswith("/runs/")


def test_output_is_text_never_markup(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    page.evaluate("window.__xss = 0")
    replace_code(page, "demo-streams", "print('<img src=x onerror=\"window.__xss=1\">')\n"
                                      "raise ValueError('<script>window.__xss=2</script>')")
    assert run_cell(page, "demo-streams") == "error"
    assert cell(page, "demo-streams").locator("[data-output] img, [data-output] script").count() == 0
    assert "<img src=x" in output_snapshot(page, "demo-streams")[0][1]
    assert page.evaluate("window.__xss") == 0


def test_output_flood_is_truncated_and_page_stays_responsive(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-streams") == "done"  # Python loaded first
    replace_code(page, "demo-streams", "for i in range(10**6):\n    print(i)")
    page.evaluate("""() => { window.__gaps = []; let last = performance.now();
        const tick = (now) => { window.__gaps.push(now - last); last = now; if (window.__gaps.length < 100000) requestAnimationFrame(tick); };
        requestAnimationFrame(tick); }""")
    assert run_cell(page, "demo-streams", timeout=120_000) == "done"
    text = output_snapshot(page, "demo-streams")[0][1]
    assert text.startswith("0\n1\n2\n") and len(text) < 200_000
    assert cell(page, "demo-streams").locator('[data-note="truncated"]').count() == 1
    longest_gap_ms = max(page.evaluate("window.__gaps"))
    print(f"longest frame gap during the flood: {longest_gap_ms:.0f} ms")
    assert longest_gap_ms < 1000  # the page kept painting (the worker did the work)


def test_two_cells_run_at_once_are_queued_and_each_output_lands_in_its_cell(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-numpy", "import time\ntime.sleep(0.5)\nprint('প্রথম')")
    replace_code(page, "demo-streams", "print('দ্বিতীয়')")
    cell(page, "demo-numpy").locator('[data-action="run"]').click()
    cell(page, "demo-streams").locator('[data-action="run"]').click()
    assert wait_state(page, "demo-numpy") == "done" and wait_state(page, "demo-streams") == "done"
    assert output_snapshot(page, "demo-numpy") == [["stdout", "প্রথম\n"]]
    assert output_snapshot(page, "demo-streams") == [["stdout", "দ্বিতীয়\n"]]

