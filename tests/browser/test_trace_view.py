"""Stepping through a cell in Chromium (cells/trace-view.js over py_lessons.runtime.trace): the
slider, previous/next and the arrow keys move through the steps; the marked line in the editor,
data-trace-line and the variables panel follow the program's own arithmetic (worked out here in
Python, not read from the page); Stop ends a trace; a million-step loop is recorded up to the bound
and runs on while the page keeps answering; the view fits a 360 px phone and passes axe."""

from __future__ import annotations

import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import cell, cell_action, replace_code, run_cell, wait_enhanced, wait_state

pytestmark = pytest.mark.browser

LESSON, CELL_ID = "/lessons/optimization/", "opt-first-look"
VIEW = '[data-cell-id="{}"] [data-trace]'


def first_look_states():
    """What opt-first-look computes, line by line: its five updates of w (lr = 0.1, loss (2w-10)²)."""
    lr, w = 0.1, 0.0
    updates = []
    for _ in range(5):
        grad = 4 * (2 * w - 10)
        w = w - lr * grad
        updates.append((grad, w))
    return updates


def open_trace(page, cell_id):
    cell_action(page, cell_id, "trace")
    page.wait_for_selector(VIEW.format(cell_id), timeout=120_000)
    return cell(page, cell_id).locator("[data-trace]")


def shown(view):
    """(line, {variable: summary}, changed variables) as the view shows the current step."""
    rows = view.locator("[data-trace-vars] [data-var]")
    values = {rows.nth(i).get_attribute("data-var"): rows.nth(i).get_attribute("data-summary") for i in range(rows.count())}
    changed = {rows.nth(i).get_attribute("data-var") for i in range(rows.count())
               if rows.nth(i).get_attribute("data-changed") is not None}
    return int(view.get_attribute("data-trace-line")), values, changed


def code_line(page, cell_id, line):
    source = cell(page, cell_id).locator(".cm-content").inner_text().split("\n")
    return source[line - 1]


def test_stepping_through_a_lesson_cell_follows_its_arithmetic(page, site_url):
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    view = open_trace(page, CELL_ID)
    updates = first_look_states()
    # three lines before the loop, four per update, and the loop's last look at range(1, 6)
    assert int(view.get_attribute("data-trace-steps")) == 3 + 4 * len(updates) + 1
    assert shown(view) == (1, {"lr": repr(0.1)}, {"lr"})
    for _ in range(4):
        view.locator('[data-trace-action="next"]').click()
    line, values, changed = shown(view)
    assert (line, changed) == (5, {"grad"}) and values["grad"] == repr(updates[0][0]) and values["k"] == "1"
    page.wait_for_function("() => document.querySelector('.cm-trace-line') !== null")
    assert cell(page, CELL_ID).locator(".cm-trace-line").inner_text() == code_line(page, CELL_ID, 5)
    # the said line for a screen reader: Bangla digits through the one formatter
    assert view.locator(".pycell-trace-said").inner_text() == t("trace.said.changed").format(
        line="৫", changes=t("trace.said.change").format(name="grad", value="-৪০.০"))
    view.locator('[data-trace-action="next"]').focus()
    page.keyboard.press("ArrowLeft")
    assert shown(view)[0] == 4
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    line, values, changed = shown(view)
    assert (line, changed) == (6, {"w"}) and values["w"] == repr(updates[0][1])
    # the slider's end: the loop's last look, with w after all five updates
    view.locator("[data-trace-step]").fill(view.get_attribute("data-trace-steps"))
    line, values, changed = shown(view)
    assert (line, changed, values["w"], values["k"]) == (4, set(), repr(updates[-1][1]), "5")
    assert view.locator('[data-trace-action="next"]').is_disabled()
    # the output so far: all six lines printed by the end
    assert view.locator(".pycell-trace-output").inner_text().count("\n") >= 5
    # an edit makes the steps stale: the view goes
    replace_code(page, CELL_ID, "x = 1")
    assert cell(page, CELL_ID).locator("[data-trace]").count() == 0


