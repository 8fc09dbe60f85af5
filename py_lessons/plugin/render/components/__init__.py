"""Lesson components: one class per kind (base.py says what a kind is), found in the modules of
this folder. The engine reads every block of the page once its cells have run
(:meth:`Components.parse`), has each kind check what depends on the cells
(:meth:`Components.check`: predict blocks, exercises, explorables' figures) and render its HTML
(:meth:`Components.render`). Errors name the page and line.
"""

from __future__ import annotations

import importlib
import pkgutil

from ...base.errors import BlockError, LessonError
from ...page.model import Block, PageModel
from .base import BuildPython, Component, Course, NotebookPart


def _kinds() -> dict[str, type[Component]]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    found: dict[str, type[Component]] = {}
    todo = list(Component.__subclasses__())
    while todo:
        cls = todo.pop(0)
        todo.extend(cls.__subclasses__())
        if "kind" in vars(cls):
            if cls.kind in found:
                raise RuntimeError(f"two component classes for the kind {cls.kind!r}")
            found[cls.kind] = cls
    return dict(sorted(found.items()))


KINDS = _kinds()


class Components:
    """The course's components: one instance of each kind."""

    def __init__(self, course: Course):
        self.course = course
        self.by_kind: dict[str, Component] = {kind: cls(course) for kind, cls in KINDS.items()}

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.by_kind)

    @property
    def question_kinds(self) -> tuple[str, ...]:
        return tuple(kind for kind, component in self.by_kind.items() if component.question)

    def scripts(self) -> dict[str, str]:
        """kind -> its script under assets/pathshala/components/ (for the page's loader)."""
        return {kind: c.script for kind, c in self.by_kind.items() if c.script}

    def lists_lessons(self, page: PageModel) -> bool:
        return any(self.by_kind[block.kind].lists_lessons for block in page.components)

    def _each(self, page: PageModel, blocks, action):
        for block in blocks:
            try:
                yield block, action(self.by_kind[block.kind], block)
            except BlockError as exc:
                raise LessonError(f"{page.where(block.line, exc)}: {exc}") from exc

    def parse(self, page: PageModel) -> None:
        """Read every component block of the page (once), its ids unique on the page."""
        seen: dict[str, int] = {}
        for block, parsed in self._each(page, page.components, lambda c, b: c.parse(b.body, page)):
            block.parsed = parsed
            cid = parsed.get("id") if isinstance(parsed, dict) else None
            if cid:
                if cid in seen:
                    raise LessonError(f"{page.where(block.line)}: component id {cid!r} is already used on line {seen[cid]}")
                seen[cid] = block.line

    def check(self, page: PageModel, python: BuildPython) -> None:
        for _ in self._each(page, page.components, lambda c, b: c.check(b.parsed, page, python)):
            pass

    def render(self, page: PageModel) -> None:
        for block, html in self._each(page, page.components, lambda c, b: c.render(b.parsed, page)):
            block.html = html

    def notebook(self, block: Block) -> NotebookPart | None:
        return self.by_kind[block.kind].notebook(block.parsed)
