"""The lesson engine: everything the plugin does, as a library that knows nothing of MkDocs.

A site generator's adapter (mkdocs_adapter.py) calls, in build order:

    engine = LessonEngine(Settings(...))       stage Pyodide, load the course's modules
    engine.set_pages([(src, url, markdown)])   which pages are lessons (for the progress block)
    markdown = engine.prepare_page(markdown, src, url, meta)   parse once, run cells, check, render
    html = engine.render_fence(kind, body, options)            what the page's fences become
    html = engine.finish_page(html, toc)                       glossary tooltips, formulas
    engine.write_site(site_dir, serving)                       assets, Pyodide, service worker
    engine.close()

Every error is a LessonError whose message starts with ``page:line``.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..runtime.execute import merge_items
from . import content, dependencies
from .cache import CellCache, cell_key
from .cells import FENCE_LANGUAGE, INDEX_OPTION, CellSpec
from .components import Components, lessons_of
from .dependencies import DependencyError
from .page import LessonError, PageModel, read_page
from .precompress import precompress
from .render import render_cell
from .runner import PyodideRunner, RunnerError
from .runs import NAMES as RUN_KINDS, RunBlocks, RunError
from .staging import StagingError, resolve_source, stage
from .values import ValueMacroError, expand as expand_values
from .vendor import VendorError, plot_fonts, write_vendor_assets

log = logging.getLogger("mkdocs.plugins.py_lessons")

ASSETS = Path(__file__).parent / "assets"          # the plugin's own front end
ASSETS_URL = "assets/pathshala"                     # where it lands in the site
MAKE_SERVICE_WORKER = Path(__file__).parent / "node" / "make_sw.mjs"

# What every page that uses the plugin loads, in this order (relative to the site root).
STYLESHEETS = ("assets/vendor/noto-sans-bengali/fonts.css", f"{ASSETS_URL}/cells.css", f"{ASSETS_URL}/runs.css",
               f"{ASSETS_URL}/components.css", "assets/vendor/katex/katex.min.css")
SCRIPTS = tuple(f"{ASSETS_URL}/{name}" for name in ("cells.js", "offline.js", "a11y.js", "components/index.js"))
HEAD_SCRIPT = f"{ASSETS_URL}/instant-sitemap.js"  # instant navigation without a site_url


@dataclass
class Settings:
    root: Path                      # the course's project folder (where mkdocs.yml is)
    docs_dir: Path
    site_name: str
    site_url: str = ""
    packages: list[str] = field(default_factory=lambda: ["numpy", "matplotlib"])
    cache_dir: str = ".cache/py_lessons"
    cell_timeout: float = 120
    pyodide_url: str = "pyodide"    # folder of the staged Pyodide inside the site
    runs_dir: str = "gpu_runs/results"
    offline: bool = True
    pyodide_release: str | None = None
    node_modules: str | None = None


class LessonEngine:
    def __init__(self, settings: Settings):
        self.settings = settings
        root = Path(settings.root)
        self.cache_dir = root / settings.cache_dir
        self.runs_dir = root / settings.runs_dir
        try:
            self.node_modules = dependencies.node_modules(
                str(root / settings.node_modules) if settings.node_modules else None)
            self.content = content.find_modules(settings.docs_dir)
            content.load(self.content)
            source = resolve_source(settings.pyodide_release and str(root / settings.pyodide_release),
                                    self.node_modules / "pyodide", dependencies.wheel_carrier)
            self.staged = stage(source, list(settings.packages), self.cache_dir / "pyodide",
                                plot_fonts(self.node_modules), self.content)
        except (DependencyError, StagingError, OSError) as exc:
            raise LessonError(f"py_lessons: cannot stage Pyodide: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - a course module that fails to import
            raise LessonError(f"py_lessons: the course's steppers.py modules could not be loaded: {exc!r}") from exc
        log.info("py_lessons: Pyodide %s staged from %s", self.staged.version, source.describe())
        self.cache = CellCache(self.cache_dir / "cells")
        self.components = Components(settings.docs_dir, settings.site_name, settings.site_url, self.node_modules)
        self.runs = RunBlocks(self.runs_dir)
        self._runner: PyodideRunner | None = None
        self.page: PageModel | None = None
        self.cells_run = 0
        self.cells_cached = 0

    # -- what the adapter registers -----------------------------------------------------
    @property
    def fence_kinds(self) -> list[str]:
        return [FENCE_LANGUAGE, *self.components.parsers, *RUN_KINDS]

    @property
    def storage_namespace(self) -> str:
        return self.components.storage_namespace

    def set_pages(self, pages) -> None:
        """``pages``: (src, url, markdown) of every page in navigation order."""
        self.components.lessons = lessons_of(pages)

    # -- one page -------------------------------------------------------------------------
    def prepare_page(self, markdown: str, src: str, url: str, meta: dict | None = None) -> str:
        """Parse the page once, run its cells (cached), check its exercises and claims, render its
        blocks; returns the Markdown for the renderer (cells tagged, value macros filled in)."""
        try:  # first: a component's text may quote values too (line numbers do not move)
            markdown = expand_values(markdown, self.runs_dir)
        except ValueMacroError as exc:
            raise LessonError(f"{src}: {exc}") from exc
        page = read_page(markdown, src, url, page_session=(meta or {}).get("cell_session"),
                         parsers=self.components.parsers, run_kinds=RUN_KINDS)
        self.page = page
        page.results = self._run_cells(page) if page.cells else {}
        self.components.check(page, lambda code, checks: self._check_exercise(page, code, checks))
        for block in page.components:
            block.html = self.components.render(block, page)
        for block in page.runs:
            try:
                block.html = self.runs.render(block.kind, block.body, page.root_url)
            except (RunError, ValueError) as exc:  # a bad block, or a claim that no longer holds
                raise LessonError(f"{page.where(block.line)}: {block.kind}: {exc}") from exc
        return page.tagged_markdown(markdown)

    def render_fence(self, kind: str, body: str, options: dict) -> str:
        page = self.page
        if page is None:
            raise LessonError(f"a {kind} fence outside a prepared page")
        if kind == FENCE_LANGUAGE:
            try:
                spec = page.cells[int(options[INDEX_OPTION])]
            except (KeyError, ValueError, IndexError) as exc:
                raise LessonError(f"{page.src}: a pycell fence could not be matched to a run cell: {exc}") from exc
            entry = page.results[spec.index]
            return render_cell(spec.cell_id, spec.code, entry["items"], entry["result"], session=spec.session,
                               raises=spec.raises, timeout=spec.timeout, root_url=page.root_url)
        block = page.block(kind, body)
        if block is None or block.html is None:
            raise LessonError(f"{page.src}: a {kind} block was not found in the page model")
        return block.html

    def finish_page(self, html: str, use_directory_urls: bool = True, toc=()) -> str:
        return self.components.page_content(html, self.page, use_directory_urls, toc)

    # -- running cells ----------------------------------------------------------------------
    def _runner_for_build(self) -> PyodideRunner:
        if self._runner is None:
            self._runner = PyodideRunner(self.staged.path)
        return self._runner

    def _run_cells(self, page: PageModel) -> dict[int, dict]:
        """Results per cell index; a session's cells all re-run together when any one changed."""
        results: dict[int, dict] = {}
        groups: dict[str | None, list[CellSpec]] = {}
        for spec in page.cells:
            groups.setdefault(spec.session, []).append(spec)
        for session, members in groups.items():
            units = [[spec] for spec in members] if session is None else [members]
            for unit in units:
                keys, history = [], []
                for spec in unit:
                    keys.append(cell_key(spec.code, list(history), self.staged.cells_key))
                    history.append(spec.code)
                cached = [self.cache.get(key) for key in keys]
                if all(entry is not None for entry in cached):
                    self.cells_cached += len(unit)
                    fresh = cached
                else:
                    fresh = self._execute(page, unit, session)
                    for key, entry in zip(keys, fresh):
                        self.cache.put(key, entry)
                for spec, entry in zip(unit, fresh):
                    _check_outcome(page, spec, entry)
                    results[spec.index] = entry
        return results

    def _execute(self, page: PageModel, unit: list[CellSpec], session: str | None) -> list[dict]:
        runner = self._runner_for_build()
        session_key = f"{page.src}::{session}" if session else None
        out = []
        try:
            runner.reset()
            for spec in unit:
                answer = runner.run(spec.code, session_key, spec.cell_id, spec.timeout or self.settings.cell_timeout)
                out.append({"items": merge_items(answer["items"]), "result": answer["result"]})
                self.cells_run += 1
        except RunnerError as exc:
            spec = unit[len(out)]
            raise LessonError(f"{page.where(spec.line)}: cell '{spec.cell_id}' could not run: {exc}") from exc
        return out

    def _check_exercise(self, page: PageModel, code: str, checks: str) -> dict:
        """py_lessons.runtime.checking in the build's Pyodide, as the reader's Check runs it; cached."""
        key = cell_key(checks, ["# exercise code", code], self.staged.cells_key)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        try:
            outcome = self._runner_for_build().check(code, checks, self.settings.cell_timeout)
        except RunnerError as exc:
            raise LessonError(f"{page.src}: an exercise's code could not run: {exc}") from exc
        self.cache.put(key, outcome)
        return outcome

    # -- the built site -------------------------------------------------------------------
    def site_settings_module(self) -> str:
        """Settings the front end reads (assets/pathshala/site.js)."""
        return ("// Written by the py_lessons plugin at build time.\n"
                f'export const storageNamespace = "{self.storage_namespace}";\n'
                f'export const pyodidePath = "{self.settings.pyodide_url.strip("/")}";\n')

    def write_site(self, site_dir: Path, serving: bool = False) -> None:
        site_dir = Path(site_dir)
        assets = site_dir / ASSETS_URL
        shutil.copytree(ASSETS, assets, dirs_exist_ok=True)
        (assets / "site.js").write_text(self.site_settings_module(), encoding="utf-8")
        target = site_dir / self.settings.pyodide_url
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.staged.path, target)
        try:
            write_vendor_assets(site_dir, self.node_modules, self.cache_dir / "vendor")
        except VendorError as exc:
            raise LessonError(str(exc)) from exc
        if self.settings.offline:
            self._write_service_worker(site_dir)
        if not serving:  # `serve` sends files as they are: gzip copies would only slow every rebuild
            packed = precompress(site_dir)  # last: it covers every file written above, sw.js too
            log.info("py_lessons: gzip copies of %d files, %.1f MB -> %.1f MB", packed["files"],
                     packed["bytes"] / 1e6, packed["gzip_bytes"] / 1e6)
        log.info("py_lessons: %d cells run, %d from cache", self.cells_run, self.cells_cached)
        self.cells_run = self.cells_cached = 0

    def _write_service_worker(self, site_dir: Path) -> None:
        """Last step of the build: it lists every file the site now has (see node/make_sw.mjs)."""
        done = subprocess.run(["node", str(MAKE_SERVICE_WORKER), str(site_dir), self.storage_namespace,
                               str(self.node_modules)], capture_output=True, text=True, cwd=self.settings.root)
        if done.returncode != 0:
            raise LessonError(f"py_lessons: the service worker could not be written:\n{done.stderr[-2000:]}")
        log.info("py_lessons: service worker precaches %s", done.stdout.strip())

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None


def _check_outcome(page: PageModel, spec: CellSpec, entry: dict) -> None:
    result = entry["result"]
    where = f"{page.where(spec.line)}: cell '{spec.cell_id}'"
    if result["ok"] and spec.raises:
        raise LessonError(f"{where} is marked raises=\"{spec.raises}\" but finished without an error")
    if not result["ok"]:
        if spec.raises is None:
            raise LessonError(f"{where} raised {result['error']} (mark it raises=\"{result['error']}\" "
                              f"if that is the lesson):\n{result['traceback']}")
        if spec.raises not in ("any", result["error"]):
            raise LessonError(f"{where} should raise {spec.raises} but raised {result['error']}:\n"
                              f"{result['traceback']}")
