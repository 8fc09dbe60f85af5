"""Review in real Chromium, with Playwright's clock: questions answered in a lesson come back when
due (a wrong answer the next day, a right one later), the review page asks them with the lesson's
own checks and moves their dates, "my work" carries the schedule to another browser, a changed
question is retired, and the reader can put a question off or turn review off."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import editor_text, wait_enhanced
from support.work import export_work, open_home, stored

pytestmark = pytest.mark.browser

BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
DHAKA = timezone(timedelta(hours=6))
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=DHAKA)
PART = "/lessons/vanishing-gradients/practice/"
LESSON = "/lessons/vanishing-gradients/"


def bn(value) -> str:
    return str(value).translate(BN)


def new_page(browser, when):
    context = browser.new_context(service_workers="block", timezone_id="Asia/Dhaka",
                                  viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.clock.install(time=when)
    return page


MONTHS = t("review.date.months").split(",")


def shown_date(ms: int) -> str:
    """review.js's date of a day two or more ahead this year: "১২ মার্চ"."""
    day = datetime.fromtimestamp(ms / 1000, DHAKA)
    return f"{bn(day.day)} {MONTHS[day.month - 1]}"


def mcq(page, cid):
    return page.locator(f'[data-component="mcq"][data-id="{cid}"]')


def answer_mcq(question, right: bool):
    answer = int(question.get_attribute("data-answer"))
    question.locator('input[type="radio"]').nth(answer if right else (answer + 1) % 2).check()
    question.locator('[data-action="check"]').click()


def due_on_home(page, base) -> tuple[int, str]:
    open_home(page, base)
    line = page.locator('[data-component="review-due"]')
    page.wait_for_selector('[data-component="review-due"][data-review-due]')
    return int(line.get_attribute("data-review-due")), line.locator("[data-review-due-text]").inner_text()


def reviews(page) -> dict:
    return {key[len("review:"):]: json.loads(value) for key, value in stored(page).items() if key.startswith("review:")}


def open_review(page, base):
    page.goto(base + "/review/")
    page.wait_for_selector('[data-component="review"][data-enhanced]')
    return page.locator('[data-component="review"]')


def test_answers_come_back_when_due_and_each_review_moves_the_date(browser, site_url, tmp_path):
    page = new_page(browser, T0)
    page.goto(site_url + PART)
    wait_enhanced(page)
    page.wait_for_selector('[data-component="ordering"][data-enhanced]')
    answer_mcq(mcq(page, "l17-q1"), right=False)
    answer_mcq(mcq(page, "l17-q2"), right=True)
    ordering = page.locator('[data-component="ordering"][data-id="l17-order"]')
    ordering.locator('[data-action="check"]').click()  # as shuffled: never the right order
    assert ordering.get_attribute("data-state") == "wrong"
    kept = reviews(page)
    assert {key: (value["first"]["correct"], value["rev"]) for key, value in kept.items()} == {
        f"{LESSON}:mcq:l17-q1": (False, mcq(page, "l17-q1").get_attribute("data-revision")),
        f"{LESSON}:mcq:l17-q2": (True, mcq(page, "l17-q2").get_attribute("data-revision")),
        f"{LESSON}:ordering:l17-order": (False, ordering.get_attribute("data-revision")),
    }
    # answering again in the lesson leaves the review as the first answer made it
    answer_mcq(mcq(page, "l17-q1"), right=True)
    assert reviews(page) == kept

    assert due_on_home(page, site_url) == (0, t("review.due.none", date=t("review.date.tomorrow")))
    page.clock.set_system_time(T0 + timedelta(days=1))
    assert due_on_home(page, site_url) == (2, t("review.due", n=bn(2)))  # the two wrong answers

    view = open_review(page, site_url)
    assert view.locator("[data-status]").inner_text() == t("review.due", n=bn(2))
    assert view.locator("[data-review-position]").inner_text() == t("review.position", n=bn(1), total=bn(2))
    card = view.locator("[data-review-item]")
    assert card.get_attribute("data-review-item") == "mcq:l17-q1"  # due first: answered first
    answer_mcq(card.locator('[data-component="mcq"]'), right=True)
    assert card.locator('[data-component="mcq"]').get_attribute("data-state") == "correct"  # the lesson's check
    moved = reviews(page)[f"{LESSON}:mcq:l17-q1"]["card"]
    now = page.evaluate("Date.now()")
    assert moved["reps"] == 2 and moved["due"] > now + 86_400_000  # remembered now: more than a day away
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.scheduled", date=shown_date(moved["due"]))
    view.locator('[data-action="review-next"]').click()
    card = view.locator("[data-review-item]")
    assert card.get_attribute("data-review-item") == "ordering:l17-order"
    card.locator('[data-action="check"]').click()  # wrong again: back tomorrow
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.scheduled", date=t("review.date.tomorrow"))
    assert view.locator('[data-action="review-next"]').inner_text() == t("review.finish")
    view.locator('[data-action="review-next"]').click()
    assert view.locator("[data-status]").inner_text() == t("review.finished", date=t("review.date.tomorrow"))
    assert due_on_home(page, site_url)[0] == 0

    # the right answer from the lesson comes back too, later than a wrong one did
    days = 1
    while due_on_home(page, site_url)[0] < 2 and days < 10:  # the ordering (tomorrow) and l17-q2
        days += 1
        page.clock.set_system_time(T0 + timedelta(days=days))
    assert days > 1 and due_on_home(page, site_url)[0] == 2

    # "my work" carries the schedule: another browser, the same day, the same count and cards
    name, data = export_work(page)
    other = new_page(browser, T0 + timedelta(days=days))
    open_home(other, site_url)
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    other.locator('[data-action="import-work"]').set_input_files(str(path))
    other.locator('[data-import-preview] [data-action="apply-import"]').click()
    other.wait_for_function("() => document.querySelector('[data-component=\"review-due\"]').dataset.reviewDue === '2'")
    assert reviews(other) == reviews(page)
    other.context.close()
    assert not page.js_errors
    page.context.close()


