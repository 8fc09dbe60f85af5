"""A lesson's header and its last line: which lesson this page is, its parts and the reader's place
among them ("পর্ব ২ / ৪"), and the way on to the next part.

The header comes right under the page's heading. Its ``data-lesson-root`` (the lesson's address,
relative to the page) is where lib/store.js keeps the reader's work for every part, and each part's
entry lists its cells and questions, so site/sections.js can mark the parts the reader has finished
as it marks sections. A part ends with the way on and a button that prints the whole lesson
(site/lesson-print.js). No MkDocs here:
the engine calls in with the course's lessons.
"""

from __future__ import annotations

from ...runtime.numbers import format_number
from ..base.html import attr, relative_url, text
from ..base.strings import t
from ..page.lessons import Lesson


def _bn(value: int) -> str:
    return format_number(value, bangla=True)


def lesson_name(lesson: Lesson) -> str:
    """The lesson's short name, as the navigation gives it: its heading before the colon."""
    return lesson.title.split(":", 1)[0].strip()


def render_header(lesson: Lesson, number: int, index: int, page_url: str) -> str:
    """``number``: the lesson's place in the course (1-based); ``index``: this page's part (0-based)."""
    label = f'{t("progress.lesson.number", n=_bn(number))} · {lesson_name(lesson)}'
    root = relative_url(lesson.url, page_url)
    items = []
    for k, part in enumerate(lesson.parts):
        name = f'<span class="pz-part-number">{_bn(k + 1)}</span> <span class="pz-part-title">{text(part.title)}</span>'
        minutes = f'<span class="pz-part-minutes">{text(t("parts.minutes", minutes=_bn(part.minutes)))}</span>'
        entry = (f'<span aria-current="step">{name}</span>' if k == index
                 else f'<a href="{attr(relative_url(part.url, page_url))}" title="{attr(part.title)}">{name}</a>')
        items.append(f'<li data-part-cells="{attr(" ".join(part.cells))}" '
                     f'data-part-questions="{attr(" ".join(part.questions))}">{entry} {minutes}</li>')
    place = (f' <span class="pz-parts-place">{text(t("parts.place", k=_bn(index + 1), n=_bn(len(lesson.parts))))}</span>'
             if len(lesson.parts) > 1 else "")
    listing = f'<ol class="pz-parts-list">{"".join(items)}</ol>' if len(lesson.parts) > 1 else ""
    return (f'<nav class="pz-lesson-parts" data-lesson-parts data-lesson-root="{attr(root)}" '
            f'aria-label="{attr(t("parts.label", lesson=label))}">'
            f'<p class="pz-parts-lesson"><a href="{attr(root)}">{text(label)}</a>{place}</p>{listing}</nav>')


def render_next(lesson: Lesson, index: int, page_url: str) -> str:
    """The way on from a part that is not the lesson's last (nothing from the last), and for a
    lesson in parts the button that prints it whole."""
    if len(lesson.parts) == 1:
        return ""
    printing = (f'<p class="pz-parts-print"><button type="button" class="pz-button" data-action="print-lesson">'
                f'{text(t("print.lesson"))}</button> <span class="pz-status" role="status" data-print-status></span></p>')
    if index + 1 >= len(lesson.parts):
        return printing
    part = lesson.parts[index + 1]
    title = t("parts.next", title=f"{_bn(index + 2)} · {part.title}")
    return (f'<p class="pz-next-part"><a class="pz-button" href="{attr(relative_url(part.url, page_url))}" '
            f'data-next-part>{text(title)} →</a></p>{printing}')


def with_header(html: str, lesson: Lesson, number: int, index: int, page_url: str) -> str:
    """The header right under the page's title (or first, on a page without one)."""
    title_end = html.find("</h1>")
    at = title_end + len("</h1>") if title_end >= 0 else 0
    return html[:at] + render_header(lesson, number, index, page_url) + html[at:]
