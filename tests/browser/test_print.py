"""A lesson on paper (assets/print.css): Chromium's PDF of each lesson, all its parts printed
from its first (the button at a part's end, "print the whole lesson", site/lesson-print.js), has every heading
of its Markdown sources and every stepper row, and none of the page's buttons or the answers the
reader had opened; a <details> that holds lesson text prints open. The PDF's text is read back
with pypdf (support/pdf_text.py: Bangla included)."""

from __future__ import annotations

import re
import unicodedata

import pytest

from py_lessons.runtime.catalogue import t
from support.browser import wait_enhanced
from support.local_server import serve
from support.pdf_text import pdf_text
from support.site import ROOT, build_site, lesson_markdown, lesson_part_urls, lesson_site

pytestmark = pytest.mark.browser

LESSONS = sorted(path.parent.name for path in (ROOT / "site" / "lessons").glob("*/index.md"))
# Catalogue keys whose text labels a button (or a <summary> that acts as one) in the page
BUTTON_KEYS = ("cell.run", "cell.stop", "cell.reset", "cell.original.show", "cell.original.hide", "cell.input.send",
               "page.run_all", "page.restart", "quiz.check", "quiz.retry", "reveal.show", "reveal.hide",
               "predict.show", "predict.hide", "complete.button", "complete.done", "stepper.prev", "stepper.next",
               "stepper.all", "stepper.recompute", "stepper.reset", "exercise.check", "exercise.solution.show",
               "exercise.solution.hide", "explorable.reset", "update.reload", "print.lesson")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")

# The text of what the page hides as answers, without formulas or code (a formula's glyphs are
# painted apart from the line, so the PDF has them elsewhere); one string per text node.
ANSWER_TEXTS = """() => [...document.querySelectorAll('details.pz-answer .pz-answer-body, .pz-explain')].map((answer) => {
    const walker = document.createTreeWalker(answer, NodeFilter.SHOW_TEXT);
    const parts = [];
    while (walker.nextNode()) {
        // a glossary term's definition (its tooltip) is the glossary's text, printed in the term list, not the answer's
        if (!walker.currentNode.parentElement.closest('math, code, pre, svg, .pz-tip')) parts.push(walker.currentNode.textContent);
    }
    return parts;
})"""


def markdown_headings(markdown: str) -> list[str]:
    """ATX headings outside fenced blocks, as the reader reads them (no attribute lists, no
    Markdown marks)."""
    headings, fence = [], None
    for line in markdown.splitlines():
        opened = FENCE.match(line)
        if opened and (fence is None or opened.group(1).startswith(fence)):
            fence = None if fence else opened.group(1)
            continue
        heading = None if fence else re.match(r"#{1,6}\s+(.*?)\s*(\{[^}]*\})?\s*#*\s*$", line)
        if heading:
            headings.append(heading.group(1).replace("`", "").replace("**", ""))
    return headings


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def phrase_count(text: str, phrase: str) -> int:
    """How often ``phrase`` is in ``text`` as whole words: "চালান" is not in "চালানো"."""
    text, phrase = re.sub(r"\s+", " ", text), re.sub(r"\s+", " ", phrase)
    count = 0
    for found in re.finditer(re.escape(phrase), text):
        before = text[found.start() - 1] if found.start() else " "
        after = text[found.end()] if found.end() < len(text) else " "
        count += not any(unicodedata.category(char)[0] in "LM" for char in (before, after))
    return count


def printed(page) -> str:
    return pdf_text(page.pdf(format="A4"))