def test_a_prediction_comes_back_as_its_reader_judged_it_with_its_cells_code(browser, site_url):
    page = new_page(browser, T0)
    page.goto(site_url + PART)
    wait_enhanced(page)
    page.wait_for_selector('[data-component="predict"][data-id="l17-predict-clip-hand"][data-enhanced]')
    predict = page.locator('[data-component="predict"][data-id="l17-predict-clip-hand"]')
    code = editor_text(page, predict.get_attribute("data-cell"))
    predict.locator("summary").click()
    predict.locator('[data-action="predict-grade"][data-grade="wrong"]').click()
    key = f"{LESSON}:predict:l17-predict-clip-hand"
    assert {k: (v["first"]["correct"], v["rev"]) for k, v in reviews(page).items()} == {
        key: (False, predict.get_attribute("data-revision"))}
    said = f'{t("predict.grade.said.wrong")} {t("predict.grade.review")}'
    assert predict.locator("[data-grade-status]").inner_text() == said
    assert predict.locator('[data-grade="right"]').is_disabled()  # said once, as a first answer is
    page.reload()
    page.wait_for_selector('[data-component="predict"][data-id="l17-predict-clip-hand"][data-enhanced]')
    assert predict.get_attribute("data-graded") == "wrong"
    assert predict.locator("[data-grade-status]").inner_text() == said

    page.clock.set_system_time(T0 + timedelta(days=1))
    assert due_on_home(page, site_url) == (1, t("review.due", n=bn(1)))
    view = open_review(page, site_url)
    card = view.locator("[data-review-item]")
    assert card.get_attribute("data-review-item") == "predict:l17-predict-clip-hand"
    # away from its cell, the card shows the cell's code; the output waits behind "show" as in the lesson
    assert card.locator("pre.pz-predict-code").inner_text().strip() == code.strip()
    assert not card.locator("[data-predict-output]").is_visible()
    card.locator("summary").click()
    assert card.locator("[data-predict-output]").is_visible()
    assert serious_violations(page) == []
    card.locator('[data-action="predict-grade"][data-grade="right"]').click()
    moved = reviews(page)[key]["card"]
    assert moved["reps"] == 2 and moved["due"] > page.evaluate("Date.now()") + 86_400_000
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.scheduled", date=shown_date(moved["due"]))
    assert card.locator("[data-grade-status]").inner_text() == t("predict.grade.said.right")
    assert not page.js_errors
    page.context.close()


