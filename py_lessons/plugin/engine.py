"""The lesson engine: the plugin's pipeline, as a library that knows nothing of MkDocs. Each stage
lives in its own folder (base, page, execute, render, ship); this module only calls them in order.

A site generator's adapter (mkdocs_adapter.py) calls, in build order:

    engine = LessonEngine(Settings(...))       stage Pyodide, load the course's modules
    engine.set_pages([(src, url, markdown)])   which pages are lessons (for the progress block)
    markdown = engine.prepare_page(markdown, src, url, meta)   read once, run cells, check, render
    html = engine.render_fence(kind, body, options)            what the page's fences become
    html = engine.finish_page(html, toc)                       glossary tooltips, formulas
    html = engine.finish_document(url, page_urls, html)        what every page's <head> and <body> get
    engine.write_site(site_dir, use_directory_urls)            assets, Pyodide, service worker
    engine.close()

Under `mkdocs serve` (``serving``) the adapter keeps the engine between rebuilds while
``is_current``, pages that did not change are not prepared again (execute/serve_cache.py), and
the site has no service worker: its precache would serve the author the previous build.

Every error is a LessonError whose message starts with ``page:line``.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from .base import dependencies
from .base.errors import BlockError, LessonError
from .base.fonts import plot_fonts
from .base.html import relative_url
from .config import Settings
from .execute import course_modules
from .execute.build_python import BuildPython, Counts
from .execute.serve_cache import PreparedPages, input_stamps
from .page import claims
from .page.cells import FENCE_LANGUAGE
from .page.lessons import lesson_of, lessons_of
from .page.macros import ValueMacroError, cell_requests, check_no_leftovers, expand as expand_values, expand_cells
from .page.model import PageModel, read_page
from .page.generated_checks import check_generated
from .page.prose_checks import Finding, ProseChecker
from .render import glossary
from .render.cell_html import render_cell
from .render.components import Components
from .render.components.base import Course
from .render.components.built import block_key, fill_site
from .render.math import MathRenderer, plain_toc_titles
from .render import lesson_parts
from .render import deferred, figure_files
from .render.own_blocks import own_blocks
from .render.notebook import LessonFiles, download_control, joined, lesson_file_name, lesson_files
from .render.search_index import prose_only
from .render.runs.blocks import NAMES as RUN_KINDS, RunBlocks
from .ship.app_manifest import AppManifest
from .ship.staging import MANIFEST_NAME, StagingError, resolve_source, stage
from .ship.writer import SiteWriter, storage_namespace

log = logging.getLogger("mkdocs.plugins.py_lessons")


class LessonEngine:
    def __init__(self, settings: Settings, serving: bool = False):
        self.settings = settings
        self.serving = serving
        self.layout = layout = settings.layout
        root = Path(settings.root)
        self.cache_dir = root / settings.cache_dir
        self.runs_dir = root / settings.runs_dir
        # before staging: an edit made during it counts
        self.inputs = input_stamps(settings.docs_dir, self.runs_dir, layout.glossary_file)
        try:
            self.node_modules = dependencies.node_modules(
                str(root / settings.node_modules) if settings.node_modules else None)
            self.modules = course_modules.find_modules(settings.docs_dir)
            course_modules.load(self.modules)
            source = resolve_source(settings.pyodide_release and str(root / settings.pyodide_release),
                                    self.node_modules / "pyodide", dependencies.wheel_carrier)
            self._stage = lambda: stage(source, list(settings.packages), dependencies.user_cache() / "pyodide",
                                        plot_fonts(self.node_modules), self.modules, compiled=settings.bytecode,
                                        snapshot=settings.startup_snapshot)
            self.staged = self._stage()
        except (dependencies.DependencyError, StagingError, OSError) as exc:
            raise LessonError(f"py_lessons: cannot stage Pyodide: {exc}") from exc
        except course_modules.ContentError as exc:
            raise LessonError(str(exc)) from exc
        except Exception as exc:  # noqa: BLE001 - a course module that fails to import
            raise LessonError(f"py_lessons: the course's steppers.py/explorables.py/course.py modules could not be loaded: "
                              f"{exc!r}") from exc
        log.info("py_lessons: Pyodide %s staged from %s", self.staged.version, source.describe())
        self.python = BuildPython(self.staged.path, self.staged.cells_key, self.modules, self.cache_dir / "cells",
                                  settings.cell_timeout)
        try:
            terms = glossary.load(Path(settings.docs_dir) / layout.glossary_file)
        except BlockError as exc:
            raise LessonError(str(exc)) from exc
        self.course = Course(settings.site_name, terms, layout)
        self.components = Components(self.course)
        self.runs = RunBlocks(self.runs_dir, layout.lessons_folder)
        self.math = MathRenderer(self.node_modules)
        self.prose = ProseChecker(terms, self.components.kinds, settings.docs_dir)
        glossary_file = Path(settings.docs_dir) / layout.glossary_file
        if glossary_file.is_file():
            self._report_prose(self.prose.check_glossary(glossary_file.read_text(encoding="utf-8"),
                                                         layout.glossary_file))
        self.offline = settings.offline and not serving
        app = AppManifest.for_site(
            settings.site_name, description=settings.site_description, language=settings.language,
            name=settings.app_name, short_name=settings.app_short_name, icon_text=settings.app_icon_text,
            theme_color=settings.theme_color, theme_color_dark=settings.theme_color_dark)
        self.writer = SiteWriter(settings.site_name, storage_namespace(settings.site_name, settings.site_url), layout,
                                 self.node_modules, self.cache_dir / "vendor", app, offline=self.offline,
                                 precompressed=not serving,
                                 component_scripts={**self.components.scripts(), **glossary.SCRIPTS})
        self.page: PageModel | None = None
        self.cell_codes: dict[str, list[str]] = {}  # page url -> its cells' code (finish_document: MkDocs asks after all pages)
        self.lesson_files: dict[str, LessonFiles] = {}  # page url -> its notebook and .py
        self.figures: dict[str, str] = {}  # file name -> SVG: the build's figures, out of the pages
        self.prepared = PreparedPages()
        self.pages_prepared = 0
        self.pages_reused = 0
        if serving and settings.offline:
            log.info("py_lessons: serving: no service worker, the site is not offline while `mkdocs serve` runs "
                     "(`mkdocs build` writes it)")

    def is_current(self, settings: Settings) -> bool:
        """Under `serve`: may the next rebuild keep this engine (same settings, same input files)?"""
        return (self.serving and settings == self.settings
                and input_stamps(settings.docs_dir, self.runs_dir, settings.layout.glossary_file) == self.inputs)

    # -- what the adapter registers -----------------------------------------------------
    @property
    def fence_kinds(self) -> list[str]:
        return [FENCE_LANGUAGE, *self.components.kinds, *RUN_KINDS, claims.KIND]

    @property
    def storage_namespace(self) -> str:
        return self.writer.namespace

    def set_pages(self, pages) -> None:
        """``pages``: (src, url, markdown) of every page in navigation order."""
        self.course.lessons = lessons_of(pages, lessons_folder=self.layout.lessons_folder,
                                         question_kinds=self.components.question_kinds)
        self.prose.lesson_count = len(self.course.lessons) or None
        # a new build (under `serve`, the previous one may have stopped half-way): its pages add theirs
        self.lesson_files = {}
        self.built_blocks = {}  # "kind:page url:id" -> a component as its page parsed it (render/components/built.py)
        self.figures = {}
        self.python.counts = Counts()
        self.pages_prepared = self.pages_reused = 0

    # -- one page -------------------------------------------------------------------------
    def prepare_page(self, markdown: str, src: str, url: str, meta: dict | None = None) -> str:
        """Read the page once, run its cells (cached), check its exercises and claims, render its
        blocks; returns the Markdown for the renderer (cells and blocks tagged, macros filled in)."""
        key = PreparedPages.key(markdown, src, url, meta, self.prose.lesson_count)
        kept = self.prepared.get(key, self.course.lessons) if self.serving else None
        if kept is not None:
            self.page = kept.page
            self.cell_codes[url] = [cell.code for cell in kept.page.cells]
            self._keep_built(kept.page)
            if kept.files is not None:
                self.lesson_files[url] = kept.files
            self.pages_reused += 1
            return kept.markdown
        source = self._source_of(markdown, src)
        self._check_prose(source, src)
        # MkDocs hands the page over without its front matter: blank lines in its place keep every
        # line a message names the file's line, the one an author opens
        if markdown and source.endswith(markdown):
            markdown = "\n" * source[:-len(markdown)].count("\n") + markdown
        try:  # first: a component's text may quote values too (line numbers do not move)
            markdown = expand_values(markdown, self.runs.value)
        except ValueMacroError as exc:
            raise LessonError(exc.at(src)) from exc
        except BlockError as exc:
            raise LessonError(f"{src}: {exc}") from exc
        page = self.page = read_page(markdown, src, url, page_session=(meta or {}).get("cell_session"),
                                     component_kinds=self.components.kinds, run_kinds=RUN_KINDS)
        self.cell_codes[url] = [cell.code for cell in page.cells]
        page.results = self.python.run_cells(page, self._value_requests(page, markdown)) if page.cells else {}
        markdown = self._quote_cells(page, markdown)
        page.quoted(markdown)
        self._check_cell_claims(page)
        self.components.parse(page)
        self._keep_built(page)
        self.components.check(page, self.python)
        self.components.render(page)
        for block in page.runs:
            try:
                block.html = self.runs.render(block.kind, block.body, page.root_url)
            except BlockError as exc:  # a bad block, or a claim that no longer holds
                raise LessonError(f"{page.where(block.line, exc)}: {block.kind}: {exc}") from exc
        files = lesson_files(page, markdown, self.course.terms, self.components.notebook)
        if files is not None:
            self.lesson_files[page.url] = files
        tagged = page.tagged_markdown(markdown)
        if self.serving:
            self.prepared.put(key, page, tagged, files,
                              self.course.lessons if self.components.lists_lessons(page) else None)
        self.pages_prepared += 1
        return tagged

    def _keep_built(self, page) -> None:
        """The page's components as parsed, macros filled in: pages about the whole course show them so."""
        for block in page.components:
            if isinstance(block.parsed, dict) and block.parsed.get("id"):
                self.built_blocks[block_key(block.kind, page.url, block.parsed["id"])] = block.parsed

    def render_fence(self, kind: str, body: str, options: dict) -> str:
        page = self.page
        if page is None:
            raise LessonError(f"a {kind} fence outside a prepared page")
        if kind == FENCE_LANGUAGE:
            spec = page.cell_of(options)
            entry = page.results[spec.index]
            predicted = {block.parsed["cell"] for block in page.components if block.kind == "predict" and block.parsed}
            return render_cell(spec.cell_id, spec.code, entry["items"], entry["result"], session=spec.session,
                               raises=spec.raises, timeout=spec.timeout,
                               runs_href=page.root_url + self.layout.runs_page,
                               awaits_prediction=spec.cell_id in predicted)
        return page.block_of(kind, options).html

    def finish_page(self, html: str, use_directory_urls: bool = True, toc=()) -> str:
        """Glossary terms become tooltips (a page that used any ends with their list); formulas
        are rendered by KaTeX; formulas in headings read as text in the table of contents; a
        lesson's part gets its header (the lesson, its parts, the reader's place) and ends with the
        way on and the download control (the whole lesson's files); what scripts put in at load
        gets a block of its own (render/own_blocks.py); search indexes only the prose; figures and
        what the page hides at load are set aside (render/figure_files.py, deferred.py)."""
        page = self.page
        self._report_prose(check_generated(self.prose, html, self._source_of("", page.src), page.src))
        try:
            html, used = self._mark_terms(html, page.url, page.slug, use_directory_urls)
            plain_toc_titles(toc)
            html = self.math.render_page(html)
        except BlockError as exc:
            raise LessonError(f"{page.src}: {exc}") from exc
        files = self.lesson_files.get(page.url)
        found = lesson_of(self.course.lessons, page.url)
        if found:
            lesson, index = found
            html = lesson_parts.with_header(html, lesson, self.course.lessons.index(lesson) + 1, index, page.url)
            html += lesson_parts.render_next(lesson, index, page.url)
        if used and page.src != self.layout.glossary_source():
            html += glossary.render_page_list(used, self.course.terms)
        if found and (found[0].cells or files):  # the whole lesson's files, beside its first part
            html += download_control(lesson_file_name(found[0].parts[0].src), relative_url(found[0].url, page.url))
        elif files:
            html += download_control(files.name)
        return deferred.defer_hidden(figure_files.set_aside(prose_only(own_blocks(html)), self.figures))

    def _mark_terms(self, html: str, page_url: str, slug: str, use_directory_urls: bool) -> tuple[str, list[str]]:
        """Glossary terms as tooltips linking to the glossary from the page at ``page_url``; tooltip
        ids start with ``slug``."""
        href = relative_url(self.layout.glossary_url(use_directory_urls), page_url)
        return glossary.mark_terms(html, self.course.terms, href, slug)

    def _finish_built(self, html: str, page_file: str, key: str, use_directory_urls: bool) -> str:
        """A lesson's question shown on a page about the course (built.py): its glossary terms
        marked as in its lesson (each card's tooltips named after its question, so two cards never
        share an id), its formulas drawn."""
        html, _ = self._mark_terms(html, page_file, re.sub(r"[^a-z0-9-]+", "-", key.lower()).strip("-"), use_directory_urls)
        return self.math.render_page(html)

    def finish_document(self, page_url: str, page_urls: list[str], page_html: str) -> str:
        """``page_html``: the whole page as the theme wrote it, with what the plugin adds to every
        page (ship/writer.py). One with cells (render/cell_html.py's attribute) starts Python from
        its <head>, told whether a cell of the page calls input()."""
        codes = self.cell_codes.get(page_url, []) if 'data-cell-id="' in page_html else None
        return self.writer.finish_document(page_html, self.writer.head_tags(page_url, page_urls, codes))

    # -- quoting cells and checking prose -----------------------------------------------------
    def _value_requests(self, page: PageModel, markdown: str) -> dict[str, list[str]]:
        """Cell id -> the value(EXPR) expressions the page's macros and cell claims ask of it."""
        try:
            pairs = cell_requests(markdown, page.fences, self.components.kinds)
        except ValueMacroError as exc:
            raise LessonError(f"{page.where(exc.line)}: {exc}") from exc
        requests: dict[str, list[str]] = {}
        for cell_id, expr in pairs + claims.requested_values(block.parsed for block in page.claims):
            if expr not in requests.setdefault(cell_id, []):
                requests[cell_id].append(expr)
        return requests

    def _quote_cells(self, page: PageModel, markdown: str) -> str:
        try:
            quoted = expand_cells(markdown, page.fences, self.components.kinds, page.outputs_by_cell_id())
            check_no_leftovers(quoted, page.fences, self.components.kinds)
            return quoted
        except ValueMacroError as exc:
            raise LessonError(f"{page.where(exc.line)}: {exc}") from exc

    def _check_cell_claims(self, page: PageModel) -> None:
        outputs = page.outputs_by_cell_id()
        for block in page.claims:
            try:
                block.html = claims.render(block.parsed, claims.check(block.parsed, outputs))
            except ValueError as exc:  # a claim that does not hold, or a format spec Python rejects
                raise LessonError(f"{page.where(block.line, exc)}: {claims.KIND}: {exc}") from exc

    def _check_prose(self, source: str, src: str) -> None:
        self._report_prose(self.prose.check_page(source, src))

    def _source_of(self, fallback: str, src: str) -> str:
        """The page's file as the author wrote it (front matter included), when there is one."""
        path = Path(self.settings.docs_dir) / src
        return path.read_text(encoding="utf-8") if path.is_file() else fallback

    def _report_prose(self, found: list[Finding]) -> None:
        if not found:
            return
        if self.settings.term_check == "error":
            listing = "\n".join(str(finding) for finding in found)
            raise LessonError(f"{found[0].src}:{found[0].line}: the prose check found {len(found)} problem(s) "
                              f"({self.layout.glossary_file} lists the chosen terms):\n{listing}")
        log.info("py_lessons: %s: %d prose finding(s) (term_check: warn); `python -m py_lessons.plugin.cli.check_prose "
                 "%s` lists them", found[0].src, len(found), self.settings.docs_dir)

    # -- the built site -------------------------------------------------------------------
    def write_site(self, site_dir: Path, use_directory_urls: bool = True) -> None:
        if not (self.staged.path / MANIFEST_NAME).is_file():  # pruned meanwhile (a long `serve`): made again
            self.staged = self._stage()
        try:  # first: the writer compresses and lists the filled pages
            fill_site(site_dir, self.built_blocks,
                      lambda html, page_file, key: self._finish_built(html, page_file, key, use_directory_urls))
        except BlockError as exc:
            raise LessonError(str(exc)) from exc
        self.writer.write(site_dir, self.staged.path, self._files_to_write(), self.figures, self.math.formula_text())
        counts = self.python.counts
        log.info("py_lessons: %d cells run, %d from cache", counts.cells_run, counts.cells_cached)
        if counts.figures_drawn or counts.figures_cached:
            log.info("py_lessons: %d explorable figures drawn, %d from cache", counts.figures_drawn,
                     counts.figures_cached)
        if self.serving:
            log.info("py_lessons: serving: %d pages prepared, %d unchanged pages reused", self.pages_prepared,
                     self.pages_reused)
            self.python.warm_up()

    def _files_to_write(self) -> list[LessonFiles]:
        """Each page's notebook and .py, a lesson's parts joined into one pair beside its first part."""
        out, taken = [], set()
        for lesson in self.course.lessons:
            parts = [self.lesson_files[part.url] for part in lesson.parts if part.url in self.lesson_files]
            taken.update(part.url for part in lesson.parts)
            if parts:
                first = lesson.parts[0]
                out.append(joined(parts, first.src, first.url))
        return out + [files for url, files in self.lesson_files.items() if url not in taken]

    def close(self) -> None:
        self.python.close()