def test_stop_ends_a_trace_and_python_goes_on(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    # each line spends its time in a builtin, which is not traced: the trace is slow, not long
    replace_code(page, "demo-streams", "for i in range(100):\n    total = sum(range(3_000_000))\n")
    cell_action(page, "demo-streams", "trace")
    page.locator('[data-cell-id="demo-streams"][data-python-began]').wait_for(timeout=60_000)
    cell(page, "demo-streams").locator('[data-action="stop"]').click()
    assert wait_state(page, "demo-streams", states=("error",), timeout=10_000) == "error"
    assert cell(page, "demo-streams").locator("[data-status]").inner_text() in (
        t("cell.state.stopped"), t("cell.state.restarted"))
    replace_code(page, "demo-streams", "print(6 * 7)")
    assert run_cell(page, "demo-streams") == "done"


def test_a_million_step_loop_is_recorded_up_to_the_bound_and_the_page_keeps_answering(page, site_url):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-streams", "i = 0\nwhile i < 10**6:\n    if i == 2:\n        print('two')\n    i += 1\n")
    # The page keeps drawing frames while Python runs the trace (a few hundred ms between RUNNING
    # and DONE: too short for the test to poll for, so the page itself notes when it began and ended).
    page.evaluate("""() => {
        const root = document.querySelector('[data-cell-id="demo-streams"]');
        window.__run = { began: null, ended: null, frames: [] };
        const tick = () => { window.__run.frames.push(performance.now()); requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
        new MutationObserver(() => {
            if (window.__run.began === null && 'pythonBegan' in root.dataset) window.__run.began = performance.now();
            if (window.__run.began !== null && window.__run.ended === null && root.dataset.state !== 'running')
                window.__run.ended = performance.now();
        }).observe(root, { attributes: true });
    }""")
    cell_action(page, "demo-streams", "trace")
    view = page.locator(VIEW.format("demo-streams"))
    view.wait_for(timeout=60_000)
    run = page.evaluate("window.__run")
    assert run["began"] is not None and run["ended"] is not None
    assert any(run["began"] < frame < run["ended"] for frame in run["frames"])  # drawn while Python ran
    assert view.get_attribute("data-trace-steps") == "2000"
    assert t("trace.limited").format(n="২,০০০") in view.inner_text()
    assert wait_state(page, "demo-streams") == "done"  # the loop ran on to its end, untraced
    assert "two" in cell(page, "demo-streams").locator("[data-output]").inner_text()
    view.locator("[data-trace-step]").fill("2000")
    assert view.locator("[data-trace-vars] [data-var='i']").get_attribute("data-summary").isdigit()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_view_fits_a_phone_and_passes_axe(browser, site_url, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, service_workers="block")
    page = context.new_page()
    page.goto(site_url + LESSON)
    page.evaluate(f"localStorage.setItem('__md_scheme', JSON.stringify({{scheme: '{'slate' if scheme == 'dark' else 'default'}'}}))")
    page.reload()
    wait_enhanced(page)
    view = open_trace(page, CELL_ID)
    view.locator('[data-trace-action="next"]').click()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    box = view.locator("[data-trace-step]").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 100  # a thumb can hold it
    for action in ("prev", "next"):
        button = view.locator(f'[data-trace-action="{action}"]').bounding_box()
        assert button["height"] >= 44 and button["width"] >= 44
    assert serious_violations(page, f"'{VIEW.format(CELL_ID)}'") == []
    context.close()


def test_a_failed_check_offers_to_step_through_the_readers_code(page, site_url):
    page.goto(site_url + "/guide/")
    page.wait_for_selector('[data-component="exercise"][data-enhanced]')
    wait_enhanced(page)
    exercise = page.locator('[data-component="exercise"][data-id="guide-ex-lr"]')
    replace_code(page, "guide-ex-lr-code", "w = 4.0\nlr = 0.25\nw = w - lr * 2 * w\nprint(w)\n")
    exercise.locator('[data-action="check"]').click()
    page.wait_for_function("() => document.querySelector('[data-id=\"guide-ex-lr\"]').dataset.state === 'failed'",
                           timeout=120_000)
    exercise.locator('[data-action="trace-check"]').click()
    view = page.locator(VIEW.format("guide-ex-lr-code"))
    view.wait_for(timeout=60_000)
    assert view.get_attribute("data-trace-steps") == "4"  # the reader's four lines; the checks' are hidden
    view.locator("[data-trace-step]").fill("4")
    line, values, changed = shown(view)
    assert (line, values["w"], values["lr"]) == (4, repr(4.0 - 0.25 * 2 * 4.0), repr(0.25))
    assert exercise.get_attribute("data-attempts") == "1"  # looking is not another attempt
