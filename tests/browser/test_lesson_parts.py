"""Lessons in parts, on the phone (issue 22): every part of every lesson is at most 25 screens long
at 360×740 with its first runnable cell within its first two screens, nothing wider than the
screen, and at most 1,500 elements at load (issue 23: style and layout of elements is what a
phone waits for on each page; counted as the benchmark's census counts them); its header names
the lesson, its parts and the reader's place. A reader's work saved before the lessons were split
(keys under the lesson's path, as yesterday's build wrote them) shows in the part that now holds
each cell and question, and the home page counts it per part."""

from __future__ import annotations

import re

import pytest

from support.browser import LAPTOP, PHONE, wait_components, wait_enhanced
from support.site import lesson_part_urls
from support.work import namespace

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

SLUGS = ["optimization", "numerical-stability", "vanishing-gradients", "smaller-models", "capstone"]
MEASURE = """() => {
  const H = innerHeight;
  const first = document.querySelector('article .pycell[data-cell-id]');
  return {screens: document.documentElement.scrollHeight / H,
          elements: document.getElementsByTagName('*').length,
          firstCell: first ? (first.getBoundingClientRect().top + scrollY) / H : null,
          wide: document.documentElement.scrollWidth - innerWidth,
          place: document.querySelector('[data-lesson-parts] .pz-parts-place')?.textContent ?? null,
          current: document.querySelector('[data-lesson-parts] [aria-current="step"]')?.textContent ?? null};
}"""

# the figures within two screens are in their place (site/figures.js), as the census waits for
FIGURES_NEAR_PLACED = "() => [...document.querySelectorAll('svg[data-figure-file]')].every((svg) => svg.getBoundingClientRect().top > 3 * innerHeight)"
MAX_ELEMENTS = 1500

ENHANCED_KINDS = ["stepper", "exercise", "explorable", "mcq", "ordering", "predict", "reveal", "complete"]
ENHANCED = ("() => [...document.querySelectorAll('article :is(.pycell[data-cell-id], "
            + ", ".join(f"[data-component={kind}]" for kind in ENHANCED_KINDS)
            + ")')].every((e) => e.hasAttribute('data-enhanced'))")


def with_stored_work(browser, site_url, ns, items):
    """A laptop page (Python held back) whose browser holds ``items`` (key -> value) as stored."""
    context = browser.new_context(**LAPTOP, service_workers="block")
    context.route("**/pyodide/**", lambda route: None)
    page = context.new_page()
    page.goto(site_url + "/")
    page.evaluate("([ns, items]) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(ns + ':' + k, JSON.stringify(v)); }",
                  [ns, items])
    return context, page


@pytest.mark.parametrize("slug", SLUGS)
def test_each_part_is_short_and_opens_with_something_to_run(browser, site_url, slug):
    context = browser.new_context(**PHONE, service_workers="block")
    context.route("**/pyodide/**", lambda route: None)  # held back: Python still loading, the page alone
    page = context.new_page()
    parts = lesson_part_urls(slug)
    for k, url in enumerate(parts, 1):
        page.goto(f"{site_url}/{url}")
        # measured as the reader sees it: cells and components enhanced, fonts in (a loaded CI
        # machine once measured the page before its scripts had run)
        page.wait_for_function(ENHANCED)
        page.wait_for_function(FIGURES_NEAR_PLACED)
        page.evaluate("document.fonts.ready")
        found = page.evaluate(MEASURE)
        assert found["screens"] <= 25, (url, found)
        assert found["firstCell"] is not None and found["firstCell"] < 2, (url, found)
        assert found["wide"] <= 0, (url, found)  # no sideways scrolling of the page
        assert found["elements"] <= MAX_ELEMENTS, (url, found)
        if len(parts) > 1:
            digits = "০১২৩৪৫৬৭৮৯"
            assert found["place"] == f"পর্ব {digits[k]} / {digits[len(parts)]}", (url, found)
            assert found["current"].startswith(digits[k]), (url, found)
    context.close()


