"""The course's lessons, read from each page's Markdown at build, and the home page's front door
(the ``progress`` block: a card per lesson).

A lesson is a page of the navigation that has a ``complete`` block (its "finished" stamp) and lives
in the lessons folder (``lessons/<slug>/``, where ``./pathshala new`` writes one): the authoring
guide and the demo page may carry components too, but they are not lessons. For each lesson the
build works out what the reader needs to choose one: its front matter's ``summary``, a reading
time from its words, what its cells import (plots or NumPy alone), and its cells and quiz
questions, so the page can count the reader's progress through them.

    ```progress
    ```

The cards are complete HTML from the build; assets/components/progress.js adds the reader's own
progress on each card (``data-progress``, 0-100), where they left off, and whether the whole
course is kept offline on this device (the service worker's cache, offline.js).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import yaml

from ...runtime.numbers import format_number
from ..cells import FENCE_LANGUAGE, parse_options
from ..fences import read_fences
from ..page import page_slug
from ..strings import t
from .common import attr, relative_url, text
from .progress import parse_complete

LESSONS_FOLDER = "lessons/"
# An assumed reading pace, for Bangla technical prose mixed with code: slower than the 200-250
# words a minute usual for light reading. The page states it beside the estimate.
WORDS_PER_MINUTE = 150
QUESTION_KINDS = ("mcq", "ordering")   # quiz blocks whose answers the reader's progress counts

_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(?P<yaml>.*?\n)(?:-{3}|\.{3})[ \t]*\n", re.S)
_IMPORT = re.compile(r"^[ \t]*(?:import|from)[ \t]+([A-Za-z_]\w*)", re.M)


@dataclass(frozen=True)
class Lesson:
    id: str                        # the complete block's id: the lesson's slug
    url: str                       # inside the site, e.g. "lessons/optimization/"
    title: str
    summary: str                   # "" when the front matter has none
    words: int
    needs: str                     # "plots" (matplotlib), "numpy" or "python"
    cells: tuple[str, ...]         # cell ids, in page order
    questions: tuple[str, ...]     # "mcq:<id>" / "ordering:<id>", in page order

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.words / WORDS_PER_MINUTE))


def front_matter(markdown: str) -> dict:
    """The page's YAML front matter, as MkDocs reads it (``---`` lines around it); {} if none."""
    match = _FRONT_MATTER.match(markdown)
    if not match:
        return {}
    try:
        data = yaml.safe_load(match["yaml"])
    except yaml.YAMLError:
        return {}  # MkDocs itself reports a broken front matter
    return data if isinstance(data, dict) else {}


def count_words(markdown: str) -> int:
    """Words the reader reads: whitespace-separated pieces with a letter or digit in them (so
    Markdown's own marks, ``|``, ``-``, ``$``, are not words), code included, front matter not."""
    match = _FRONT_MATTER.match(markdown)
    body = markdown[match.end():] if match else markdown
    return sum(1 for piece in body.split() if any(ch.isalnum() for ch in piece))


def needs_of(codes) -> str:
    imported = {name for code in codes for name in _IMPORT.findall(code)}
    if "matplotlib" in imported:
        return "plots"
    return "numpy" if "numpy" in imported else "python"


def _block_id(body: str) -> str | None:
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError:
        return None  # the page's own build names the mistake with its line
    return str(data["id"]) if isinstance(data, dict) and data.get("id") else None


