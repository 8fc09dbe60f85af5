"""What scripts put into a lesson at load goes into a block of its own, not straight into the
article (issue 23): the theme's wrapper around each table, and the page's Run all controls.

The theme's stylesheet has rules whose last part is a bare ``:nth-child`` (its tabs without
JavaScript), which every element is tested against; Chromium then treats the children of every
element as depending on their position, and a child inserted at load restyles its parent's whole
subtree. Inserted into the article, that was the whole lesson: a Lighthouse trace of
vanishing-gradients showed the theme's DOMContentLoaded task restyle 981 elements (29-41 ms) after
its table wrapper and the page controls, and 68 (8.5 ms) once neither touched the article.
"""

from __future__ import annotations

from html.parser import HTMLParser

from ..base.html import VOID_ELEMENTS

TABLE_BLOCK_START, TABLE_BLOCK_END = '<div class="pz-table">', "</div>"
PAGE_CONTROLS_SLOT = "<div data-page-controls-slot></div>"  # cells/page-controls.js fills it


class _Places(HTMLParser):
    """Where, in the page's content, each bare table starts and ends, and where the top-level
    element that holds the first lesson cell (one that Run all runs) starts."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.html = html
        self.line_starts = [0] + [i + 1 for i, char in enumerate(html) if char == "\n"]
        self.open: list[tuple[str, int, bool]] = []  # tag, where it starts, whether a bare table
        self.bare_tables: list[tuple[int, int]] = []
        self.lesson_cells: list[int] = []  # where the top-level element holding each starts
        self.feed(html)
        self.close()

    def _here(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag in VOID_ELEMENTS:
            return
        here, named = self._here(), dict(attrs)
        if "pycell" in (named.get("class") or "").split() and "data-cell-id" in named \
                and named.get("data-cell-kind") != "exercise":
            self.lesson_cells.append(self.open[0][1] if self.open else here)
        self.open.append((tag, here, tag == "table" and not attrs))

    def handle_startendtag(self, tag, attrs):
        pass  # <path/>: no content, nothing opened

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, -1, -1):
            name, start, bare_table = self.open[depth]
            if name == tag:
                del self.open[depth:]
                if bare_table:
                    self.bare_tables.append((start, self.html.index(">", self._here()) + 1))
                return


def own_blocks(html: str) -> str:
    """``html``: a page's content. Each bare table (Python-Markdown writes tables without a class;
    the theme wraps each such one at load) in a block of its own; on a page of several lesson
    cells, an empty slot for Run all's controls before the top-level block that holds the first."""
    places = _Places(html)
    # (where, then: a block's end before a slot before a block's start at the same place, markup)
    inserts = [(end, 0, TABLE_BLOCK_END) for _, end in places.bare_tables]
    if len(places.lesson_cells) > 1:
        inserts.append((places.lesson_cells[0], 1, PAGE_CONTROLS_SLOT))
    inserts += [(start, 2, TABLE_BLOCK_START) for start, _ in places.bare_tables]
    pieces, done = [], 0
    for at, _, markup in sorted(inserts):
        pieces += [html[done:at], markup]
        done = at
    return "".join(pieces) + html[done:]
