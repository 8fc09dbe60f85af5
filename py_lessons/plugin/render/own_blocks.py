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

import re

# Python-Markdown writes a table as a bare <table>; the theme wraps each classless one at load
_TABLE = re.compile(r"<table>.*?</table>", re.S)
TABLE_BLOCK = '<div class="pz-table">{}</div>'
PAGE_CONTROLS_SLOT = "<div data-page-controls-slot></div>"  # cells/page-controls.js fills it
_LESSON_CELL = re.compile(r'<div class="pycell" data-cell-id="[^"]*"(?![^>]*data-cell-kind="exercise")[^>]*>')
# a tag (attribute values may hold ">"), or a script or style whose text is not markup
_TAG = re.compile(r"""<(script|style)\b.*?</\1\s*>|<(/?)([a-zA-Z][\w:-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(/?)>""", re.S | re.I)
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _top_level_start(html: str, index: int) -> int:
    """Where the top-level element that holds position ``index`` of ``html`` starts."""
    depth, start = 0, 0
    for tag in _TAG.finditer(html, 0, index):
        if tag.group(1):  # a script or style: one element, no depth
            start = tag.start() if depth == 0 else start
            continue
        closing, name, self_closing = tag.group(2), tag.group(3).lower(), tag.group(4)
        if closing:
            depth -= 1
        elif name not in _VOID and not self_closing:
            if depth == 0:
                start = tag.start()
            depth += 1
    return start if depth else index


def own_blocks(html: str) -> str:
    """``html``: a page's content. Each bare table in a block of its own; on a page of several
    lesson cells (the ones Run all runs), an empty slot for its controls before the top-level
    block that holds the first."""
    cells = list(_LESSON_CELL.finditer(html))
    if len(cells) > 1:
        at = _top_level_start(html, cells[0].start())
        html = html[:at] + PAGE_CONTROLS_SLOT + html[at:]
    return _TABLE.sub(lambda table: TABLE_BLOCK.format(table.group(0)), html)
