"""Search in real Chromium as a phone's Bangla keyboard types: a word arrives as text, with no key
events (the theme searched only on a released key, so a single word found nothing until a space
was typed). Each single word, with vowel signs and conjuncts, finds the pages that have it, and
the count of results is written in Bangla digits. The theme builds its index when the reader turns
to search; the index file is fetched once the page has settled, never while Python starts."""

from __future__ import annotations

import re
import time
from urllib.parse import urljoin

import pytest

from support.browser import PHONE

pytestmark = pytest.mark.browser
INDEX = "/search/search_index.json"

# a plain word, vowel signs, a conjunct with a hasanta, a word of the lessons' everyday analogy
WORDS = ("ঢাল", "লবণ", "শেখার", "ক্ষতি", "স্থিরতা")
RESULTS = """(word) => {
    const marks = [...document.querySelectorAll('.md-search-result mark')];
    return marks.length > 0 && marks.every((mark) => mark.textContent.startsWith(word))
        ? [...document.querySelectorAll('.md-search-result__link')].map((a) => a.getAttribute('href')) : null; }"""


def _pages_with(built_site, word: str) -> set[str]:
    """The pages whose article text has the word (from the built HTML, not from the index)."""
    found = set()
    for path in built_site.rglob("index.html"):
        if "pyodide" in path.parts or "assets" in path.parts:
            continue
        html = path.read_text(encoding="utf-8")
        article = re.search(r"<article.*?</article>", html, re.S)
        if article and word in re.sub(r"<[^>]+>", "", article[0]):
            folder = path.parent.relative_to(built_site).as_posix()
            found.add("" if folder == "." else folder + "/")
    return found


@pytest.mark.no_python
def test_each_single_bangla_word_finds_the_pages_that_have_it(page, site_url, built_site):
    page.goto(site_url + "/")
    field = page.locator("input.md-search__input")
    field.click()
    mores = 0
    for word in WORDS:
        expected = _pages_with(built_site, word)
        assert expected, word
        field.evaluate("(el) => { el.value = ''; }")
        page.keyboard.insert_text(word)  # text input as a phone keyboard gives it: no keyup
        links = page.wait_for_function(RESULTS, arg=word, timeout=15_000).json_value()
        pages = {urljoin(site_url + "/", link).split("#")[0].removeprefix(site_url + "/") for link in links}
        assert pages and pages <= expected, (word, pages, expected)  # only pages that have the word
        count = page.locator(".md-search-result__meta").inner_text()
        assert re.search("[০-৯]", count) and not re.search("[0-9]", count), count  # Bangla digits
        for more in page.locator(".md-search-result__more summary").all_inner_texts():  # "আরও ১১টি"
            assert re.search("[০-৯]", more) and not re.search("[0-9]", more), more
            mores += 1
    assert mores  # some word has more hits on one page than the theme lists


def test_a_lesson_fetches_the_search_index_when_the_reader_turns_to_search(browser, site_url):
    # Python's files are held back: its start-up never ends, so the page does not settle here and
    # only the reader's turn to search can bring the index
    context = browser.new_context(**PHONE, service_workers="block")
    context.route("**/pyodide/**", lambda route: None)
    asked = []
    context.on("request", lambda request: asked.append(request.url) if request.url.endswith(INDEX) else None)
    page = context.new_page()
    page.goto(site_url + "/lessons/vanishing-gradients/", wait_until="load")
    page.wait_for_timeout(1500)  # the theme asked for its index before the load event when nothing held it
    assert asked == []
    page.locator('label.md-header__button[for="__search"]').tap()  # the search icon in the phone's header
    page.keyboard.insert_text(WORDS[0])
    page.wait_for_function(RESULTS, arg=WORDS[0], timeout=15_000)
    assert asked == [site_url + INDEX]
    context.close()


def test_the_index_file_comes_once_python_has_started_and_is_built_when_the_reader_searches(page, site_url):
    # the file is fetched once the page has settled (the offline copy keeps it), not in the seconds
    # Python starts; the theme's own request, whose answer its search worker builds the index
    # from, waits for the reader
    moments, theme_asked = {}, []

    def asked(request):
        if request.url.endswith(INDEX):
            moments.setdefault("index", time.monotonic())
            if request.resource_type == "xhr":
                theme_asked.append(request.url)

    page.context.on("request", asked)
    page.context.on("requestfinished", lambda request: moments.setdefault("numpy", time.monotonic()) if "/numpy-" in request.url else None)
    with page.expect_request(lambda request: request.url.endswith(INDEX), timeout=90_000):
        page.goto(site_url + "/demo/")
    assert "numpy" in moments and moments["numpy"] < moments["index"]
    page.wait_for_timeout(1000)
    assert theme_asked == []
    page.locator("input.md-search__input").click()
    page.keyboard.insert_text(WORDS[0])
    page.wait_for_function(RESULTS, arg=WORDS[0], timeout=15_000)
    assert theme_asked == [site_url + INDEX]