def read_lesson(src: str, url: str, markdown: str) -> Lesson | None:
    """The lesson this page is, or None when it is not one."""
    fences = read_fences(markdown)
    stamps = [fence.body for fence in fences if fence.name == "complete"]
    if not stamps or not src.startswith(LESSONS_FOLDER):
        return None
    slug = page_slug(src)
    cells = []
    for fence in fences:
        if fence.name == FENCE_LANGUAGE:
            try:
                given = parse_options(fence.options, fence.line).get("id")
            except ValueError:
                given = None  # the page's own build names the mistake with its line
            cells.append(given or f"{slug}-{len(cells) + 1}")  # the default id, as cells.py gives it
    questions = [f"{fence.name}:{cid}" for fence in fences
                 if fence.name in QUESTION_KINDS and (cid := _block_id(fence.body))]
    title = next((line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")), src)
    return Lesson(
        id=parse_complete(stamps[0], slug)["id"], url=url, title=title,
        summary=str(front_matter(markdown).get("summary") or "").strip(), words=count_words(markdown),
        needs=needs_of(fence.body for fence in fences if fence.name == FENCE_LANGUAGE),
        cells=tuple(cells), questions=tuple(questions))


def lessons_of(pages) -> list[Lesson]:
    """The course's lessons in navigation order. ``pages``: (src, url, markdown) of every page in
    navigation order, Markdown with its front matter."""
    return [lesson for src, url, markdown in pages if (lesson := read_lesson(src, url, markdown))]


def _number(value: int) -> str:
    return format_number(value, bangla=True)


def render_lesson_card(number: int, lesson: Lesson, page_url: str) -> str:
    name = t("progress.lesson.number", n=_number(number))
    href = relative_url(lesson.url, page_url)
    summary = f'<p class="pz-lesson-summary">{text(lesson.summary)}</p>' if lesson.summary else ""
    facts = (t("progress.lesson.minutes", minutes=_number(lesson.minutes)), t(f"progress.needs.{lesson.needs}"),
             t("progress.lesson.counts", cells=_number(len(lesson.cells)), questions=_number(len(lesson.questions))))
    detail = t("progress.lesson.detail", percent=_number(0), run=_number(0), cells=_number(len(lesson.cells)),
               answered=_number(0), questions=_number(len(lesson.questions)))
    return (
        f'<li class="pz-lesson" data-lesson="{attr(lesson.id)}" data-state="incomplete" data-progress="0" '
        f'data-cells="{attr(" ".join(lesson.cells))}" data-questions="{attr(" ".join(lesson.questions))}">'
        f'<h3 class="pz-lesson-title"><a href="{attr(href)}" data-lesson-link>'
        f'<span class="pz-lesson-number">{text(name)}</span> {text(lesson.title)}</a></h3>'
        f'{summary}'
        f'<ul class="pz-lesson-facts">{"".join(f"<li>{text(fact)}</li>" for fact in facts)}</ul>'
        f'<progress max="100" value="0" aria-label="{attr(t("progress.lesson.label", lesson=name))}"></progress>'
        f'<p class="pz-lesson-progress"><span data-lesson-progress>{text(detail)}</span> '
        f'<span class="pz-lesson-state" data-lesson-state>{text(t("progress.lesson.todo"))}</span></p></li>'
    )


def render_offline_box() -> str:
    """Filled in by progress.js from the service worker's cache; hidden where the site has none."""
    return (
        f'<div class="pz-offline" data-offline data-state="checking">'
        f'<h3 class="pz-offline-title">{text(t("home.offline.title"))}</h3>'
        f'<p class="pz-status" role="status" aria-live="polite" data-offline-status>{text(t("home.offline.checking"))}</p>'
        f'<button type="button" class="pz-button" data-action="make-offline" hidden>'
        f'{text(t("home.offline.button"))}</button></div>'
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
    summary = t("progress.summary", done=_number(0), total=_number(total))
    return (
        f'<div class="pz-progress" data-component="progress" data-id="course" data-total="{total}">'
        f'{render_start(lessons, page_url)}'
        f'<p class="pz-status" role="status" aria-live="polite" data-status>{text(summary)}</p>'
        f'<progress max="{total}" value="0" aria-label="{attr(t("progress.label"))}"></progress>'
        f'<ol class="pz-lessons">{cards}</ol>'
        f'<p class="pz-note">{text(t("progress.note", wpm=_number(WORDS_PER_MINUTE)))}</p>'
        f'{render_offline_box()}</div>'
    )