@pytest.mark.no_python
@pytest.mark.parametrize("slug", LESSONS)
def test_a_printed_lesson_has_its_headings_and_steps_and_no_buttons_or_answers(page, site_url, slug):
    source = lesson_markdown(slug)  # every part
    headings = markdown_headings(source)
    assert len(headings) >= 5
    page.goto(f"{site_url}/lessons/{slug}/")
    wait_enhanced(page)
    first_part = (ROOT / "site" / "lessons" / slug / "index.md").read_text(encoding="utf-8")
    if re.search(r"^```stepper\b", first_part, flags=re.M):
        # on screen the steppers show their first step, the later rows inert until stepped to
        assert page.locator(".pz-stepper-table tbody > template[data-deferred]").count() > 0
    parts = len(lesson_part_urls(slug))
    if parts > 1:  # the header's button puts the other parts in the page, then asks the browser to print
        page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
        page.locator('[data-action="print-lesson"]').click()
        page.wait_for_selector('[data-action="print-lesson"][data-state="ready"]')
        assert page.evaluate("window.printed") == 1
        assert page.locator("[data-printed-part]").count() == parts - 1
        assert page.locator("article svg[data-figure-file]").count() == 0  # every part's figures in place
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # every answer looked at
    page.wait_for_function("() => !document.querySelector('details[open] > template[data-deferred]')")  # bodies in
    steps = page.evaluate("""() => [...document.querySelectorAll('.pz-step-title'), ...[...document.querySelectorAll(
        'template')].flatMap((t) => [...t.content.querySelectorAll('.pz-step-title')])].map((s) => s.textContent)""")
    shown = set(page.locator("button:visible, summary:visible").all_inner_texts())
    labels = {t(key) for key in BUTTON_KEYS} & shown
    assert {t("cell.run"), t("cell.reset")} <= labels
    # each answer's longest piece of prose (an answer that is only code or a formula has none)
    prose = ([part.strip() for part in parts if part.strip()] for parts in page.evaluate(ANSWER_TEXTS))
    answers = [max(pieces, key=len) for pieces in prose if pieces]
    assert len(answers) >= 3 and all(len(answer) >= 10 for answer in answers)

    text = printed(page)

    flat_text = flat(text)
    missing = [heading for heading in headings
               if not all(flat(part) in flat_text for part in re.split(r"\$[^$]*\$", heading))]
    assert missing == []
    assert [step for step in steps if flat(step) not in flat_text] == []
    # the lesson's own prose may use a label's words ("ঘরটি চালান"): as often as its source has them
    assert [label for label in labels if phrase_count(text, label) > phrase_count(source, label)] == []
    assert [answer for answer in answers if flat(answer) in flat_text] == []
    # printed (Chromium's PDF fires afterprint too): the page is this part alone again
    assert page.locator("[data-printed-part]").count() == 0


FOLDED = """\
# ভাঁজ করা পাঠ

<details class="note"><summary>আরও পড়ুন</summary><p>ভাঁজ করা পাঠ্যের ভেতরের কথা</p></details>

```reveal
id: fold-think
kind: thinking
question: ভাঁজের প্রশ্নটি কী?
hints:
  - প্রথম ইঙ্গিতের কথা
answer: লুকানো উত্তরের কথা
```
"""


@pytest.fixture(scope="module")
def folded_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("folded")
    done = build_site(root / "site", lesson_site(root, FOLDED))
    assert done.returncode == 0, done.stderr[-3000:]
    server, url = serve(root / "site")
    yield url
    server.shutdown()
    server.server_close()


def test_details_that_hold_lesson_text_print_open_and_answers_stay_closed(browser, folded_site):
    """A closed <details> of lesson text (as pymdownx.details writes `??? note`, or a hint) prints
    open; a closed answer stays out. The theme's script opens every <details> for printing; this
    is the stylesheet alone (scripts off), as a page prints before they run or without them."""
    context = browser.new_context(java_script_enabled=False)  # the `page` fixture allows one origin only
    page = context.new_page()
    page.goto(folded_site + "/lesson/")
    assert page.locator("details[open]").count() == 0

    text = flat(printed(page))

    assert flat("ভাঁজ করা পাঠ্যের ভেতরের কথা") in text and flat("প্রথম ইঙ্গিতের কথা") in text
    assert flat("ভাঁজের প্রশ্নটি কী?") in text
    assert flat("লুকানো উত্তরের কথা") not in text
    context.close()
