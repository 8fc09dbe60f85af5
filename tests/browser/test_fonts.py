"""The font faces a later page may need are loaded once the page has settled (site/fonts.js,
issue 23): the next lesson, reached by instant navigation in the same document, then needs no face
fetched after its first layout, which laid the whole page out a second time. Only faces of families
the page does not draw with: a face's arrival lays out again all the text of its family. A reader
who asked to save data gets each face only when a page uses it."""

from __future__ import annotations

import pytest

from support.browser import SAVE_DATA

pytestmark = pytest.mark.browser

FONT_FILE = (".woff2", ".woff")
INDEX = "/search/search_index.json"  # fetched once the page has settled (site/search.js)
NEXT = "lessons/numerical-stability/"  # has formulas; the demo page has none
FACES = "() => [...document.fonts].map((face) => `${face.family} ${face.weight} ${face.status}`)"
MATH_LOADED = "() => [...document.fonts].some((face) => face.family === 'Pathshala Math' && face.status === 'loaded')"
LATIN_EXTENDED = "noto-sans-bengali-latin-ext-"  # the body text's faces no page of this course but one needs


def _fonts_asked(context):
    asked = []
    context.on("request", lambda request: asked.append(request.url) if request.url.endswith(FONT_FILE) else None)
    return asked


def test_the_next_lesson_finds_every_face_loaded_while_the_first_page_was_read(page, site_url):
    asked = _fonts_asked(page.context)
    page.goto(site_url + "/demo/")
    # the math font is not on this page: only the settled page's own loading brings it
    assert page.evaluate("() => [...document.querySelectorAll('math')].length") == 0
    page.wait_for_function(MATH_LOADED, timeout=90_000)
    assert any(url.endswith("noto-sans-math.woff2") for url in asked)
    before = len(asked)
    old = page.locator("article").element_handle()
    # the lesson list's link, as the benchmark follows it (its section may be folded on this screen)
    page.evaluate("(next) => document.querySelector(`.md-sidebar--primary a.md-nav__link[href$='${next}']`).click()", NEXT)
    page.wait_for_function("(old) => !old.isConnected && document.querySelector('article math')", arg=old)
    page.wait_for_timeout(1000)
    assert asked[before:] == []
    assert page.evaluate("() => document.fonts.status") == "loaded"


def test_a_settled_page_loads_no_face_of_a_family_it_draws_with(page, site_url):
    """The body text's Latin-extended faces would lay this page's whole text out again; no lesson
    but one needs them, and that one fetches them for its own first layout."""
    asked = _fonts_asked(page.context)
    with page.expect_request(lambda request: request.url.endswith(INDEX), timeout=60_000):
        page.goto(site_url + "/lessons/optimization/")  # settled: nothing held it
    page.wait_for_timeout(1500)
    assert not any(LATIN_EXTENDED in url for url in asked), asked
    assert "Noto Sans Bengali 400 unloaded" in page.evaluate(FACES)
    assert page.evaluate(MATH_LOADED)  # its formulas drew with it


def test_a_reader_saving_data_gets_each_face_only_when_a_page_uses_it(browser, site_url):
    context = browser.new_context(service_workers="block")
    context.add_init_script(SAVE_DATA)
    asked = _fonts_asked(context)
    page = context.new_page()
    with page.expect_request(lambda request: request.url.endswith(INDEX), timeout=60_000):
        page.goto(site_url + "/demo/")  # settled: nothing held it (Python waits for a Run)
    page.wait_for_timeout(1500)
    assert not any(url.endswith("noto-sans-math.woff2") for url in asked)
    assert "Pathshala Math 400 unloaded" in page.evaluate(FACES)
    context.close()