def test_a_steppers_question_comes_one_row_before_its_row_and_again_in_review(browser, site_url):
    page = new_page(browser, T0)
    page.goto(site_url + "/lessons/vanishing-gradients/clipping/")
    wait_enhanced(page)
    page.wait_for_selector('[data-component="stepper"][data-id="l17-norm-clip"][data-enhanced]')
    stepper = page.locator('[data-component="stepper"][data-id="l17-norm-clip"]')
    ask = stepper.locator("[data-ask]")
    assert stepper.get_attribute("data-step") == "1" and not ask.is_visible()
    stepper.locator('[data-action="next"]').click()
    assert stepper.get_attribute("data-step") == "2" and ask.is_visible()  # row 3 is asked at row 2
    # ‖(3, 4, 12)‖ = 13 by hand, so the factor is 5 / 13 (the build adds 1e-6 to the norm)
    assert abs(float(ask.get_attribute("data-ask-value")) - 5 / 13) < 1e-6
    answer = stepper.locator("[data-ask-input]")
    feedback = stepper.locator("[data-ask-feedback]")
    answer.fill("তেরো")
    stepper.locator('[data-action="ask-check"]').click()
    assert feedback.inner_text() == t("stepper.ask.not_number") and reviews(page) == {}
    answer.fill("2.6")  # 13 / 5: the division the wrong way round
    answer.press("Enter")
    shown = bn(ask.get_attribute("data-ask-shown"))
    assert feedback.inner_text() == t("stepper.ask.wrong", n=bn(3), value=shown)
    assert stepper.get_attribute("data-step") == "3" and stepper.locator('[data-row="3"]').is_visible()
    key = f"{LESSON}:stepper:l17-norm-clip"
    assert {k: (v["first"]["correct"], v["rev"]) for k, v in reviews(page).items()} == {
        key: (False, stepper.get_attribute("data-revision"))}
    answer.fill("0.387")  # within 1 % of 0.3846
    stepper.locator('[data-action="ask-check"]').click()
    assert feedback.inner_text() == t("stepper.ask.right", n=bn(3), value=shown)
    assert reviews(page)[key]["first"]["correct"] is False  # the first answer is the one kept

    page.clock.set_system_time(T0 + timedelta(days=1))
    assert due_on_home(page, site_url) == (1, t("review.due", n=bn(1)))
    view = open_review(page, site_url)
    card = view.locator("[data-review-item]")
    assert card.get_attribute("data-review-item") == "stepper:l17-norm-clip"
    # the card stands at the row before the question: rows 1-2 shown, row 3 not, no stepping on, no inputs
    assert card.locator('[data-row="2"]').is_visible() and not card.locator('[data-row="3"]').is_visible()
    assert not card.locator('[data-action="next"]').is_visible() and card.locator("[data-inputs]").count() == 0
    assert serious_violations(page) == []
    card.locator("[data-ask-input]").fill("০.৩৮৫")  # Bangla digits are numbers too
    card.locator('[data-action="ask-check"]').click()
    assert card.locator('[data-row="3"]').is_visible()
    moved = reviews(page)[key]["card"]
    assert moved["reps"] == 2 and moved["due"] > page.evaluate("Date.now()") + 86_400_000
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.scheduled", date=shown_date(moved["due"]))
    assert not page.js_errors
    page.context.close()


