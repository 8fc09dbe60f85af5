"""The course's lessons, read from each page's Markdown at build: what the home page's cards and
the reader's progress need to know of each.

A lesson is a page of the navigation that has a ``complete`` block (its "finished" stamp) and lives
in the lessons folder (``lessons/<slug>/``, where ``./pathshala new`` writes one): the authoring
guide and the demo page may carry components too, but they are not lessons. For each lesson the
build works out what the reader needs to choose one: its front matter's ``summary``, a reading
time from its words, what its cells import (plots or NumPy alone), and its cells and quiz
questions, so the page can count the reader's progress through them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import yaml

from .cells import FENCE_LANGUAGE, parse_options
from .fences import read_fences
from .model import page_slug

STAMP_KIND = "complete"   # the block that makes a page a lesson
# An assumed reading pace, for Bangla technical prose mixed with code: slower than the 200-250
# words a minute usual for light reading. The page states it beside the estimate.
WORDS_PER_MINUTE = 150

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


def read_lesson(src: str, url: str, markdown: str, *, lessons_folder: str, question_kinds) -> Lesson | None:
    """The lesson this page is, or None when it is not one. ``question_kinds``: the blocks whose
    answers count towards the reader's progress (mcq, ordering)."""
    fences = read_fences(markdown)
    stamps = [fence.body for fence in fences if fence.name == STAMP_KIND]
    if not stamps or not src.startswith(lessons_folder):
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
                 if fence.name in question_kinds and (cid := _block_id(fence.body))]
    title = next((line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")), src)
    return Lesson(
        id=_block_id(stamps[0]) or slug, url=url, title=title,
        summary=str(front_matter(markdown).get("summary") or "").strip(), words=count_words(markdown),
        needs=needs_of(fence.body for fence in fences if fence.name == FENCE_LANGUAGE),
        cells=tuple(cells), questions=tuple(questions))


def lessons_of(pages, *, lessons_folder: str, question_kinds) -> list[Lesson]:
    """The course's lessons in navigation order. ``pages``: (src, url, markdown) of every page in
    navigation order, Markdown with its front matter."""
    return [lesson for src, url, markdown in pages
            if (lesson := read_lesson(src, url, markdown, lessons_folder=lessons_folder,
                                      question_kinds=question_kinds))]
