"""Worked calculations on a phone (360×740, touch) and a laptop (1366×768): a number of a
calculation or result is never broken across lines (a row too wide scrolls in its box), and the
inputs do not fill the phone's screen before the table starts."""

from __future__ import annotations

import pytest

from support.browser import LAPTOP, PHONE
from support.course import course_pages

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


# Every stepper with all its rows shown: the words of its calculation and result cells that the
# browser split over two lines, and how far below the stepper's top its table begins.
STEPPERS = """() => [...document.querySelectorAll('[data-component="stepper"]')].map((stepper) => {
    stepper.querySelector('[data-action="all"]')?.click();
    const broken = [];
    for (const code of stepper.querySelectorAll('.pz-step-calc code, .pz-step-result code')) {
      const range = document.createRange();
      range.selectNodeContents(code);
      // every run of non-space characters, by where its characters were laid out
      const chars = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        for (let i = 0; i < node.data.length; i++) chars.push([node, i]);
      }
      let word = [], top = null, split = false;
      const flush = () => { if (word.length && split) broken.push(word.join('')); word = []; top = null; split = false; };
      for (const [node, i] of chars) {
        const ch = node.data[i];
        if (/\\s/.test(ch)) { flush(); continue; }
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const at = Math.round(rect.top);
        if (top !== null && Math.abs(at - top) > 2) split = true;
        top = top ?? at;
        word.push(ch);
      }
      flush();
    }
    const table = stepper.querySelector('.pz-stepper-table').getBoundingClientRect();
    return { id: stepper.dataset.id, broken, tableBelowTop: table.top - stepper.getBoundingClientRect().top };
})"""


@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_no_number_of_a_worked_calculation_breaks_across_lines(browser, site_url, device):
    context = browser.new_context(**device)
    page = context.new_page()
    seen = 0
    for path in course_pages():
        page.goto(site_url + path)
        for stepper in page.evaluate(STEPPERS):
            seen += 1
            assert stepper["broken"] == [], (path, stepper)
            if device is PHONE:  # the inputs leave room for the table on the first screen
                assert stepper["tableBelowTop"] < 0.6 * device["viewport"]["height"], (path, stepper)
        assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"], path
    assert seen >= 8
    context.close()
