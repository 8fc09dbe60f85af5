"""Every lesson is laid out the same way (issue 14, "uniform section labels across lessons"): the
opening "what you will learn" box, numbered sections "## ১ · ...", then the closing sections in
one order, read across its parts in the navigation's order (the exercises first: the last part
opens with something to run); and each of the four topic lessons has at least three checked
exercises."""

from __future__ import annotations

import re

import pytest

from py_lessons.runtime.numbers import bn_digits
from support.site import ROOT, lesson_markdown

LESSONS = sorted((ROOT / "site" / "lessons").glob("*/index.md"))
TOPIC_LESSONS = ["optimization", "numerical-stability", "vanishing-gradients", "smaller-models"]
CLOSING = ["অনুশীলনী", "ভাবনার প্রশ্ন", "নিজেকে যাচাই করুন", "পরীক্ষা ও সাক্ষাৎকারের প্রশ্ন", "আরও পড়ুন",
           "মনে রাখুন", "শব্দকোষ"]
OPTIONAL = {"অনুশীলনী"}  # the capstone's one exercise is its own numbered section


def headings(markdown: str) -> list[str]:
    """The page's level-2 headings, outside fenced blocks."""
    found, fence = [], None
    for line in markdown.splitlines():
        opening = re.match(r"^(`{3,}|~{3,})", line)
        if opening and (fence is None or opening.group(1).startswith(fence)):
            fence = None if fence else opening.group(1)
        elif fence is None and line.startswith("## "):
            found.append(line[3:].strip())
    return found


def test_the_course_has_its_lessons():
    assert {path.parent.name for path in LESSONS} >= {*TOPIC_LESSONS, "capstone"}


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.parent.name)
def test_numbered_sections_then_the_closing_sections_in_the_course_order(page):
    markdown = lesson_markdown(page.parent.name)
    assert "এই পাঠে যা শিখবেন" in markdown
    found = headings(markdown)
    numbered = [h for h in found if re.match(r"^[০-৯]+ · \S", h)]
    assert numbered, "numbered sections: '## ১ · title'"
    assert [h.split(" · ")[0] for h in numbered] == [bn_digits(str(i)) for i in range(1, len(numbered) + 1)]
    assert found[:len(numbered)] == numbered, "numbered sections come first"
    closing = found[len(numbered):]
    assert closing == [h for h in CLOSING if h in closing], f"closing sections out of the course order: {closing}"
    assert set(CLOSING) - OPTIONAL <= set(closing), f"missing: {sorted(set(CLOSING) - OPTIONAL - set(closing))}"


@pytest.mark.parametrize("slug", TOPIC_LESSONS)
def test_each_topic_lesson_has_at_least_three_exercises_and_an_explorable(slug):
    markdown = lesson_markdown(slug)
    assert len(re.findall(r"^```exercise\b", markdown, flags=re.M)) >= 3
    assert re.search(r"^```explorable\b", markdown, flags=re.M)


def test_headings_inside_code_fences_are_not_sections():
    assert headings("## ১ · ক\n```python\n## not a heading\n```\n## শব্দকোষ\n") == ["১ · ক", "শব্দকোষ"]
