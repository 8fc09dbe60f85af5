"""An explorable prepares while the reader reads towards it (issue 23): once it is within two
screens of the viewport, Python loads what its function imports (matplotlib, several MB), its
status saying how far in one Bangla line, so the first move of a slider draws without waiting for
the download. A reader who asked to save data downloads nothing until reaching for a slider."""

from __future__ import annotations

import re

import pytest

from support.browser import PHONE, SAVE_DATA, wait_enhanced
from py_lessons.plugin.base.strings import t

pytestmark = pytest.mark.browser

GUIDE = "/guide/"
EXPLORABLE = '[data-component="explorable"][data-id="guide-lr"]'
# every text the explorable's status shows, in order (read back by the test)
WATCH_STATUS = """(root) => { window.statusSeen = [];
  new MutationObserver(() => window.statusSeen.push(root.querySelector('[data-status]').textContent))
    .observe(root.querySelector('[data-status]'), { childList: true, characterData: true, subtree: true }); }"""


def _open(browser, site_url, save_data=False):
    context = browser.new_context(**PHONE, service_workers="block")
    if save_data:
        context.add_init_script(SAVE_DATA)
    page = context.new_page()
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if "matplotlib" in request.url else None)
    page.goto(site_url + GUIDE)
    wait_enhanced(page)
    root = page.locator(EXPLORABLE)
    page.wait_for_selector(EXPLORABLE + "[data-enhanced]")
    root.evaluate(WATCH_STATUS)
    return context, page, root, fetched


def _read_towards(page, root):
    """Scroll to a screen and a half above the explorable: it is near, not yet in view."""
    root.evaluate("(el) => scrollTo(0, el.getBoundingClientRect().top + scrollY - 2.5 * innerHeight)")
    assert root.evaluate("(el) => el.getBoundingClientRect().top > innerHeight")


def test_an_explorable_near_the_viewport_has_its_imports_loaded_with_one_bangla_line(browser, site_url):
    context, page, root, fetched = _open(browser, site_url)
    page.wait_for_timeout(2000)  # the page's own start: NumPy, not matplotlib
    assert fetched == []
    _read_towards(page, root)
    page.wait_for_function("(el) => el.dataset.state === 'ready' && el.querySelector('[data-status]').textContent",
                           arg=root.element_handle(), timeout=120_000)
    assert fetched  # matplotlib came before the reader touched anything
    assert root.locator("[data-status]").inner_text() == t("explorable.prepared")
    seen = page.evaluate("window.statusSeen")
    loading = [text for text in seen if "লোড হচ্ছে" in text]
    assert loading, seen
    for text in loading:  # one line: a name and a count of helpers at most, Bangla digits
        assert "\n" not in text and not re.search(r"[0-9]", text) and text.count(",") == 0, text
    # the first move of the slider now only draws
    root.locator('input[data-param="lr"]').focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(el) => el.dataset.values && el.dataset.state === 'ready'", arg=root.element_handle(),
                           timeout=60_000)
    assert root.locator("[data-figure] svg text").count() > 3
    context.close()


def test_a_reader_saving_data_downloads_nothing_until_reaching_for_a_slider(browser, site_url):
    context, page, root, fetched = _open(browser, site_url, save_data=True)
    _read_towards(page, root)
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(3000)
    assert fetched == [] and root.get_attribute("data-state") == "ready"
    assert root.locator("[data-status]").inner_text() == ""
    root.locator('input[data-param="lr"]').focus()  # reaching for it: the download starts
    page.wait_for_function("([el, text]) => el.querySelector('[data-status]').textContent === text",
                           arg=[root.element_handle(), t("explorable.prepared")], timeout=120_000)
    assert fetched
    context.close()
