"""What a page hides at load ships inert (render/deferred.py, issue 23): a closed details' body
and the tabs not shown go into <template data-deferred>; what the page's scripts must find at
load (a cell, a component) stays live. Checked by parsing the result as a browser's parser would
(html.parser: a template's content is not part of the document's elements)."""

from __future__ import annotations

from html.parser import HTMLParser

from py_lessons.plugin.render.components import stepper
from py_lessons.plugin.render.deferred import MIN_ELEMENTS, defer_hidden
from py_lessons.runtime import steppers

BODY = "<p>উত্তর <strong>এখানে</strong></p><pre><code>x = 1</code></pre>"  # 4 elements


class Live(HTMLParser):
    """The document's elements outside templates, and the text inside each template."""

    def __init__(self, html: str):
        super().__init__()
        self.depth, self.live, self.deferred = 0, [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "template":
            self.depth += 1
            self.deferred.append("")
        elif not self.depth:
            self.live.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "template":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.deferred[-1] += data


def details(body: str, attrs: str = "") -> str:
    return f'<details class="pz-hint"{attrs}><summary>ইঙ্গিত ১</summary>{body}</details>'


def test_a_closed_details_keeps_its_summary_and_its_body_goes_inert():
    html = "<p>আগে</p>" + details(BODY) + "<p>পরে</p>"
    out = defer_hidden(html)
    parsed = Live(out)
    assert [tag for tag, _ in parsed.live] == ["p", "details", "summary", "p"]
    assert parsed.deferred == ["উত্তর এখানেx = 1"]
    assert out == html.replace(BODY, f"<template data-deferred>{BODY}</template>")


def test_what_is_shown_or_too_small_or_live_stays():
    shown = details(BODY, " open")
    small = details("<p>" + "ছোট" * 50 + "</p>")
    cell = details(BODY + '<div class="pycell" data-cell-id="c1"><pre><code>1</code></pre></div>')
    component = details(BODY + '<div data-component="mcq" data-id="q"></div>')
    for html in (shown, small, cell, component):
        assert defer_hidden(html) == html
    assert MIN_ELEMENTS > len(Live("<p>ছোট</p>").live)
    # a glossary term is enhanced when its body is shown: it does not keep the body live
    term = details(BODY + '<a class="pz-term" data-component="glossary-term" href="#">lr</a>')
    assert "<template data-deferred>" in defer_hidden(term)


def test_nested_details_go_with_their_parent_and_every_closed_one_on_the_page_goes():
    inner = details(BODY)
    outer = details(BODY + inner)
    html = outer + "<p>মাঝে</p>" + details(BODY)
    parsed = Live(defer_hidden(html))
    assert [tag for tag, _ in parsed.live] == ["details", "summary", "p", "details", "summary"]
    assert len(parsed.deferred) == 2 and parsed.deferred[0].count("উত্তর") == 2


TABS = ('<div class="tabbed-set tabbed-alternate" data-tabs="1:3">'
        '<input {c1}id="__tabbed_1_1" name="__tabbed_1" type="radio" />'
        '<input {c2}id="__tabbed_1_2" name="__tabbed_1" type="radio" />'
        '<input id="__tabbed_1_3" name="__tabbed_1" type="radio" />'
        '<div class="tabbed-labels"><label for="__tabbed_1_1">Python</label><label for="__tabbed_1_2">Go</label>'
        '<label for="__tabbed_1_3">Rust</label></div>\n<div class="tabbed-content">\n'
        '<div class="tabbed-block"><div class="highlight"><pre><code>print(1)</code></pre></div></div>\n'
        '<div class="tabbed-block"><div class="highlight"><pre><code>fmt.Println(1)</code></pre></div></div>\n'
        '<div class="tabbed-block"><div class="highlight"><pre><code>println!(1)</code></pre></div></div>\n'
        '</div>\n</div>')


def test_every_tab_but_the_checked_one_goes_inert():
    first = Live(defer_hidden(TABS.format(c1='checked="checked" ', c2="")))
    assert first.deferred == ["fmt.Println(1)", "println!(1)"]
    assert sum(tag == "pre" for tag, _ in first.live) == 1
    second = Live(defer_hidden(TABS.format(c1="", c2='checked="checked" ')))
    assert second.deferred == ["print(1)", "println!(1)"]
    # every block is still there, in its order: three blocks, the labels untouched
    assert sum(attrs.get("class") == "tabbed-block" for _, attrs in second.live) == 3
    assert sum(tag == "label" for tag, _ in second.live) == 3


def test_a_stepper_shows_its_first_row_and_ships_the_rest_inert():
    parsed = stepper.parse("id: s1\nfunction: norm_clip\ninputs: {grad: [6, 8], max_norm: 5}\n")
    total = len(steppers.run_stepper("norm_clip", grad=[6, 8], max_norm=5)["steps"])
    html = Live(stepper.render(parsed))
    rows = [attrs for tag, attrs in html.live if tag == "tr" and "data-row" in attrs]
    assert [row["data-row"] for row in rows] == ["1"]
    assert len(html.deferred) == 1
    whole = stepper.render(parsed)
    deferred_rows = whole[whole.index("<template data-deferred>"):whole.index("</template>")]
    assert deferred_rows.count('data-row="') == total - 1 and deferred_rows.count(" hidden>") == total - 1


def test_a_calculation_spans_only_the_words_a_browser_could_break_inside():
    # "x", "=", "0.25," and "১.৫" cannot be broken (one character, or letters, digits and a number's
    # "." or ","): plain text, no element; "(2·w" and "−0.5])[0]" could, so each keeps a span
    shown = stepper._unbroken_words("x = 0.25, ১.৫ (2·w  −0.5])[0]")
    assert shown == ('x = 0.25, ১.৫ <span class="pz-word">(2·w</span>  '
                     '<span class="pz-word">−0.5])[0]</span>')
