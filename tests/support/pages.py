"""Pages read as the engine reads them, without a build: the page model with its component
blocks parsed (their cells not run)."""

from __future__ import annotations

from py_lessons.plugin.page.model import PageModel, read_page
from py_lessons.plugin.render.components import Components
from py_lessons.plugin.render.components.base import Course
from py_lessons.plugin.render.runs.blocks import NAMES as RUN_KINDS


def components(terms: dict | None = None, site_name: str = "t") -> Components:
    return Components(Course(site_name, terms or {}))


def read(markdown: str, src: str = "p.md", url: str = "p/", *, kinds: Components | None = None,
         page_session: str | None = None, run_kinds=RUN_KINDS) -> PageModel:
    """``markdown`` read into the page model and its components parsed, as prepare_page does
    once a page's cells have run (here: no cell has run)."""
    kinds = kinds or components()
    page = read_page(markdown, src, url, page_session=page_session, component_kinds=kinds.kinds, run_kinds=run_kinds)
    kinds.parse(page)
    return page
