"""Cells that teach, in real Chromium with real Pyodide (a host without special headers, service
workers blocked): the failing line, the "edited" badge with the original beside it, the page's
Run all and Restart Python."""

from __future__ import annotations

import html
import re

import pytest
from playwright.sync_api import expect

from support.a11y import serious_violations
from support.browser import cell, editor_text, replace_code, run_cell, wait_enhanced, wait_state
from py_lessons.runtime.catalogue import t

pytestmark = pytest.mark.browser

GUIDE = "/guide/"
BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def built_code(built_site, page_path, cell_id):
    """A cell's code as the build wrote it into the page (not as the browser shows it)."""
    text = (built_site / page_path.strip("/") / "index.html").read_text(encoding="utf-8")
    block = re.search(rf'data-cell-id="{cell_id}".*?<pre class="pycell-code" tabindex="0">(.*?)</pre>', text, re.S)
    return html.unescape(block.group(1)).removesuffix("\n")


def code_lines_of(text):
    """The non-blank lines: CodeMirror's rendered text doubles a blank line."""
    return [line for line in text.split("\n") if line.strip()]


def marked_line(page, cell_id):
    """The text of the editor line that carries the error mark, and the line number marked in the gutter."""
    root = cell(page, cell_id)
    page.wait_for_selector(f'[data-cell-id="{cell_id}"] .cm-error-line')
    return root.locator(".cm-error-line").inner_text(), root.locator(".cm-lineNumbers .cm-error-line-number").inner_text()


def test_the_failing_line_is_marked_scrolled_to_and_said(page, site_url, built_site):
    page.goto(site_url + GUIDE)
    wait_enhanced(page)
    assert run_cell(page, "guide-error-line") == "error"
    code_lines = built_code(built_site, GUIDE, "guide-error-line").split("\n")
    failing = next(n for n, line in enumerate(code_lines, 1) if "/ count" in line)  # the division by zero
    root = cell(page, "guide-error-line")
    assert root.get_attribute("data-error-line") == str(failing)
    text, number = marked_line(page, "guide-error-line")
    assert text == code_lines[failing - 1] and number == str(failing)
    expect(root.locator(".cm-error-line")).to_be_in_viewport()  # scrolled to
    assert str(failing).translate(BN) in root.locator("[data-status]").inner_text()
    # an edit moves lines: the mark goes
    root.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n")
    page.wait_for_function("() => !document.querySelector('[data-cell-id=\"guide-error-line\"]').dataset.errorLine")
    assert root.locator(".cm-error-line").count() == 0


@pytest.mark.parametrize("code, error, line", [
    ("x = 1\nif x\n    pass", "SyntaxError", 2),
    ("x = 1\ny = 2\n  z = 3", "IndentationError", 3),
    ("def half(v):\n    return v / 0\n\nhalf(4)", "ZeroDivisionError", 2),
])
def test_syntax_errors_and_errors_in_functions_point_at_their_line(page, site_url, code, error, line):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-streams", code)
    assert run_cell(page, "demo-streams") == "error"
    root = cell(page, "demo-streams")
    assert error in root.locator("[data-output]").inner_text()
    assert root.get_attribute("data-error-line") == str(line)
    assert marked_line(page, "demo-streams")[0] == code.split("\n")[line - 1]


def test_edited_badge_shows_the_original_persists_and_reset_clears_it(page, site_url, built_site):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    root = cell(page, "demo-numpy")
    original = built_code(built_site, "/demo/", "demo-numpy")
    assert root.get_attribute("data-edited") == "false"
    assert not root.locator("[data-edited-badge]").is_visible()
    assert not root.locator('[data-action="show-original"]').is_visible()
    assert not root.locator("[data-original]").is_visible()

    replace_code(page, "demo-numpy", "print('আমার নিজের কোড')")
    assert not root.locator("[data-original]").is_visible()  # until the reader asks for it
    page.wait_for_selector('[data-cell-id="demo-numpy"][data-edited="true"]')
    assert root.locator("[data-edited-badge]").inner_text() == t("cell.edited")
    root.locator('[data-action="show-original"]').click()
    panel = root.locator("[data-original]")
    assert panel.is_visible() and panel.locator("pre").inner_text().rstrip("\n") == original
    assert root.locator('[data-action="show-original"]').get_attribute("aria-expanded") == "true"
    assert serious_violations(page, "document.querySelector('[data-cell-id=\"demo-numpy\"]')") == []

    page.reload()  # edits persist, and so does the badge
    wait_enhanced(page)
    assert root.get_attribute("data-edited") == "true"
    assert editor_text(page, "demo-numpy") == "print('আমার নিজের কোড')"
    assert root.locator("[data-edited-badge]").is_visible()

    root.locator('[data-action="reset"]').click()
    assert root.get_attribute("data-edited") == "false"
    assert code_lines_of(editor_text(page, "demo-numpy")) == code_lines_of(original)
    assert not root.locator("[data-edited-badge]").is_visible()


