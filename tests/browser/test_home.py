"""The home page as the course's front door, in real Chromium: the lessons in course order with
what the reader needs to choose one, their progress from what the reader did on the lesson pages,
"continue where you left off", and the course's offline copy on this device."""

from __future__ import annotations

import math

import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import cell, component, run_cell, wait_enhanced, wait_state
from support.work import WORDS_PER_MINUTE, course_lessons, open_home, precached_bytes, stored

pytestmark = pytest.mark.browser

BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
LESSON = "/lessons/optimization/"


def bn(value) -> str:
    return str(value).translate(BN)


def percent(done: int, total: int) -> int:
    return math.floor(100 * done / total + 0.5)  # halves round up


def href(link) -> str:
    return link.evaluate("(a) => a.href")  # resolved: the theme makes links absolute for instant navigation


def card(page, lesson_id):
    return page.locator(f'[data-component="progress"] [data-lesson="{lesson_id}"]')


@pytest.mark.no_python
def test_the_lessons_in_course_order_with_summary_time_needs_and_counts(page, site_url):
    lessons = course_lessons()
    assert len(lessons) == 5
    open_home(page, site_url)
    cards = page.locator("[data-lesson]")
    assert cards.evaluate_all("(cards) => cards.map((c) => c.dataset.lesson)") == [lesson["id"] for lesson in lessons]
    assert page.locator('[data-component="progress"]').get_attribute("data-total") == str(len(lessons))
    for number, lesson in enumerate(lessons, 1):
        item = card(page, lesson["id"])
        link = item.locator("[data-lesson-link]")
        assert href(link) == f"{site_url}/{lesson['url']}"
        assert link.inner_text().startswith(t("progress.lesson.number", n=bn(number)))
        assert item.locator(".pz-lesson-summary").inner_text() == lesson["summary"]
        facts = item.locator(".pz-lesson-facts li").all_inner_texts()
        parts = lesson["parts"]
        assert facts == [t("progress.parts", n=bn(len(parts)))] * (len(parts) > 1) + [
            t("progress.lesson.minutes", minutes=bn(math.ceil(lesson["words"] / WORDS_PER_MINUTE))),
            t("progress.needs.plots" if lesson["plots"] else "progress.needs.numpy"),
            t("progress.lesson.counts", cells=bn(len(lesson["cells"])), questions=bn(len(lesson["questions"]))),
        ]
        assert item.get_attribute("data-progress") == "0" and item.get_attribute("data-state") == "incomplete"
        # a lesson in parts lists them, each linked, each with its own figure (0% on a first visit)
        part_links = item.locator("[data-part-link]")
        assert part_links.evaluate_all("(links) => links.map((a) => a.href)") == (
            [f"{site_url}/{part['url']}" for part in parts] if len(parts) > 1 else [])
        assert item.locator("[data-part-progress]").all_inner_texts() == ["০%"] * len(part_links.all())
    # the guide and the demo carry components but are not lessons: linked apart, marked as such
    in_cards = page.locator("[data-lesson] a").evaluate_all("(links) => links.map((a) => a.href)")
    in_content = page.locator(".md-content a").evaluate_all("(links) => links.map((a) => a.href)")
    for other in ("demo/", "guide/"):
        assert f"{site_url}/{other}" not in in_cards and f"{site_url}/{other}" in in_content
    assert t("progress.note", wpm=bn(WORDS_PER_MINUTE)) == page.locator(".pz-progress .pz-note").inner_text()
    start = page.locator("[data-continue]")  # nothing visited yet: the first lesson
    assert start.is_visible() and start.get_attribute("data-state") == "start"
    assert href(start.locator("[data-continue-link]")) == f"{site_url}/{lessons[0]['url']}"
    assert serious_violations(page) == []
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not page.js_errors


