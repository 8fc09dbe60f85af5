"""A lesson's path: a section whose cells have all run and whose questions are all answered gets
a check mark in the table of contents and by its heading, as the reader works and on a later
visit; the other sections do not."""

from __future__ import annotations

import pytest

from support.browser import wait_enhanced

pytestmark = pytest.mark.browser

LESSON = "/lessons/optimization/landscape/"  # a part whose sections include one with a single cell
# each h2 with the ids of the lesson cells and questions up to the next h2 (read from the page)
SECTIONS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('article h2[id], article .pycell[data-cell-id]:not([data-cell-kind="exercise"]), article [data-component="mcq"], article [data-component="ordering"]')) {
    if (el.matches('h2')) out.push({id: el.id, cells: [], questions: []});
    else if (out.length && el.matches('.pycell')) out.at(-1).cells.push(el.dataset.cellId);
    else if (out.length) out.at(-1).questions.push(el.dataset.id);
  }
  return out;
}"""
MARKED = """() => [...document.querySelectorAll('.md-sidebar--secondary a.md-nav__link[data-section-done]')]
  .map((a) => a.getAttribute('href').split('#')[1])"""


def test_a_section_is_checked_once_its_cells_have_run(browser, site_url):
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    assert page.evaluate(MARKED) == []  # a first visit: nothing done
    sections = page.evaluate(SECTIONS)
    target = next(s for s in sections if len(s["cells"]) == 1 and not s["questions"])
    page.locator(f'.pycell[data-cell-id="{target["cells"][0]}"] [data-action="run"]').click()
    page.wait_for_function("(id) => document.querySelector(`.md-sidebar--secondary a[href$='#${id}'][data-section-done]`)",
                           arg=target["id"], timeout=120_000)
    assert page.evaluate(MARKED) == [target["id"]]
    assert page.locator(f"h2#{target['id']}[data-section-done]").count() == 1
    assert page.evaluate("(id) => getComputedStyle(document.querySelector(`.md-sidebar--secondary a[href$='#${id}']`), '::after').content",
                         target["id"]) == '" ✓"'
    page.reload()  # a later visit shows it from what is stored
    wait_enhanced(page)
    page.wait_for_function("() => document.querySelector('.md-sidebar--secondary a[data-section-done]')")
    assert page.evaluate(MARKED) == [target["id"]]
    page.context.close()
