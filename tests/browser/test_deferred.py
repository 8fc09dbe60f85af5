"""What a page hides at load ships inert (issue 23; render/deferred.py, site/deferred.js), in real
Chromium on a phone: a closed answer, hint or note, a tab not shown and a stepper's later rows
are no elements of the page until the reader opens them; then they are there whole, as the build
wrote them (a code block with the theme's copy button, a figure fetched and placed), and printing
puts every one of them in the page."""

from __future__ import annotations

import html
import re

import pytest

from support.browser import PHONE, component, figures_in_place
from support.pdf_text import pdf_text
from py_lessons.runtime import steppers

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

PRACTICE = "lessons/vanishing-gradients/practice/"

# each closed details of the page: [its children's tags, the text its template holds]
CLOSED = """() => [...document.querySelectorAll('article details:not([open])')].map((d) =>
  [[...d.children].map((c) => c.tagName.toLowerCase()), d.querySelector(':scope > template')?.content.textContent ?? null])"""


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _open_phone(browser, site_url, path):
    context = browser.new_context(**PHONE, service_workers="block")
    page = context.new_page()
    page.goto(f"{site_url}/{path}")
    page.wait_for_load_state("load")
    return context, page


def test_a_closed_body_is_no_element_until_opened_then_it_is_there_whole(browser, site_url, built_site):
    built = (built_site / PRACTICE / "index.html").read_text(encoding="utf-8")
    templates = [_text(body) for body in re.findall(r"<template data-deferred>(.*?)</template>", built, re.S)]
    assert len(templates) >= 10
    context, page = _open_phone(browser, site_url, PRACTICE)
    closed = page.evaluate(CLOSED)
    inert = [text for children, text in closed if children == ["summary", "template"]]
    assert len(inert) >= 10 and set(inert) <= set(templates)
    # a note holding a code block: opened by a tap on its summary
    with_code = page.evaluate("""() => [...document.querySelectorAll('article details:not([open])')]
        .findIndex((d) => d.querySelector(':scope > template')?.content.querySelector('pre > code'))""")
    assert with_code >= 0
    note = page.locator("article details:not([open])").nth(with_code).element_handle()
    expected = note.evaluate("(d) => d.querySelector(':scope > template').content.textContent")
    note.query_selector(":scope > summary").tap()
    assert note.evaluate("(d) => d.open")
    assert note.evaluate("(d) => !d.querySelector(':scope > template')")
    assert note.evaluate("(d) => [...d.childNodes].filter((n) => n.nodeName !== 'SUMMARY').map((n) => n.textContent).join('').trim()") == expected.strip()
    code = note.query_selector("pre > code")
    assert code.is_visible() and code.bounding_box()["height"] > 20
    # the theme's copy button, pointing at this block, as the theme gives the blocks it saw at load
    pre_id = code.evaluate("(c) => c.parentElement.id")
    assert pre_id
    buttons = note.query_selector_all(f'pre > nav.md-code__nav > button.md-code__button[data-clipboard-target="#{pre_id} > code"]')
    assert len(buttons) == 1 and buttons[0].get_attribute("title")
    context.close()


def test_a_tab_not_shown_arrives_when_its_label_is_tapped(browser, site_url):
    context, page = _open_phone(browser, site_url, "lessons/optimization/")
    tabs = component(page, "code-tabs", "opt-three-lr-tabs")
    go = tabs.locator(".tabbed-block").nth(1)
    assert go.evaluate("(b) => b.getElementsByTagName('*').length") == 1  # its template alone
    tabs.locator(".tabbed-labels label").nth(1).tap()
    code = go.locator("pre > code")
    assert code.is_visible() and "package main" in code.inner_text()
    assert not page.locator(".tabbed-block template").count()
    context.close()


def test_an_answer_with_a_figure_gets_its_figure_when_opened(browser, site_url):
    context, page = _open_phone(browser, site_url, "lessons/optimization/landscape/")
    predict = component(page, "predict", "opt-predict-bumpy")
    assert not predict.locator("svg").count()
    predict.locator("summary").tap()
    figures_in_place(page, predict)
    assert predict.locator("svg text").count() >= 5
    context.close()


def test_a_steppers_later_rows_come_when_the_reader_steps_on(browser, site_url):
    context, page = _open_phone(browser, site_url, "guide/")
    stepper = component(page, "stepper", "guide-sigmoid")
    page.wait_for_selector('[data-component="stepper"][data-id="guide-sigmoid"][data-enhanced]')
    total = len(steppers.run_stepper("sigmoid_chain")["steps"])
    assert stepper.locator("[data-row]").count() == 1
    assert stepper.locator("[data-position]").inner_text().endswith(str(total).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")))
    stepper.locator('[data-action="next"]').tap()
    assert stepper.locator("[data-row]").count() == total
    assert stepper.evaluate("(s) => [...s.querySelectorAll('[data-row]')].filter((r) => !r.hidden).length") == 2
    context.close()


def test_printing_puts_every_hidden_body_in_the_page(browser, site_url, built_site):
    """Print cannot wait: the bodies go in before it lays the page out (notes and hints print
    open; answers stay out, print.css)."""
    context, page = _open_phone(browser, site_url, PRACTICE)
    code = page.evaluate("""() => [...document.querySelectorAll('article details:not(.pz-answer) > template')]
        .map((t) => t.content.querySelector('pre > code')?.textContent).find(Boolean)""")
    assert code
    printed = re.sub(r"\s+", "", pdf_text(page.pdf(format="A4")))
    assert not page.locator("article template[data-deferred]").count()
    for line in [line for line in code.splitlines() if line.strip()][:3]:
        assert re.sub(r"\s+", "", line) in printed
    context.close()
