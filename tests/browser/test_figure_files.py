"""The build's figures out of the page's first parse (issue 23), in real Chromium on a phone: the
page holds an empty svg of each figure's size; the figure is fetched when the reader nears it and
put in its place inline, Bangla text and all, with nothing on the page moving; the browser's own
Print finds every figure in place."""

from __future__ import annotations

import re

import pytest

from support.browser import PHONE, SAVE_DATA

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

PAGE = "lessons/vanishing-gradients/"  # two cell figures and a run chart, all far below the first screen
FIGURE_FILES = "/assets/pathshala/figures/"
# every figure's placeholder, those in a body the page holds inert (an answer: render/deferred.py) too
PLACEHOLDERS = """() => { const all = (root) => [...root.querySelectorAll('svg[data-figure-file]'),
    ...[...root.querySelectorAll('template')].flatMap((t) => all(t.content))];
  return all(document).map((svg) => svg.dataset.figureFile); }"""


def _placeholders(html: str) -> list[str]:
    return re.findall(r'<svg[^>]*data-figure-file="([^"]+)"[^>]*></svg>', html)


def test_the_page_holds_no_build_figure_only_its_place(built_site):
    html = (built_site / PAGE / "index.html").read_text(encoding="utf-8")
    names = _placeholders(html)
    assert len(names) >= 3
    for name in names:
        drawn = (built_site / FIGURE_FILES.strip("/") / name).read_text(encoding="utf-8")
        assert drawn.startswith("<svg") and drawn.count("<text") >= 5
    # the only drawn figures left in the page are explorables' (their script redraws them)
    outside = re.sub(r'<div class="pz-explorable-figure".*?</svg>', "", html, flags=re.S)
    assert "<text" not in outside


def test_a_figure_comes_when_the_reader_nears_it_and_nothing_on_the_page_moves(browser, site_url):
    context = browser.new_context(**PHONE, service_workers="block")
    context.add_init_script(SAVE_DATA)  # no prefetch when idle: only what the reader nears comes
    context.route("**/pyodide/**", lambda route: None)
    page = context.new_page()
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if FIGURE_FILES in request.url else None)
    page.goto(f"{site_url}/{PAGE}")
    page.evaluate("document.fonts.ready.then(() => undefined)")
    page.wait_for_timeout(1500)  # the page has settled; an idle prefetch would have begun
    assert fetched == []  # every figure is more than two screens below
    name = page.locator("svg[data-figure-file]").last.get_attribute("data-figure-file")
    box = page.locator(f'[data-figure-file="{name}"]').locator("xpath=..").element_handle()
    before = box.evaluate("(b) => [b.getBoundingClientRect().height, document.documentElement.scrollHeight]")
    assert before[0] > 150
    box.evaluate("(b) => scrollTo(0, b.getBoundingClientRect().top + scrollY - 2 * innerHeight + 100)")
    page.wait_for_function("(b) => b.querySelector(':scope > svg:not([data-figure-file]) text')", arg=box)
    placed = box.query_selector(":scope > svg")
    assert name in [url.rsplit("/", 1)[1] for url in fetched]  # with those within two screens of it
    after = box.evaluate("(b) => [b.getBoundingClientRect().height, document.documentElement.scrollHeight]")
    assert after == before  # its place was its size
    texts = placed.evaluate("(svg) => [...svg.querySelectorAll('text')].map((t) => t.textContent).join(' ')")
    assert re.search("[\u0980-\u09ff]", texts)  # Bangla labels, inline: shaped with the page's font
    context.close()


def test_the_browsers_own_print_finds_every_figure_in_place(browser, site_url):
    context = browser.new_context(**PHONE, service_workers="block")
    context.route("**/pyodide/**", lambda route: None)
    page = context.new_page()
    page.goto(f"{site_url}/{PAGE}")
    names = page.evaluate(PLACEHOLDERS)
    assert len(names) >= 3
    # fetched (not placed) once the page is idle, so that Print, which cannot wait, has them
    page.wait_for_function("""(names) => names.every((name) => performance.getEntriesByType('resource')
        .some((entry) => entry.name.endsWith('/figures/' + name) && entry.responseEnd > 0))""", arg=names)
    assert page.evaluate(PLACEHOLDERS) == names  # none placed yet
    page.pdf(format="A4")  # Chromium fires beforeprint
    assert page.locator("svg[data-figure-file]").count() == 0
    context.close()
