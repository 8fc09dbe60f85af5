"""Figures on a phone (360×740, touch): every figure's smallest text is at least 10 CSS px (the
figure's box scrolls sideways rather than shrink it), the page itself is never wider than the
screen, and a tap opens the figure alone at its drawn size, which the close button (or Escape)
closes, back to where the reader was."""

from __future__ import annotations

import pytest

from support.browser import PHONE, all_figures_in_place, figures_in_place
from support.course import course_pages

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


# the smallest text of each shown figure, in CSS px as drawn on the screen
SMALLEST_TEXT = """() => [...document.querySelectorAll('.pycell-figure > svg, .pz-explorable-figure > svg, .gpu-run-chart > svg')]
  .filter((svg) => !svg.hasAttribute('data-figure-file'))  // every one is in place (all_figures_in_place)
  .filter((svg) => svg.getBoundingClientRect().width > 0)
  .map((svg) => {
    let smallest = Infinity;
    for (const text of svg.querySelectorAll('text')) {
      const box = text.getBoundingClientRect();
      if (!text.textContent.trim() || box.width === 0) continue;
      const m = text.getScreenCTM();
      const scale = Math.hypot(m.a, m.b);  // user units -> CSS px on the screen (rotated labels too)
      smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
    }
    return smallest;
  })"""


def test_figure_text_is_at_least_10_px_and_the_page_never_scrolls_sideways(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    seen = 0
    for path in course_pages():
        page.goto(site_url + path)
        page.wait_for_load_state("load")
        all_figures_in_place(page)
        sizes = page.evaluate(SMALLEST_TEXT)
        seen += len(sizes)
        assert all(size >= 9.99 for size in sizes), (path, sizes)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    assert seen >= 10
    context.close()


def test_a_tap_opens_the_figure_full_screen_and_close_returns(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site_url + "/lessons/vanishing-gradients/")
    figure = page.locator("[data-figure-box]:visible").first
    figure.scroll_into_view_if_needed()
    figures_in_place(page, figure)
    drawn = figure.locator(":scope > svg").evaluate("(svg) => svg.outerHTML")
    figure.tap()
    view = page.locator("[data-figure-view][open]")
    view.wait_for()
    assert view.locator("svg").evaluate("(svg) => svg.outerHTML") == drawn  # the figure itself
    box = view.bounding_box()
    assert box["width"] == 360 and box["height"] == 740  # the whole screen
    # at its drawn size: wider than the phone, so it pans
    assert view.locator("svg").bounding_box()["width"] > 360
    view.locator('[data-action="close-figure"]').click()
    assert page.locator("[data-figure-view][open]").count() == 0
    assert page.evaluate("document.activeElement.hasAttribute('data-figure-box')")
    figure.press("Enter")  # and from the keyboard
    view.wait_for()
    page.keyboard.press("Escape")
    assert page.locator("[data-figure-view][open]").count() == 0
    context.close()
