"""Search in real Chromium as a phone's Bangla keyboard types: a word arrives as text, with no key
events (the theme searched only on a released key, so a single word found nothing until a space
was typed). Each single word, with vowel signs and conjuncts, finds the pages that have it, and
the count of results is written in Bangla digits."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

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