def test_progress_counts_runs_answers_and_the_stamp_and_continues_at_the_last_cell(page, site_url):
    lesson = next(lesson for lesson in course_lessons() if lesson["id"] == "optimization")
    home_of = {cell_id: part["url"] for part in lesson["parts"] for cell_id in part["cells"]}
    page.goto(f"{site_url}/{home_of['opt-grad-check']}")            # the lesson's second part
    wait_enhanced(page)
    assert run_cell(page, "opt-grad-check") == "done"              # the Run button
    page.goto(f"{site_url}/{home_of['opt-try']}")                   # its third
    wait_enhanced(page)
    cell(page, "opt-try").locator("[data-editor]").click()          # Shift+Enter in the editor
    page.wait_for_selector('[data-cell-id="opt-try"][data-editor-state="ready"]')
    cell(page, "opt-try").locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    assert wait_state(page, "opt-try") == "done"
    quiz = component(page, "mcq", "opt-q1")
    quiz.locator('input[type="radio"]').first.check()
    quiz.locator('[data-action="check"]').click()

    open_home(page, site_url)
    item = card(page, "optimization")
    cells, questions = len(lesson["cells"]), len(lesson["questions"])
    share = percent(2 + 1, cells + questions)
    assert item.get_attribute("data-progress") == str(share)
    assert item.locator("progress").evaluate("(p) => p.value") == share
    assert item.locator("[data-lesson-progress]").inner_text() == t(
        "progress.lesson.detail", percent=bn(share), run=bn(2), cells=bn(cells), answered=bn(1),
        questions=bn(questions))
    assert card(page, "numerical-stability").get_attribute("data-progress") == "0"

    # where the reader left off: this lesson, at the cell run last
    back = page.locator("[data-continue]")
    assert back.get_attribute("data-state") == "continue"
    assert back.locator("[data-continue-label]").inner_text() == t("progress.continue")
    link = back.locator("[data-continue-link]")
    part = next(k for k, part in enumerate(lesson["parts"]) if "opt-try" in part["cells"])
    assert href(link) == f"{site_url}/{home_of['opt-try']}#opt-try"  # the part that holds it
    assert link.inner_text().endswith(
        f"পর্ব {bn(part + 1)} ({bn(lesson['parts'][part]['cells'].index('opt-try') + 1)} নম্বর কোডের ঘর)")
    link.click()
    page.wait_for_url(f"**/{home_of['opt-try']}#opt-try")  # instant navigation: the part is swapped in
    page.wait_for_function("""() => { const c = document.querySelector('[data-cell-id="opt-try"]');
        return c !== null && c.getBoundingClientRect().top >= 0 && c.getBoundingClientRect().top < innerHeight; }""")

    page.locator('[data-component="complete"] [data-action="complete"]').click()
    open_home(page, site_url)
    assert item.get_attribute("data-progress") == "100" and item.get_attribute("data-state") == "complete"
    assert item.locator("[data-lesson-state]").inner_text() == t("progress.lesson.done")
    assert page.locator('[data-component="progress"]').get_attribute("data-done") == "1"
    assert not page.js_errors


def test_run_all_counts_the_cells_that_ran(page, site_url):
    lesson = next(lesson for lesson in course_lessons() if lesson["id"] == "optimization")
    page.goto(site_url + LESSON)
    wait_enhanced(page)
    controls = page.locator("[data-page-controls]")
    controls.locator('[data-action="run-all"]').click()
    page.wait_for_function("() => document.querySelector('[data-page-controls]').dataset.state === 'idle'",
                           timeout=240_000)
    ran = page.evaluate("""() => [...document.querySelectorAll('.pycell[data-cell-id]')]
        .filter((c) => ['done', 'error'].includes(c.dataset.state)).map((c) => c.dataset.cellId)""")
    assert ran  # what the page shows as run, each one recorded with its page
    assert sorted(key.rsplit(":", 1)[1] for key in stored(page) if key.startswith("cell-run:" + LESSON)) == sorted(ran)
    open_home(page, site_url)
    cells, questions = len(lesson["cells"]), len(lesson["questions"])
    assert card(page, "optimization").locator("[data-lesson-progress]").inner_text() == t(
        "progress.lesson.detail", percent=bn(percent(len(ran), cells + questions)), run=bn(len(ran)),
        cells=bn(cells), answered=bn(0), questions=bn(questions))
    assert not page.js_errors


def test_the_offline_box_says_what_is_kept_and_keeps_the_course_at_the_readers_choice(browser, site_url, built_site):
    context = browser.new_context()  # service workers allowed here
    page = context.new_page()
    open_home(page, site_url)
    box = page.locator("[data-offline]")
    # what this first visit kept, once the service worker has it (the home page, the course's scripts), by the service worker's own count
    page.wait_for_function("() => document.querySelector('[data-offline]').dataset.bytes > 0")
    assert box.get_attribute("data-state") == "kept"
    kept = int(box.get_attribute("data-bytes"))
    assert 0 < kept < precached_bytes(built_site) / 10
    total = bn(f"{precached_bytes(built_site) / 1e6:.1f}")
    assert box.locator("[data-offline-status]").inner_text() == t("home.offline.kept", mb=bn(f"{kept / 1e6:.1f}"))
    make = box.locator('[data-action="make-offline"]')
    assert make.inner_text() == t("home.offline.button", total=total)  # its price, before the choice
    assert not box.locator('[data-action="stop-offline"]').is_visible()
    assert not box.locator("[data-save-data]").is_visible()
    make.click()
    page.wait_for_function("() => document.querySelector('[data-offline]').dataset.state === 'ready'", timeout=240_000)
    expected = t("home.offline.ready", mb=total)
    assert box.locator("[data-offline-status]").inner_text() == expected
    assert not make.is_visible()
    open_home(page, site_url)  # a later visit knows without asking the reader
    page.wait_for_function("() => document.querySelector('[data-offline]').dataset.state === 'ready'")
    assert page.locator("[data-offline] [data-offline-status]").inner_text() == expected
    assert serious_violations(page) == []
    page.locator('[data-offline] [data-action="stop-offline"]').click()  # the choice can be undone
    page.wait_for_function("() => document.querySelector('[data-offline]').dataset.state === 'kept'")
    assert page.locator('[data-offline] [data-action="make-offline"]').is_visible()
    context.close()
