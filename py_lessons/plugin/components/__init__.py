"""Lesson components: steppers, explorable figures, quizzes, hidden answers, progress (the course's
lessons, course.py), my work (export/import/erase), glossary, predict, exercises.

Each component is a fenced block whose body is YAML (```` ```mcq ````). The page model parses
every block once (``parsers``, errors name the page and line); once the page's cells have run,
:meth:`Components.check` verifies what depends on them (predict blocks, exercises),
:meth:`Components.draw_figures` has the build's Pyodide draw the explorables' figures and
:meth:`Components.render` turns each parsed block into HTML. No MkDocs here: the adapter calls in.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from ..page import Block, LessonError, PageModel
from . import course, exercise, explorable, glossary, my_work, predict, progress, quiz, reveal, stepper
from .course import Lesson, lessons_of
from .common import ComponentError, relative_url
from .math import MathRenderer, plain_toc_titles

GLOSSARY_FILE = "glossary.yml"          # inside docs_dir (optional)
GLOSSARY_PAGE = "glossary/index.md"     # the page that shows every term (optional)


class Components:
    def __init__(self, docs_dir: Path, site_name: str, site_url: str, node_modules: Path):
        self.site_name = site_name
        self.site_url = site_url or ""
        self.math = MathRenderer(node_modules)
        self.lessons: list[Lesson] = []   # the course's lessons in navigation order (course.py)
        try:
            self.terms = glossary.load(Path(docs_dir) / GLOSSARY_FILE)
        except ComponentError as exc:
            raise LessonError(str(exc)) from exc
        self._parse: dict[str, Callable] = {
            "stepper": lambda body, slug: stepper.parse(body),
            "explorable": lambda body, slug: explorable.parse(body),
            "mcq": lambda body, slug: quiz.parse_mcq(body),
            "ordering": lambda body, slug: quiz.parse_ordering(body),
            "reveal": lambda body, slug: reveal.parse(body),
            "complete": progress.parse_complete,
            "progress": lambda body, slug: {},
            "my-work": lambda body, slug: {},
            "glossary": lambda body, slug: {},
            "predict": lambda body, slug: predict.parse(body),
            "exercise": lambda body, slug: exercise.parse(body),
        }

    @property
    def parsers(self) -> dict[str, Callable]:
        return self._parse

    @property
    def storage_namespace(self) -> str:
        """localStorage keys start with this, so two sites on one host never collide."""
        digest = hashlib.sha256(f"{self.site_url}\n{self.site_name}".encode("utf-8")).hexdigest()[:10]
        return f"pathshala-{digest}"

    def check(self, page: PageModel, check_exercise) -> None:
        """After the page's cells ran: a predict block's cell must exist; an exercise's solution
        must pass its checks and its starter must not (``check_exercise(code, checks)`` runs them
        in the build's Pyodide)."""
        outputs = page.outputs_by_cell_id()
        for block in page.components:
            try:
                if block.kind == "predict" and block.parsed["cell"] not in outputs:
                    known = ", ".join(sorted(outputs)) or "none"
                    raise ComponentError(f"predict '{block.parsed['id']}': there is no pycell with id "
                                         f"'{block.parsed['cell']}' on this page (cells here: {known})")
                if block.kind == "exercise":
                    exercise.verify(block.parsed, check_exercise)
            except ComponentError as exc:
                raise LessonError(f"{page.where(block.line)}: {exc}") from exc

    def draw_figures(self, page: PageModel, call) -> None:
        """The explorables' default figures: ``call(module, function, kwargs, imports,
        content_sha)`` calls py_lessons.runtime in the build's Pyodide, as the reader's worker does."""
        for block in page.components:
            if block.kind == "explorable":
                try:
                    explorable.draw(block.parsed, call)
                except ComponentError as exc:
                    raise LessonError(f"{page.where(block.line)}: {exc}") from exc

    def render(self, block: Block, page: PageModel) -> str:
        parsed = block.parsed
        try:
            if block.kind == "stepper":
                return stepper.render(parsed)
            if block.kind == "explorable":
                return explorable.render(parsed)
            if block.kind == "mcq":
                return quiz.render_mcq(parsed)
            if block.kind == "ordering":
                return quiz.render_ordering(parsed)
            if block.kind == "reveal":
                return reveal.render(parsed)
            if block.kind == "complete":
                return progress.render_complete(parsed)
            if block.kind == "progress":
                return course.render_progress(self.lessons, page.url)
            if block.kind == "my-work":
                return my_work.render(self.site_name)
            if block.kind == "glossary":
                return glossary.render_all(self.terms)
            if block.kind == "predict":
                return predict.render(parsed, page.outputs_by_cell_id())
            if block.kind == "exercise":
                return exercise.render(parsed)
        except ComponentError as exc:
            raise LessonError(f"{page.where(block.line)}: {exc}") from exc
        raise LessonError(f"{page.where(block.line)}: unknown component {block.kind!r}")

    def page_content(self, html: str, page: PageModel, use_directory_urls: bool, toc=()) -> str:
        """Glossary terms become tooltips (a page that used any ends with their list); formulas
        are rendered by KaTeX; formulas in headings read as text in the table of contents."""
        href = relative_url("glossary/" if use_directory_urls else "glossary/index.html", page.url)
        try:
            html, used = glossary.mark_terms(html, self.terms, href, page.slug)
            if used and page.src != GLOSSARY_PAGE:
                html += glossary.render_page_list(used, self.terms)
            plain_toc_titles(toc)
            return self.math.render_page(html)
        except ComponentError as exc:
            raise LessonError(f"{page.src}: {exc}") from exc

    def site_module(self) -> str:
        return ("// Generated by py_lessons.plugin.components: settings the components read in the page.\n"
                f'export const storageNamespace = "{self.storage_namespace}";\n')