def test_edited_original_sits_beside_the_editor_on_wide_screens_and_below_on_phones(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-numpy", "print(1)")
    root = cell(page, "demo-numpy")
    root.locator('[data-action="show-original"]').click()
    editor, original = root.locator("[data-editor]").bounding_box(), root.locator("[data-original]").bounding_box()
    assert original["x"] >= editor["x"] + editor["width"] - 1  # side by side
    page.set_viewport_size({"width": 360, "height": 800})
    editor, original = root.locator("[data-editor]").bounding_box(), root.locator("[data-original]").bounding_box()
    assert original["y"] >= editor["y"] + editor["height"] - 1  # one above the other
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def cell_ids(page):
    return page.evaluate("() => [...document.querySelectorAll('.pycell[data-cell-id]')]"
                         ".filter((c) => c.dataset.cellKind !== 'exercise').map((c) => c.dataset.cellId)")


def test_run_all_runs_every_cell_in_order_past_expected_errors(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    ids = cell_ids(page)
    # each run's start, in the order the page saw them
    page.evaluate("""(ids) => { window.__started = [];
        for (const id of ids) new MutationObserver(() => {
            const c = document.querySelector(`[data-cell-id="${id}"]`);
            if (c.dataset.state === 'running' && window.__started.at(-1) !== id) window.__started.push(id);
        }).observe(document.querySelector(`[data-cell-id="${id}"]`), {attributes: true, attributeFilter: ['data-state']}); }""", ids)
    controls = page.locator("[data-page-controls]")
    controls.locator('[data-action="run-all"]').click()
    expected_done = t("page.run_all.done").format(total=str(len(ids)).translate(BN))
    page.wait_for_function("(text) => document.querySelector('[data-page-controls] [data-status]').textContent === text",
                           arg=expected_done, timeout=180_000)
    assert page.evaluate("window.__started") == ids
    states = {i: cell(page, i).get_attribute("data-state") for i in ids}
    raising = {i for i in ids if cell(page, i).get_attribute("data-raises")}
    assert raising and all(states[i] == "error" for i in raising)  # expected: Run all went on
    assert all(states[i] == "done" for i in ids if i not in raising)


def test_run_all_stops_at_the_first_unexpected_error(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    ids = cell_ids(page)
    broken = ids[1]
    replace_code(page, broken, "print(not_defined_anywhere)")
    page.locator('[data-page-controls] [data-action="run-all"]').click()
    expected = t("page.run_all.stopped").format(n="২")
    page.wait_for_function("(text) => document.querySelector('[data-page-controls] [data-status]').textContent === text",
                           arg=expected, timeout=180_000)
    assert cell(page, ids[0]).get_attribute("data-state") == "done"
    assert cell(page, broken).get_attribute("data-state") == "error"
    for later in ids[2:]:  # never ran: still the build's output
        assert cell(page, later).get_attribute("data-state") == "idle"
        assert cell(page, later).locator("[data-output-origin]").inner_text() == t("cell.output.build")


def test_restart_python_forgets_every_variable_and_import(page, site_url):
    page.goto(site_url + GUIDE)
    wait_enhanced(page)
    assert run_cell(page, "guide-session-first") == "done"
    replace_code(page, "guide-session-second", "import sys\nsys.pathshala_mark = total")
    assert run_cell(page, "guide-session-second") == "done"  # it sees `total`; sys keeps the mark
    replace_code(page, "guide-session-second", "import sys\nprint(getattr(sys, 'pathshala_mark', 'none'))")
    assert run_cell(page, "guide-session-second") == "done"
    assert cell(page, "guide-session-second").locator("[data-output]").inner_text().strip() == str(sum(range(1, 11)))  # the first cell's total
    page.locator('[data-page-controls] [data-action="restart"]').click()
    page.wait_for_function("(text) => document.querySelector('[data-page-controls] [data-status]').textContent === text",
                           arg=t("page.restart.done"))
    assert run_cell(page, "guide-session-second") == "done"  # a fresh Python: the module's mark is gone too
    assert cell(page, "guide-session-second").locator("[data-output]").inner_text().strip() == "none"
    replace_code(page, "guide-session-second", "print(total)")
    assert run_cell(page, "guide-session-second") == "error"
    assert "NameError: name 'total' is not defined" in cell(page, "guide-session-second").locator("[data-output]").inner_text()


def test_restart_stops_a_running_cell(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-streams") == "done"  # Python is loaded
    replace_code(page, "demo-streams", "while True:\n    pass")
    cell(page, "demo-streams").locator('[data-action="run"]').click()
    wait_state(page, "demo-streams", states=("running",))
    page.locator('[data-page-controls] [data-action="restart"]').click()
    assert wait_state(page, "demo-streams", states=("error",), timeout=15_000) == "error"
    replace_code(page, "demo-streams", "print(6 * 7)")
    assert run_cell(page, "demo-streams") == "done"
    assert cell(page, "demo-streams").locator("[data-output]").inner_text().strip() == "42"
