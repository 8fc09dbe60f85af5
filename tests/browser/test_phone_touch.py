"""A cell under a thumb (360×740, touch): tapping the code swaps in the editor at the build's
size (same font, same height, no scroll box of its own), the toolbar stays one row after an
edit adds its buttons (the cell's other actions, step through first, wait in a menu behind
"more"; on a laptop they are in the row), and no copy button covers code. A thumb that only
presses Run never makes the page wait for the editor."""

from __future__ import annotations

import pytest

from support.browser import LAPTOP, PHONE, cell, wait_enhanced

pytestmark = pytest.mark.browser

LESSON = "/lessons/optimization/"
CODE_BOX = "(el) => ({height: el.getBoundingClientRect().height, font: getComputedStyle(el.querySelector('.cm-content') || el).fontSize})"  # the built <pre>, or the editor


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
    page.wait_for_selector(f'.pycell[data-cell-id="{cell_id}"] [data-action="reset"]:not([hidden])', state="attached")
    rows = cell(page, cell_id).locator(".pycell-toolbar").evaluate(
        "(bar) => new Set([...bar.children].filter((el) => el.getClientRects().length).map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2))).size")
    assert rows == 1
    toolbar = cell(page, cell_id).locator(".pycell-toolbar")
    assert toolbar.evaluate("(bar) => bar.scrollWidth <= bar.clientWidth")  # nothing out of sight either
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # the other actions wait behind "more": a tap shows them, choosing one closes the menu
    menu = cell(page, cell_id).locator("[data-more-menu]")
    assert not menu.is_visible()
    more = cell(page, cell_id).locator("[data-more-button]")
    more.tap()
    menu.wait_for(state="visible")
    assert more.get_attribute("aria-expanded") == "true"
    actions = menu.locator("button:visible").evaluate_all("(buttons) => buttons.map((b) => b.dataset.action)")
    assert actions == ["trace", "reset", "share", "show-original"]  # stepping through first: it is for every reader
    box, screen = menu.bounding_box(), page.viewport_size
    assert 0 <= box["x"] and box["x"] + box["width"] <= screen["width"]  # on the screen, not off its edge
    assert all(b["height"] >= 44 for b in menu.locator("button:visible").evaluate_all(
        "(buttons) => buttons.map((b) => b.getBoundingClientRect().toJSON())"))
    menu.locator('[data-action="show-original"]').tap()
    menu.wait_for(state="hidden")
    assert cell(page, cell_id).locator("[data-original]").is_visible()
    context.close()


def test_run_alone_never_fetches_the_editor_and_a_tap_on_the_code_does(browser, site_url):
    context = browser.new_context(**PHONE)
    editor_requests = []
    # the page's own requests (the service worker keeps the editor later, with the course's scripts)
    context.on("request", lambda request: editor_requests.append(request.url)
               if request.url.endswith("/editor.js") and request.service_worker is None else None)
    page = context.new_page()
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    cell_id = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    cell(page, cell_id).locator('[data-action="run"]').tap()
    page.wait_for_selector(f'.pycell[data-cell-id="{cell_id}"][data-state="done"]', timeout=120_000)
    assert editor_requests == [] and cell(page, cell_id).locator(".cm-editor").count() == 0
    cell(page, cell_id).locator("[data-editor] pre").tap()
    page.wait_for_selector(f'.pycell[data-cell-id="{cell_id}"][data-editor-state="ready"]')
    assert len(editor_requests) == 1
    context.close()


def test_on_a_laptop_the_other_actions_are_in_the_row(browser, site_url):
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    first = page.locator(".pycell[data-cell-id]").first
    assert not first.locator("[data-more-button]").is_visible()
    share = first.locator('[data-action="share"]')
    assert share.is_visible()
    run = first.locator('[data-action="run"]').bounding_box()
    assert abs(share.bounding_box()["y"] - run["y"]) <= 2  # the same row as Run
    context.close()


def test_no_copy_button_covers_code(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site_url + "/guide/")
    wait_enhanced(page)
    # a cell has its own toolbar: its code is no block the theme's script mounts (no button, hidden or not)
    assert page.locator(".pycell [data-editor] pre").count() and page.locator(".pycell .md-code__nav").count() == 0
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
