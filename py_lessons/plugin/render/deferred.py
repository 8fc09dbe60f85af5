"""What a page hides at load ships inert (issue 23): the body of a closed <details> (an answer, a
hint, a folded note, the page's terms) and every tab of a tab set but the one shown.

Each such body goes into ``<template data-deferred>`` in its place: the browser parses it into a
fragment outside the document, so it costs a phone no elements to style, lay out or keep. On
vanishing-gradients' practice part that was 562 of 1,988 elements; on the first part of
optimization the hidden Go tab alone was 474. site/deferred.js puts a body in its place the moment
the reader opens it (the summary's click, any toggle, the tab's change), and every body before the
page is printed.

A body that holds a runnable cell or a component with behaviour (a quiz, a stepper...) stays live:
the page's scripts find those at load (Run all, progress, section marks). A glossary term is
enhanced when its body is shown.
"""

from __future__ import annotations

import re

MIN_ELEMENTS = 3  # a body of fewer elements is not worth its <template> (itself an element)
TEMPLATE = '<template data-deferred>{}</template>'

_DETAILS_TAG = re.compile(r"<(/?)details\b([^>]*)>")
_DIV_TAG = re.compile(r"<(/?)div\b([^>]*)>")
_SUMMARY_END = re.compile(r"</summary>")
_OPEN = re.compile(r"\sopen(?:[\s=>]|$)")
_ELEMENT = re.compile(r"<[a-zA-Z]")
# what keeps a body live: a cell, or a component other than a glossary term
_LIVE = re.compile(r'data-cell-id=|data-component="(?!glossary-term")')
_TABBED_SET = re.compile(r'<div class="tabbed-set[^"]*"[^>]*>')
_RADIO = re.compile(r"<input\b([^>]*)>")


def _worth_deferring(body: str) -> bool:
    return len(_ELEMENT.findall(body)) >= MIN_ELEMENTS and not _LIVE.search(body)


def _closing(tags: re.Pattern, html: str, start: int) -> int:
    """The index of the end tag that closes the element whose start tag begins at ``start``."""
    depth = 0
    for tag in tags.finditer(html, start):
        depth += -1 if tag[1] else 1
        if depth == 0:
            return tag.start()
    raise ValueError(f"an element opened at {start} is never closed")


def _defer_details(html: str) -> str:
    out, at = [], 0
    for tag in _DETAILS_TAG.finditer(html):
        if tag[1] or tag.start() < at or _OPEN.search(tag[2]):
            continue  # an end tag, one inside a body already deferred, or a details shown open
        end = _closing(_DETAILS_TAG, html, tag.start())
        summary = _SUMMARY_END.search(html, tag.end(), end)
        if not summary:
            continue
        body = html[summary.end():end]
        if _worth_deferring(body):
            out += [html[at:summary.end()], TEMPLATE.format(body)]
            at = end
    return "".join(out) + html[at:]


def _defer_tabs(html: str) -> str:
    """pymdownx.tabbed (alternate style): the set's radio inputs, its labels, then its blocks in
    the same order; CSS shows the block of the checked input."""
    out, at = [], 0
    for found in _TABBED_SET.finditer(html):
        if found.start() < at:
            continue
        end = _closing(_DIV_TAG, html, found.start())
        radios, position = [], found.end()
        while (radio := _RADIO.match(html, position)) is not None:
            radios.append(radio[1])
            position = radio.end()
        shown = next((i for i, attrs in enumerate(radios) if "checked" in attrs), 0)
        content = html.find('<div class="tabbed-content">', position, end)
        if content < 0:
            continue
        blocks, cursor, index = [], content + len('<div class="tabbed-content">'), 0
        while (block := html.find('<div class="tabbed-block">', cursor, end)) >= 0:
            body_start = block + len('<div class="tabbed-block">')
            block_end = _closing(_DIV_TAG, html, block)
            if index != shown and _worth_deferring(html[body_start:block_end]):
                blocks.append((body_start, block_end))
            cursor, index = block_end, index + 1
        for body_start, block_end in blocks:
            out += [html[at:body_start], TEMPLATE.format(html[body_start:block_end])]
            at = block_end
    return "".join(out) + html[at:]


def defer_hidden(html: str) -> str:
    """``html`` with the bodies hidden at load in templates (tabs first: a tab may hold details)."""
    return _defer_details(_defer_tabs(html))
