"""Nothing below a box that a script fills in moves when the script runs (issue 15: layout shift),
in real Chromium with a phone-sized window."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 412, "height": 823}  # Lighthouse's mobile screen

# (page, the script that fills a box, what sits below that box, the box's script has run)
FILLED_BOXES = [
    ("/", "**/assets/pathshala/components/progress.js", '[data-component="progress"] ol.pz-lessons',
     '[data-component="progress"][data-enhanced]'),
    # the download control ends the lesson's page: the theme's footer is what follows it
    ("/lessons/optimization/", "**/assets/pathshala/cells/download.js", ".md-footer",
     "[data-download-choice]:not([hidden])"),
]


def _top_after_fonts(page, selector: str) -> float:
    """Top of the element in the page, once the web fonts are in (they move text on their own)."""
    page.evaluate("document.fonts.ready.then(() => undefined)")
    return page.locator(selector).evaluate("(el) => el.getBoundingClientRect().top + scrollY")


@pytest.mark.parametrize("path, script, below, enhanced", FILLED_BOXES, ids=["home-progress", "lesson-download"])
def test_what_a_script_fills_in_has_its_final_size_before_the_script_runs(browser, site_url, path, script, below, enhanced):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        bare = context.new_page()
        bare.route(script, lambda route: route.abort())  # scripts on, this one never runs
        bare.goto(site_url + path, wait_until="load")
        before = _top_after_fonts(bare, below)
        full = context.new_page()
        full.goto(site_url + path)
        full.wait_for_selector(enhanced, state="attached")
        after = _top_after_fonts(full, below)
    finally:
        context.close()
    assert after == before