def test_work_saved_before_the_split_shows_in_its_part_and_on_the_home_card(browser, site_url, built_site):
    """A profile from the one-page build: an edited cell (now in part 2), a run (part 3) and an
    answer (part 4) under the lesson's path; each part shows what is its own."""
    ns = namespace(built_site)
    lesson = "/lessons/vanishing-gradients/"
    parts = lesson_part_urls("vanishing-gradients")
    html = {url: (built_site / url / "index.html").read_text(encoding="utf-8") for url in parts}
    ids = {url: re.findall(r'<div class="pycell" data-cell-id="([^"]+)"(?![^>]*data-cell-kind="exercise")', text)
           for url, text in html.items()}
    edited, ran = ids[parts[1]][0], ids[parts[2]][0]
    answered = re.search(r'data-component="mcq" data-id="([^"]+)"', html[parts[3]])[1]
    my_code = "print('আমার আগের সম্পাদনা')\n"
    saved = {f"cell:{lesson}:{edited}": my_code, f"cell-run:{lesson}:{ran}": 1_700_000_000_000,
             f"mcq:{lesson}:{answered}": {"choice": 0}, f"visit:{lesson}": 1_700_000_000_000}
    context, page = with_stored_work(browser, site_url, ns, saved)

    page.goto(f"{site_url}/{parts[1]}")
    wait_enhanced(page)
    shown = page.locator(f'[data-cell-id="{edited}"] pre, [data-cell-id="{edited}"] .cm-content').first.inner_text()
    assert shown.strip() == my_code.strip()
    # the header marks no part done: each has more than the one item saved
    assert page.locator("[data-lesson-parts] li[data-part-done]").count() == 0
    page.goto(f"{site_url}/{parts[3]}")
    wait_components(page)  # the answer is the quiz's: its script may come after the cells'
    assert page.locator(f'[data-component="mcq"][data-id="{answered}"] input[type="radio"]').first.is_checked()

    page.goto(site_url + "/")
    card = page.locator('[data-lesson="vanishing-gradients"]')
    card.locator("[data-part-progress]").first.wait_for()
    page.wait_for_function("() => document.querySelector('[data-lesson=\"vanishing-gradients\"] [data-part-progress]').textContent !== ''")
    figures = card.locator("[data-part-progress]").evaluate_all("(els) => els.map((el) => +el.dataset.progress)")
    assert len(figures) == len(parts)
    assert figures[0] == 0 and figures[2] > 0 and figures[3] > 0  # the run in part 3, the answer in part 4
    # "where you left off": the part that holds the cell last run, at that cell
    link = page.locator("[data-continue-link]")
    assert link.get_attribute("href").endswith(f"{parts[2].split('/')[-2]}/#{ran}")
    assert "পর্ব ৩" in link.inner_text()
    context.close()


def test_a_part_is_checked_in_the_header_once_its_cells_ran_and_questions_are_answered(browser, site_url, built_site):
    ns = namespace(built_site)
    parts = lesson_part_urls("optimization")
    text = (built_site / parts[1] / "index.html").read_text(encoding="utf-8")
    entry = re.findall(r'<li data-part-cells="([^"]*)" data-part-questions="([^"]*)">', text)[1]  # part 2's
    items = {f"cell-run:/lessons/optimization/:{cell}": 1 for cell in entry[0].split()}
    items.update({f"{q.split(':')[0]}:/lessons/optimization/:{q.split(':')[1]}": {"choice": 0} for q in entry[1].split()})
    context, page = with_stored_work(browser, site_url, ns, items)
    page.goto(f"{site_url}/{parts[0]}")
    wait_enhanced(page)
    page.wait_for_function("() => document.querySelector('[data-lesson-parts] li[data-part-done]')")
    done = page.locator("[data-lesson-parts] li").evaluate_all("(els) => els.map((el) => el.hasAttribute('data-part-done'))")
    assert done == [False, True, False]
    context.close()