def test_a_changed_question_is_retired_and_review_can_wait_or_be_turned_off(browser, site_url):
    page = new_page(browser, T0)
    page.goto(site_url + PART)
    wait_enhanced(page)
    answer_mcq(mcq(page, "l17-q1"), right=False)
    answer_mcq(mcq(page, "l17-q3"), right=False)
    # a build whose l17-q3 reads otherwise: its revision differs from the one the review was kept for
    key = next(k for k in page.evaluate("Object.keys(localStorage)") if k.endswith(":review:" + LESSON + ":mcq:l17-q3"))
    page.evaluate("""(key) => { const v = JSON.parse(localStorage.getItem(key)); v.rev = 'an-old-build';
                      localStorage.setItem(key, JSON.stringify(v)); }""", key)
    page.clock.set_system_time(T0 + timedelta(days=1))
    assert due_on_home(page, site_url)[0] == 1  # the home page counts without it, and leaves the retiring...
    view = open_review(page, site_url)
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.retired", n=bn(1))  # ...said here
    assert view.locator("[data-status]").inner_text() == t("review.due", n=bn(1))
    assert set(reviews(page)) == {f"{LESSON}:mcq:l17-q1"}
    # answered again in its lesson, the changed question starts a fresh review
    page.goto(site_url + PART)
    wait_enhanced(page)
    answer_mcq(mcq(page, "l17-q3"), right=True)
    assert reviews(page)[f"{LESSON}:mcq:l17-q3"]["rev"] == mcq(page, "l17-q3").get_attribute("data-revision")

    view = open_review(page, site_url)
    view.locator('[data-action="review-postpone"]').click()  # l17-q1: tomorrow
    assert view.locator("[data-review-scheduled]").inner_text() == t("review.postponed")
    moved = reviews(page)[f"{LESSON}:mcq:l17-q1"]["card"]
    now = page.evaluate("Date.now()")  # the page's clock runs on: a day from the click, give or take a minute
    assert now + 86_400_000 - 60_000 <= moved["due"] <= now + 86_400_000
    assert due_on_home(page, site_url)[0] == 0

    page.clock.set_system_time(T0 + timedelta(days=2, hours=1))
    assert due_on_home(page, site_url)[0] == 1
    view = open_review(page, site_url)
    view.locator('[data-action="review-toggle"]').uncheck()
    assert view.locator("[data-review-item]").count() == 0
    assert due_on_home(page, site_url) == (0, t("review.off"))
    view = open_review(page, site_url)
    view.locator('[data-action="review-toggle"]').check()
    assert view.locator("[data-review-item]").count() == 1
    assert not page.js_errors
    page.context.close()


@pytest.mark.no_python
def test_pages_about_the_course_show_a_question_as_its_lesson_built_it(built_site):
    """l17-q1's right choice quotes a stepper's value ({{ step:… }}): the review and class pages,
    built from the lesson's source, show the value the lesson's build filled in."""
    lesson = (built_site / PART.strip("/") / "index.html").read_text(encoding="utf-8")
    label = re.search(r'name="l17-q1-choice" value="0" aria-label="([^"]*)"', lesson)[1]
    value = label.split("≈")[1].strip()
    assert value and "{" not in value
    for page in ("review", "class"):
        html = (built_site / page / "index.html").read_text(encoding="utf-8")
        assert "{{" not in html and "pz-built" not in html
        assert value in html, page
    # its glossary term ([[chain-rule]] in a choice's explanation) is marked as in the lesson, linking
    # to the glossary from this page, each tooltip's id once in the page
    explained = re.compile(r'গুণ হয়; <span class="pz-term-wrap"><a class="pz-term" data-component="glossary-term" '
                           r'data-id="chain-rule" href="([^"]+)"')
    assert explained.search(lesson)[1] == "../../../glossary/#term-chain-rule"
    for page in ("review", "class"):
        html = (built_site / page / "index.html").read_text(encoding="utf-8")
        prose = re.sub(r"<pre\b.*?</pre>|<code\b.*?</code>", "", html, flags=re.S)  # a card's code may index [[
        assert "[[" not in prose, page
        assert explained.search(html)[1] == "../glossary/#term-chain-rule", page
        ids = re.findall(r' id="(pz-tip-[^"]+)"', html)
        assert len(ids) == len(set(ids)), page
    home = (built_site / "index.html").read_text(encoding="utf-8")
    for cid in ("l17-q1", "l17-predict-clip-hand"):  # a prediction's revision covers its cell's code and output
        revision = re.search(rf'data-id="{cid}"[^>]*data-revision="([0-9a-f]+)"', lesson)[1]
        assert f'"id": "{cid}", "rev": "{revision}"' in home
        assert f'data-id="{cid}"' in (built_site / "review" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_review_page_fits_a_phone_and_passes_axe(browser, site_url, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, service_workers="block", timezone_id="Asia/Dhaka")
    page = context.new_page()
    page.clock.install(time=T0)
    page.goto(site_url + PART)
    page.evaluate(f"localStorage.setItem('__md_scheme', JSON.stringify({{scheme: '{'slate' if scheme == 'dark' else 'default'}'}}))")
    wait_enhanced(page)
    answer_mcq(mcq(page, "l17-q2"), right=False)
    page.clock.set_system_time(T0 + timedelta(days=1))
    view = open_review(page, site_url)
    view.locator("[data-review-item]").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in view.locator(".pz-button:visible").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert serious_violations(page) == []
    answer_mcq(view.locator('[data-review-item] [data-component="mcq"]'), right=True)
    assert serious_violations(page) == []
    context.close()
