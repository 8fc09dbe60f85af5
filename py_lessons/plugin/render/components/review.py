"""``review`` and ``review-due``: the course's answered questions come back on a schedule.

    ```review
    ```
    (the review page: the course's questions, the ones due today asked one at a time)

    ```review-due
    page: review/
    ```
    (the home page's line: how many are due today, with a link to the review page; ``page``, the
    review page's address in the site, is review/ unless given)

A question the reader answers in its lesson (or a prediction the reader judges) enters review (lib/review.js, scheduled by FSRS in
lib/schedule.js). Both kinds embed what the script needs of each question: its kind, id, the
lesson it is stored under and its content revision (quiz.revision); a card kept for another
revision, or for a question no longer in the course, is retired. The review page also carries
each question's HTML, rendered by its own kind (the same checks and feedback as in the lesson),
inert in a ``<template>`` until it is asked. Revisions and HTML are those of the built lesson (its
macros' values filled in): tokens here, filled in once every page is built (built.py).
"""

from __future__ import annotations

import json

from ....runtime.numbers import format_number
from ...base.html import attr, relative_url, text
from ...base.strings import t
from ...base.yaml_blocks import read_block
from ...page.lessons import Lesson
from .base import Component
from .built import filled, token
from .class_view import part_blocks
from .predict import parse as parse_predict
from .quiz import parse_mcq, parse_ordering
from .stepper import parse as parse_stepper

# what review asks: the questions with a right answer, predictions as their reader judged them, and
# steppers' "what will the next row show?" (a stepper with an ask)
REVIEWED = {"mcq": parse_mcq, "ordering": parse_ordering, "predict": parse_predict, "stepper": parse_stepper}


def _n(value: int) -> str:
    return format_number(value, bangla=True)


def course_questions(lessons: list[Lesson], page_url: str) -> list[dict]:
    """Every question review can ask, in course order: what the script keys and checks it by,
    where it stands in its lesson, and its parsed block."""
    found = []
    for number, lesson in enumerate(lessons, 1):
        for k, part in enumerate(lesson.parts, 1):
            counts = {"question": 0, "predict": 0, "stepper": 0}  # numbered as the class page numbers its questions
            for kind, parsed in part_blocks(part, REVIEWED):
                if kind == "stepper" and not parsed["ask"]:
                    continue
                sort = kind if kind in counts else "question"
                counts[sort] += 1
                count = counts[sort]
                label = f"class.where.{sort}" + (".one_part" if len(lesson.parts) == 1 else "")
                found.append({
                    "kind": kind, "id": parsed["id"], "rev": token("revision", kind, part.url, parsed["id"]),
                    "lesson": relative_url(lesson.url, page_url),
                    # a stepper's question sits under its table, shown one row before: the link opens the table
                    "href": f'{relative_url(part.url, page_url)}#{parsed["id"]}-{"caption" if kind == "stepper" else "question"}',
                    "where": t(label, lesson=_n(number), part=_n(k), n=_n(count)),
                    "title": lesson.title, "html": filled("div", "", "question", kind, part.url, parsed["id"]),
                })
    return found


def _data(questions: list[dict]) -> str:
    keys = ("kind", "id", "rev", "lesson")
    data = [{key: question[key] for key in keys} for question in questions]
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def render_review(lessons: list[Lesson], page_url: str) -> str:
    questions = course_questions(lessons, page_url)
    cards = "".join(
        f'<template data-review-template="{n}"><div class="pz-review-card" data-review-item="{attr(q["kind"])}:{attr(q["id"])}">'
        f'<p class="pz-review-where">{text(t("review.where", where=q["where"], title=q["title"]))}</p>'
        f'{q["html"]}'
        f'<p class="pz-review-back"><a href="{attr(q["href"])}" data-review-back>{text(t("review.back"))}</a></p>'
        f'</div></template>'
        for n, q in enumerate(questions))
    return (
        f'<div class="pz-review" data-component="review" data-id="review" data-state="loading">'
        f'<script type="application/json" data-review-course>{_data(questions)}</script>'
        f'<p class="pz-status pz-review-status" role="status" aria-live="polite" data-status>{text(t("review.loading"))}</p>'
        f'<p class="pz-review-position" data-review-position hidden></p>'
        f'<div class="pz-review-stage" data-review-stage></div>'
        f'<p class="pz-review-scheduled" data-review-scheduled role="status" aria-live="polite"></p>'
        f'<div class="pz-actions" data-review-actions hidden>'
        f'<button type="button" class="pz-button" data-action="review-next" hidden>{text(t("review.next"))}</button>'
        f'<button type="button" class="pz-button" data-action="review-postpone">{text(t("review.postpone"))}</button></div>'
        f'<p class="pz-review-switch"><label><input type="checkbox" data-action="review-toggle" checked> '
        f'{text(t("review.toggle"))}</label></p>'
        f'{cards}</div>'
    )


def render_review_due(lessons: list[Lesson], page_url: str, review_url: str) -> str:
    return (
        f'<div class="pz-review-due" data-component="review-due" data-id="review-due">'
        f'<script type="application/json" data-review-course>{_data(course_questions(lessons, page_url))}</script>'
        f'<p><span data-review-due-text>{text(t("review.due.unknown"))}</span> '
        f'<a class="pz-button" href="{attr(relative_url(review_url, page_url))}" data-review-link>{text(t("review.open"))}</a></p>'
        f'</div>'
    )


class Review(Component):
    kind = "review"
    script = "review.js"
    lists_lessons = True

    def parse(self, body, page):
        return read_block(body, self.kind, set())

    def render(self, parsed, page):
        return render_review(self.course.lessons, page.url)


class ReviewDue(Component):
    kind = "review-due"
    script = "review.js"
    lists_lessons = True

    def parse(self, body, page):
        data = read_block(body, self.kind, set(), {"page"})
        return {"page": str(data.get("page") or "review/")}

    def render(self, parsed, page):
        return render_review_due(self.course.lessons, page.url, parsed["page"])
