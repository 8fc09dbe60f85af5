"""What the theme's search indexes of a page: its prose. The course's controls (buttons, labels,
choices, hints), glossary tooltips, figures and stepper tables are marked ``data-search-exclude``
(mkdocs-material's search plugin skips such an element and everything in it), so that a search
result's snippet is the lesson's own text, not "চালান থামান" or a definition lifted out of a
tooltip. Cell output is excluded where it is rendered (cell_html.py), formulas in math.py."""

from __future__ import annotations

import re

EXCLUDE = "data-search-exclude"
# Elements that are never prose, by tag (figures are excluded by their boxes, so a figure's SVG
# stays byte for byte what Python drew)...
CONTROL_TAGS = ("button", "label", "legend", "fieldset", "select", "summary")
# ...and by one of their classes: the cell's toolbar label and output label, the download box,
# glossary tooltips, quiz/stepper/explorable hints and labels, figures and stepper tables; the
# class page's and the review's views, whose questions a search finds in their lessons.
CONTROL_CLASSES = ("pycell-label", "pycell-output-label", "pz-download", "pz-tip", "pz-quiz-kind",
                   "pz-quiz-hint", "pz-stepper-hint", "pz-stepper-table", "pz-explorable-hint",
                   "pz-explorable-figure", "pz-class", "pz-review", "pz-review-due")

_START_TAG = re.compile(r"<([a-zA-Z][\w-]*)(\s[^<>]*?)?(/?)>")
_CLASS = re.compile(r'\sclass="([^"]*)"')


def _is_control(tag: str, attrs: str) -> bool:
    if tag.lower() in CONTROL_TAGS:
        return True
    found = _CLASS.search(attrs)
    return bool(found) and any(name in CONTROL_CLASSES for name in found[1].split())


def prose_only(html: str) -> str:
    """``html`` with every control's start tag marked for the search plugin to skip. Code and
    output are escaped text in the page, so a start tag here is always markup."""
    def mark(match: re.Match) -> str:
        tag, attrs, slash = match[1], match[2] or "", match[3]
        if EXCLUDE in attrs or not _is_control(tag, attrs):
            return match[0]
        return f"<{tag}{attrs} {EXCLUDE}{slash}>"
    return _START_TAG.sub(mark, html)
