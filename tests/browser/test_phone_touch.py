"""A cell under a thumb (360×740, touch): tapping the code swaps in the editor at the build's
size (same font, same height, no scroll box of its own), the toolbar stays one row after an
edit adds its buttons, and no copy button covers code."""

from __future__ import annotations

import pytest

from support.browser import PHONE, cell, wait_enhanced

pytestmark = pytest.mark.browser

LESSON = "/lessons/optimization/"
CODE_BOX = "(el) => ({height: el.getBoundingClientRect().height, font: getComputedStyle(el.querySelector('code, .cm-content')).fontSize})"


def test_the_editor_takes_the_codes_place_at_its_size_and_the_toolbar_stays_one_row(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    cell_id = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    code = cell(page, cell_id).locator("[data-editor]")
    built = code.locator("pre").evaluate(CODE_BOX)
    gap = "(box) => box.closest('.pycell').querySelector('[data-output]').getBoundingClientRect().top - box.getBoundingClientRect().top"
    below = code.evaluate(gap)
    code.locator("pre").tap()
    page.wait_for_selector(f'.pycell[data-cell-id="{cell_id}"][data-editor-state="ready"]')
    editor = cell(page, cell_id).locator(".cm-editor")
    mounted = editor.evaluate(CODE_BOX)
    assert mounted["font"] == built["font"]
    assert abs(mounted["height"] - built["height"]) <= 2, (built, mounted)
    # what follows the code did not move, and the editor has no scroll box of its own
    assert abs(code.evaluate(gap) - below) <= 2
    scroller = editor.locator(".cm-scroller").evaluate("(el) => [el.scrollHeight, el.clientHeight]")
    assert scroller[0] <= scroller[1] + 1, scroller

    cell(page, cell_id).locator(".cm-content").click()
    page.keyboard.insert_text("# আমার বদল\n")  # an edit: the edited badge, "show the original", "reset"
    page.wait_for_selector(f'.pycell[data-cell-id="{cell_id}"] [data-action="reset"]:not([hidden])')
    rows = cell(page, cell_id).locator(".pycell-toolbar").evaluate(
        "(bar) => new Set([...bar.children].filter((el) => el.getClientRects().length).map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2))).size")
    assert rows == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_no_copy_button_covers_code(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site_url + "/guide/")
    wait_enhanced(page)
    assert page.locator(".pycell .md-code__button:visible").count() == 0  # a cell has its own toolbar
    covered = page.evaluate("""() => [...document.querySelectorAll('.md-typeset pre > .md-code__nav .md-code__button')]
      .filter((button) => button.getClientRects().length)
      .map((button) => {
        const code = button.closest('pre').querySelector(':scope > code');
        const range = document.createRange();
        range.selectNodeContents(code);
        const first = [...range.getClientRects()].find((rect) => rect.width > 0);
        return first && first.top < button.getBoundingClientRect().bottom && first.right > button.getBoundingClientRect().left;
      })""")
    assert covered and not any(covered), covered
    context.close()
