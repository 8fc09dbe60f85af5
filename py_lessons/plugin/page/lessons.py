"""The course's lessons, read from each page's Markdown at build: what the home page's cards, a
lesson's header and the reader's progress need to know of each.

A lesson is a folder of the lessons folder (``lessons/<slug>/``, where ``./pathshala new`` writes
one) whose pages in the navigation include one with a ``complete`` block (its "finished" stamp):
the authoring guide and the demo page may carry components too, but they are not lessons. Its
pages are its **parts**, in navigation order (``index.md`` first: its heading is the lesson's
name, its front matter's ``summary`` the lesson's); a short lesson is one part. A part's name in
the lesson's list is its front matter's ``part``, else its heading. For each part the build works
out a reading time from its words and its cells and quiz questions, so the page can count the
reader's progress through them; for the lesson, what its cells import (plots or NumPy alone).

A reader's work is stored under the lesson's path (its first part's URL), not the part's, so ids
are the lesson's: the build refuses an id used in two parts (``LessonError``, with both places).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import yaml

from pathlib import PurePosixPath

from ..base.errors import LessonError
from .cells import FENCE_LANGUAGE, parse_options
from .fences import read_fences
from .model import page_slug

STAMP_KIND = "complete"   # the block that makes a page a lesson
# An assumed reading pace, for Bangla technical prose mixed with code: slower than the 200-250
# words a minute usual for light reading. The page states it beside the estimate.
WORDS_PER_MINUTE = 150

_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(?P<yaml>.*?\n)(?:-{3}|\.{3})[ \t]*\n", re.S)
_IMPORT = re.compile(r"^[ \t]*(?:import|from)[ \t]+([A-Za-z_]\w*)", re.M)


def _minutes(words: int) -> int:
    return max(1, math.ceil(words / WORDS_PER_MINUTE))


@dataclass(frozen=True)
class Part:
    src: str                       # its Markdown file, e.g. "lessons/optimization/index.md"
    url: str                       # inside the site, e.g. "lessons/optimization/"
    title: str                     # its name in the lesson's list of parts
    words: int
    cells: tuple[str, ...]         # cell ids, in page order
    questions: tuple[str, ...]     # "mcq:<id>" / "ordering:<id>", in page order
    # (kind, id, YAML body) of every block that names itself, in page order: what a page about
    # the whole course (the class page) needs of its questions and exercises
    blocks: tuple[tuple[str, str, str], ...] = ()

    @property
    def minutes(self) -> int:
        return _minutes(self.words)


@dataclass(frozen=True)
class Lesson:
    id: str                        # the complete block's id: the lesson's slug
    title: str                     # its first part's heading
    summary: str                   # "" when the front matter has none
    needs: str                     # "plots" (matplotlib), "numpy" or "python"
    parts: tuple[Part, ...]        # at least one, in navigation order

    @property
    def url(self) -> str:
        """The lesson's address (its first part's), under which the reader's work is stored."""
        return self.parts[0].url

    @property
    def words(self) -> int:
        return sum(part.words for part in self.parts)

    @property
    def minutes(self) -> int:
        return _minutes(self.words)

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(cell for part in self.parts for cell in part.cells)

    @property
    def questions(self) -> tuple[str, ...]:
        return tuple(question for part in self.parts for question in part.questions)

    def part_at(self, url: str) -> int | None:
        """The index of the part at ``url``, or None when the page is not one of them."""
        return next((index for index, part in enumerate(self.parts) if part.url == url), None)


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


def _heading(markdown: str, fallback: str) -> str:
    return next((line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")), fallback)


def _ids(src: str, fences) -> list[tuple[str, str, int]]:
    """(kind, id, line) of every cell and block that names itself, as the page's storage keys do."""
    slug, found, cells = page_slug(src), [], 0
    for fence in fences:
        if fence.name == FENCE_LANGUAGE:
            cells += 1
            try:
                given = parse_options(fence.options, fence.line).get("id")
            except ValueError:
                given = None  # the page's own build names the mistake with its line
            found.append(("cell", given or f"{slug}-{cells}", fence.line))  # the default id, as cells.py gives it
        elif (block_id := _block_id(fence.body)) is not None:
            found.append((fence.name, block_id, fence.line))
    return found


def read_part(src: str, url: str, markdown: str, *, question_kinds) -> tuple[Part, list, list]:
    """The page as a part of its lesson; with its fences and their ids (kind, id, line)."""
    fences = read_fences(markdown)
    ids = _ids(src, fences)
    questions = [f"{fence.name}:{cid}" for fence in fences
                 if fence.name in question_kinds and (cid := _block_id(fence.body))]
    title = str(front_matter(markdown).get("part") or "").strip() or _heading(markdown, src)
    blocks = tuple((fence.name, cid, fence.body) for fence in fences
                   if fence.name != FENCE_LANGUAGE and (cid := _block_id(fence.body)))
    part = Part(src=src, url=url, title=title, words=count_words(markdown),
                cells=tuple(cell_id for kind, cell_id, _ in ids if kind == "cell"), questions=tuple(questions),
                blocks=blocks)
    return part, fences, ids


def _check_ids(parts: list[tuple[Part, list]]) -> None:
    """A lesson's ids are its storage keys: one used in two of its parts would mix their work."""
    seen: dict[tuple[str, str], str] = {}
    for part, ids in parts:
        for kind, block_id, line in ids:
            where = f"{part.src}:{line}"
            first = seen.setdefault((kind, block_id), where)
            if first != where and not first.startswith(f"{part.src}:"):
                raise LessonError(f"{where}: {kind} id {block_id!r} is used in {first} too: the parts of a "
                                  f"lesson share its storage, so each id must be unique in the whole lesson")


def lessons_of(pages, *, lessons_folder: str, question_kinds) -> list[Lesson]:
    """The course's lessons in navigation order (of their first parts). ``pages``: (src, url,
    markdown) of every page in navigation order, Markdown with its front matter."""
    folders: dict[str, list] = {}
    for src, url, markdown in pages:
        folder = PurePosixPath(src).parent.as_posix() + "/"
        if src.startswith(lessons_folder) and folder != lessons_folder:
            folders.setdefault(folder, []).append((src, url, markdown))
    lessons = []
    for folder, members in folders.items():
        read = [(read_part(src, url, markdown, question_kinds=question_kinds), markdown)
                for src, url, markdown in members]
        stamps = [fence.body for (_, fences, _), _ in read for fence in fences if fence.name == STAMP_KIND]
        if not stamps:
            continue
        _check_ids([(part, ids) for (part, _, ids), _ in read])
        (first, _, _), first_markdown = read[0]
        codes = [fence.body for (_, fences, _), _ in read for fence in fences if fence.name == FENCE_LANGUAGE]
        lessons.append(Lesson(
            id=_block_id(stamps[0]) or page_slug(first.src), title=_heading(first_markdown, first.src),
            summary=str(front_matter(first_markdown).get("summary") or "").strip(), needs=needs_of(codes),
            parts=tuple(part for (part, _, _), _ in read)))
    return lessons


def lesson_of(lessons: list[Lesson], url: str) -> tuple[Lesson, int] | None:
    """The lesson the page at ``url`` is a part of, and which part; None for any other page."""
    for lesson in lessons:
        if (index := lesson.part_at(url)) is not None:
            return lesson, index
    return None
