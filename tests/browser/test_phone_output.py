"""Cell output on a phone (360×740, touch) and a laptop (1366×768): what a cell printed keeps its
lines and columns. A line wider than the output box scrolls inside that box (reachable by the
keyboard, its cut edge shaded), never wrapped into a jumble of numbers and never widening the page."""

from __future__ import annotations

import pytest

from support.a11y import serious_violations
from support.browser import LAPTOP, PHONE, cell, replace_code, run_cell, wait_enhanced
from support.course import course_pages_with_cells

pytestmark = pytest.mark.browser


# For every printed stream the page shows (not one inside a closed answer): its text lines that are not empty, and the line boxes the
# browser drew for it (distinct tops of the text's rectangles): equal when no line was wrapped.
LINES = """() => [...document.querySelectorAll('.pycell-stream')].filter((pre) => !pre.closest('details:not([open])')).map((pre) => {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return {lines: pre.textContent.split('\\n').filter((line) => line.trim()).length, drawn: tops.size,
            scrolls: pre.scrollWidth > pre.clientWidth, focusable: pre.tabIndex === 0,
            inside: pre.getBoundingClientRect().right <= document.documentElement.clientWidth + 1};
})"""


@pytest.mark.no_python
@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_printed_output_of_every_page_keeps_its_lines(browser, site_url, device):
    context = browser.new_context(**device)
    page = context.new_page()
    wide = 0
    for path in course_pages_with_cells():
        page.goto(site_url + path)
        wait_enhanced(page)
        streams = page.evaluate(LINES)
        # a page of exercises alone (a lesson's last part) has no build output to print
        assert streams or not page.locator('.pycell[data-cell-id]:not([data-cell-kind="exercise"])').count(), path
        assert [s for s in streams if s["lines"] != s["drawn"]] == [], path
        assert all(s["focusable"] and s["inside"] for s in streams), path
        wide += sum(s["scrolls"] for s in streams)
        assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"], path
    if device is PHONE:
        assert wide > 0  # some output is wider than a phone: it scrolls in its box instead of wrapping
    context.close()


def test_a_table_printed_in_the_page_keeps_its_columns_on_a_phone(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    code = ("for n in range(1, 6):\n"
            "    print(f'{n:>4} {n * 0.123456:>12.6f} {n ** 2:>8} {n * 1234567.89:>16.2f} {\"ঠিক\":>6}')")
    replace_code(page, "demo-streams", code)
    assert run_cell(page, "demo-streams") == "done"
    streams = page.evaluate(LINES)
    printed = [s for s in streams if s["lines"] == 5]
    assert printed and printed[0]["drawn"] == 5 and printed[0]["scrolls"]
    box = cell(page, "demo-streams").locator(".pycell-stream").first
    box.focus()
    page.keyboard.press("ArrowRight")  # the keyboard scrolls it
    page.wait_for_function("(el) => el.scrollLeft > 0", arg=box.element_handle())
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page, "document.querySelector('[data-cell-id=\"demo-streams\"]')") == []
    context.close()
