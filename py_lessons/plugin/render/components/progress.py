"""``progress``: the course's front door, a card per lesson (page/lessons.py reads them).

    ```progress
    ```

The cards are complete HTML from the build; assets/components/progress.js adds the reader's own
progress on each card (``data-progress``, 0-100), where they left off, and whether the whole
course is kept offline on this device (the service worker's cache, offline.js).
"""

from __future__ import annotations

from ....runtime.numbers import format_number
from ...base.html import attr, relative_url, text
from ...base.strings import t
from ...base.yaml_blocks import read_block
from ...page.lessons import WORDS_PER_MINUTE, Lesson
from .base import Component


class Progress(Component):
    kind = "progress"
    script = "progress.js"
    lists_lessons = True

    def parse(self, body, page):
        return read_block(body, self.kind, set())

    def render(self, parsed, page):
        return render_progress(self.course.lessons, page.url)


def _number(value: int) -> str:
    return format_number(value, bangla=True)


def render_lesson_card(number: int, lesson: Lesson, page_url: str) -> str:
    name = t("progress.lesson.number", n=_number(number))
    href = relative_url(lesson.url, page_url)
    summary = f'<p class="pz-lesson-summary">{text(lesson.summary)}</p>' if lesson.summary else ""
    facts = (t("progress.lesson.minutes", minutes=_number(lesson.minutes)), t(f"progress.needs.{lesson.needs}"),
             t("progress.lesson.counts", cells=_number(len(lesson.cells)), questions=_number(len(lesson.questions))))
    if len(lesson.parts) > 1:
        facts = (t("progress.parts", n=_number(len(lesson.parts))), *facts)
    detail = t("progress.lesson.detail", percent=_number(0), run=_number(0), cells=_number(len(lesson.cells)),
               answered=_number(0), questions=_number(len(lesson.questions)))
    parts = "".join(
        f'<li data-part data-cells="{attr(" ".join(part.cells))}" data-questions="{attr(" ".join(part.questions))}">'
        f'<a href="{attr(relative_url(part.url, page_url))}" data-part-link>{text(_number(k))} · {text(part.title)}</a> '
        f'<span class="pz-part-progress" data-part-progress></span></li>'
        for k, part in enumerate(lesson.parts, 1)) if len(lesson.parts) > 1 else ""
    parts = f'<ol class="pz-lesson-parts-list">{parts}</ol>' if parts else ""
    return (
        f'<li class="pz-lesson" data-lesson="{attr(lesson.id)}" data-state="incomplete" data-progress="0" '
        f'data-cells="{attr(" ".join(lesson.cells))}" data-questions="{attr(" ".join(lesson.questions))}">'
        f'<h3 class="pz-lesson-title"><a href="{attr(href)}" data-lesson-link>'
        f'<span class="pz-lesson-number">{text(name)}</span> {text(lesson.title)}</a></h3>'
        f'{summary}'
        f'<ul class="pz-lesson-facts">{"".join(f"<li>{text(fact)}</li>" for fact in facts)}</ul>'
        f'{parts}'
        f'<progress max="100" value="0" aria-label="{attr(t("progress.lesson.label", lesson=name))}"></progress>'
        f'<p class="pz-lesson-progress"><span data-lesson-progress>{text(detail)}</span> '
        f'<span class="pz-lesson-state" data-lesson-state>{text(t("progress.lesson.todo"))}</span></p></li>'
    )


def render_offline_box() -> str:
    """What this device keeps (filled in by progress.js from the service worker), the whole course
    at the reader's choice; hidden where the site has no service worker."""
    return (
        f'<div class="pz-offline" data-offline data-state="checking">'
        f'<h3 class="pz-offline-title">{text(t("home.offline.title"))}</h3>'
        f'<p class="pz-status" role="status" aria-live="polite" data-offline-status>{text(t("home.offline.checking"))}</p>'
        f'<p class="pz-status" data-save-data hidden>{text(t("home.offline.save_data"))}</p>'
        f'<button type="button" class="pz-button" data-action="make-offline" hidden></button> '
        f'<button type="button" class="pz-button" data-action="stop-offline" hidden>'
        f'{text(t("home.offline.stop"))}</button></div>'
    )


def render_start(lessons: list[Lesson], page_url: str) -> str:
    """Where to go on: as progress.js shows it before any visit (the first lesson), so that the box
    has its final size at the first paint and nothing below it moves when the script runs."""
    if not lessons:
        return '<p class="pz-continue" data-continue hidden><span data-continue-label></span> <a data-continue-link></a></p>'
    first = lessons[0]
    name = f'{t("progress.lesson.number", n=_number(1))} {first.title}'  # the card link's text
    return (
        f'<p class="pz-continue" data-continue data-state="start"><span data-continue-label>'
        f'{text(t("progress.start"))}</span> <a data-continue-link href="{attr(relative_url(first.url, page_url))}">'
        f'{text(name)}</a></p>'
    )


def render_progress(lessons: list[Lesson], page_url: str) -> str:
    """The ``progress`` block: the course's front door, in the state of a first visit."""
    cards = "".join(render_lesson_card(number, lesson, page_url) for number, lesson in enumerate(lessons, 1))
    total = len(lessons)
    summary = t("progress.summary", percent=_number(0), done=_number(0), total=_number(total))
    return (
        f'<div class="pz-progress" data-component="progress" data-id="course" data-total="{total}" data-progress="0">'
        f'{render_start(lessons, page_url)}'
        f'<p class="pz-status" role="status" aria-live="polite" data-status>{text(summary)}</p>'
        f'<progress max="100" value="0" aria-label="{attr(t("progress.label"))}"></progress>'
        f'<ol class="pz-lessons">{cards}</ol>'
        f'<p class="pz-note">{text(t("progress.note", wpm=_number(WORDS_PER_MINUTE)))}</p>'
        f'{render_offline_box()}</div>'
    )
