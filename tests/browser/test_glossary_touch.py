"""A glossary term in a lesson, on a phone (360×740, touch): the first tap opens its definition in
place, as a sheet along the bottom of the screen, whole and readable; the lesson stays. A second
tap goes on to the glossary; a tap elsewhere closes the sheet. A mouse keeps the link as it was.
A term in a question's explanation does the same once the explanation is shown."""

from __future__ import annotations

import pytest
import yaml

from support.a11y import serious_violations
from support.site import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

LESSON = "/lessons/optimization/"
TERM = '.pz-term[data-component="glossary-term"][data-id="learning-rate"]'
ENTRY = yaml.safe_load((ROOT / "site" / "glossary.yml").read_text(encoding="utf-8"))["learning-rate"]


def test_a_tap_on_a_term_opens_its_definition_in_place(browser, site_url):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + LESSON)
    page.wait_for_selector(f"{TERM}[data-enhanced]")
    term = page.locator(TERM).first
    tip = term.locator("xpath=following-sibling::span[@role='tooltip']")
    term.scroll_into_view_if_needed()
    term.tap()
    tip.wait_for(state="visible")
    assert page.url == site_url + LESSON  # still the lesson
    # headed by its term, away from the word (the helper found a sheet that did not name it)
    assert tip.inner_text().split("\n") == [ENTRY["term"], ENTRY["definition"]]
    box = tip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 740 + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page, "document.querySelector('.pz-term-wrap[data-open] .pz-tip')") == []
    page.locator("h1").first.tap()  # elsewhere: closed
    tip.wait_for(state="hidden")
    term.tap()
    tip.wait_for(state="visible")
    term.tap()  # the second tap: on to the glossary
    page.wait_for_url("**/glossary/#term-learning-rate")
    context.close()


def test_a_mouse_click_on_a_term_follows_its_link(page, site_url):
    page.goto(site_url + LESSON)
    page.wait_for_selector(f"{TERM}[data-enhanced]")
    # beside the word, on hover or focus, the tip is the definition alone
    page.locator(TERM).first.focus()
    assert page.locator(TERM).first.locator("xpath=following-sibling::span[@role='tooltip']").inner_text() == ENTRY["definition"]
    page.locator(TERM).first.click()
    page.wait_for_url("**/glossary/#term-learning-rate")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_term_in_a_questions_explanation_opens_in_place_too(browser, site_url, scheme):
    """The explanation shown under a checked answer is a copy of the build's hidden one: its term
    is enhanced anew, and its tooltip has an id of its own."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                                  color_scheme=scheme, service_workers="block")
    context.route("**/pyodide/**", lambda route: None)
    page = context.new_page()
    path = "/lessons/vanishing-gradients/practice/"
    page.goto(site_url + path)
    page.evaluate(f"localStorage.setItem('__md_scheme', JSON.stringify({{scheme: '{'slate' if scheme == 'dark' else 'default'}'}}))")
    page.reload()
    question = page.locator('[data-component="mcq"][data-id="l17-q1"][data-enhanced]')
    question.locator('input[type="radio"]').nth(2).check()  # "২.৫": its explanation names the chain rule
    question.locator('[data-action="check"]').click()
    term = question.locator('[data-feedback] .pz-term[data-id="chain-rule"]')
    term.wait_for()
    page.wait_for_function("() => document.querySelector('[data-feedback] .pz-term').hasAttribute('data-enhanced')")
    term.scroll_into_view_if_needed()
    term.tap()
    tip = question.locator("[data-feedback] .pz-term-wrap[data-open] .pz-tip")
    tip.wait_for(state="visible")
    assert page.url == site_url + path
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map((el) => el.id)")
    assert len(ids) == len(set(ids))
    assert term.get_attribute("aria-describedby") == tip.get_attribute("id")
    assert serious_violations(page) == []
    context.close()
