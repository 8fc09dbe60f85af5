"""``class-view``: a teacher's view of a class, from the learners' "my work" files, in the browser.

    ```class-view
    ```

The build writes what the page must know of the course (each lesson's parts, their cells,
questions and exercises, as JSON the script reads) and, for each question and exercise, its text
as the lesson shows it (the same Markdown renderer; a question's choices and their explanations
in a ``<template>``, shown when a wrong choice is the class's most common one). Nothing is
uploaded: assets/components/class-view.js reads the files the teacher drops, with the reader of
"my work" files (lib/work-file.js), and fills in the tables.
"""

from __future__ import annotations

import json

from ....runtime.numbers import format_number
from ...base.errors import BlockError
from ...base.html import attr, relative_url, text
from ...base.strings import t
from ...base.yaml_blocks import read_block
from ...page.lessons import Lesson, Part
from . import exercise
from .base import Component
from .built import filled
from .quiz import parse_mcq, parse_ordering

READERS = {"mcq": parse_mcq, "ordering": parse_ordering, "exercise": exercise.parse}


def _n(value: int) -> str:
    return format_number(value, bangla=True)


def part_blocks(part: Part, readers: dict = READERS) -> list[tuple[str, dict]]:
    """The part's blocks of ``readers``' kinds (its questions and exercises unless told), read by
    their own readers; a block its page's build refuses is left out here (that build names the
    mistake with its line)."""
    found = []
    for kind, _, body in part.blocks:
        if kind in readers:
            try:
                found.append((kind, readers[kind](body)))
            except BlockError:
                continue
    return found


def course_data(lessons: list[Lesson], page_url: str) -> dict:
    """What class-view.js needs: per lesson its address (its items are stored under it) and per
    part the cells, questions (kind, id, the right answer) and exercises it counts."""
    data = []
    for number, lesson in enumerate(lessons, 1):
        parts = []
        for k, part in enumerate(lesson.parts, 1):
            blocks = part_blocks(part)
            parts.append({
                "k": k, "title": part.title, "cells": list(part.cells),
                "questions": [{"kind": kind, "id": parsed["id"],
                               "answer": parsed["answer"] if kind == "mcq" else list(range(len(parsed["items"]))),
                               "choices": len(parsed["choices"]) if kind == "mcq" else None}
                              for kind, parsed in blocks if kind in ("mcq", "ordering")],
                "exercises": [parsed["id"] for kind, parsed in blocks if kind == "exercise"],
            })
        data.append({"id": lesson.id, "number": number, "title": lesson.title,
                     "href": relative_url(lesson.url, page_url), "parts": parts})
    return {"lessons": data}


TEXT_CLASS = ' class="pz-class-question-text"'


def _question(kind: str, parsed: dict, where: str, href: str, part_url: str) -> str:
    """A question as its lesson words it (built.py fills in the built lesson's text and choices)."""
    cid = parsed["id"]
    template = filled("template", " data-choices", "class-choices", kind, part_url, cid) if kind == "mcq" else ""
    return (
        f'<li class="pz-class-question" data-class-question="{attr(kind)}:{attr(cid)}">'
        f'<p class="pz-class-where"><a href="{attr(href)}#{attr(cid)}-question">{text(where)}</a></p>'
        f'{filled("div", TEXT_CLASS, "question-text", kind, part_url, cid)}'
        f'<p class="pz-class-stats" data-question-stats>{text(t("class.question.none"))}</p>'
        f'<div class="pz-class-common" data-common-wrong hidden></div>{template}</li>'
    )


def _exercise(parsed: dict, where: str, href: str, part_url: str) -> str:
    cid = parsed["id"]
    return (
        f'<li class="pz-class-exercise" data-class-exercise="{attr(cid)}">'
        f'<p class="pz-class-where"><a href="{attr(href)}#{attr(exercise.editor_id(cid))}">{text(where)}</a></p>'
        f'{filled("div", TEXT_CLASS, "exercise-text", "exercise", part_url, cid)}'
        f'<p class="pz-class-stats" data-exercise-stats>{text(t("class.exercise.none"))}</p></li>'
    )


def render_questions(lessons: list[Lesson], page_url: str) -> str:
    """Every question and exercise of the course, lesson by lesson, part by part, as the lesson
    words it; their figures (filled in by the script) say "nobody yet" until files are read."""
    sections = []
    for number, lesson in enumerate(lessons, 1):
        items = []
        for k, part in enumerate(lesson.parts, 1):
            href = relative_url(part.url, page_url)
            numbers = {"question": 0, "exercise": 0}  # as the teacher counts them on the page
            for kind, parsed in part_blocks(part):
                sort = "exercise" if kind == "exercise" else "question"
                numbers[sort] += 1
                label = f"class.where.{sort}" + (".one_part" if len(lesson.parts) == 1 else "")
                where = t(label, lesson=_n(number), part=_n(k), n=_n(numbers[sort]))
                items.append(_exercise(parsed, where, href, part.url) if sort == "exercise" else _question(kind, parsed, where, href, part.url))
        if items:
            sections.append(
                f'<section class="pz-class-lesson" data-class-lesson="{attr(lesson.id)}">'
                f'<h3>{text(t("progress.lesson.number", n=_n(number)))}: {text(lesson.title)}</h3>'
                f'<ol class="pz-class-items">{"".join(items)}</ol></section>')
    return "".join(sections)


COLUMNS = ("name", "progress", "cells", "first", "right", "passed", "failed", "last")


def render_class_view(lessons: list[Lesson], page_url: str) -> str:
    scopes = [f'<option value="">{text(t("class.scope.all"))}</option>']
    for number, lesson in enumerate(lessons, 1):
        name = f'{t("progress.lesson.number", n=_n(number))}: {lesson.title}'
        scopes.append(f'<option value="{attr(lesson.id)}">{text(name)}</option>')
        if len(lesson.parts) > 1:
            scopes += [f'<option value="{attr(lesson.id)}/{k}">{text(t("class.scope.part", lesson=_n(number), k=_n(k), title=part.title))}</option>'
                       for k, part in enumerate(lesson.parts, 1)]
    heads = "".join(
        f'<th scope="col" data-column="{c}" aria-sort="{"ascending" if c == "name" else "none"}">'
        f'<button type="button" class="pz-class-sort" data-sort="{c}">{text(t(f"class.column.{c}"))}</button></th>'
        for c in COLUMNS)
    data = json.dumps(course_data(lessons, page_url), ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<div class="pz-class" data-component="class-view" data-id="class" data-state="empty">'
        f'<script type="application/json" data-class-course>{data}</script>'
        f'<p class="pz-note">{text(t("class.private"))}</p>'
        f'<div class="pz-class-load" data-class-drop>'
        f'<p>{text(t("class.load.intro"))}</p>'
        f'<div class="pz-actions" data-class-actions hidden>'
        f'<label class="pz-button pz-file">{text(t("class.load.files"))}'
        f'<input type="file" multiple accept=".json,.zip,application/json,application/zip" data-action="load-class"></label>'
        f'<label class="pz-button pz-file">{text(t("class.load.folder"))}'
        f'<input type="file" webkitdirectory multiple data-action="load-class-folder"></label>'
        f'<button type="button" class="pz-button" data-action="clear-class" hidden>{text(t("class.clear"))}</button>'
        f'</div></div>'
        f'<p class="pz-status" role="status" aria-live="polite" data-status>{text(t("class.status.empty"))}</p>'
        f'<ul class="pz-class-problems" data-class-problems hidden></ul>'
        f'<div class="pz-class-view" data-class-view hidden>'
        f'<div class="pz-class-filters">'
        f'<label>{text(t("class.scope"))} <select data-class-scope>{"".join(scopes)}</select></label> '
        f'<label>{text(t("class.filter"))} <input type="search" data-class-filter></label></div>'
        f'<div class="pz-scroll pz-class-scroll" tabindex="0" role="region" aria-labelledby="pz-class-caption">'
        f'<table class="pz-class-table" data-class-table>'
        f'<caption id="pz-class-caption" data-class-caption></caption>'
        f'<thead><tr>{heads}</tr></thead><tbody></tbody></table></div>'
        f'<p class="pz-note">{text(t("class.table.note"))}</p>'
        f'<div class="pz-actions pz-class-out">'
        # a button, not a link to "#": the theme's instant navigation may take such a link's click
        # first, move to "#" and run the page's scripts again (its course data as script: an error)
        f'<button type="button" class="pz-button" data-action="class-csv">{text(t("class.csv"))}</button>'
        f'<button type="button" class="pz-button" data-action="class-print">{text(t("class.print"))}</button></div>'
        f'<h2>{text(t("class.questions.title"))}</h2>'
        f'<p>{text(t("class.questions.intro"))}</p>'
        f'{render_questions(lessons, page_url)}'
        f'</div></div>'
    )


class ClassView(Component):
    kind = "class-view"
    script = "class-view.js"
    lists_lessons = True

    def parse(self, body, page):
        return read_block(body, self.kind, set())

    def render(self, parsed, page):
        return render_class_view(self.course.lessons, page.url)
