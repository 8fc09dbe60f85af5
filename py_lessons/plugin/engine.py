"""The lesson engine: everything the plugin does, as a library that knows nothing of MkDocs.

A site generator's adapter (mkdocs_adapter.py) calls, in build order:

    engine = LessonEngine(Settings(...))       stage Pyodide, load the course's modules
    engine.set_pages([(src, url, markdown)])   which pages are lessons (for the progress block)
    markdown = engine.prepare_page(markdown, src, url, meta)   parse once, run cells, check, render
    html = engine.render_fence(kind, body, options)            what the page's fences become
    html = engine.finish_page(html, toc)                       glossary tooltips, formulas
    engine.write_site(site_dir)                                assets, Pyodide, service worker
    engine.close()

Under `mkdocs serve` (``serving``) the adapter keeps the engine between rebuilds while
``is_current``, pages that did not change are not prepared again (serve_cache.py), and the site
has no service worker: its precache would serve the author the previous build.

Every error is a LessonError whose message starts with ``page:line``.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..runtime.execute import merge_items
from . import cell_claims, content, dependencies
from .app_manifest import AppManifest, write_app
from .cache import CellCache, call_key, cell_key
from .cell_output import has_values, read_value, value_code
from .cells import FENCE_LANGUAGE, INDEX_OPTION, CellSpec
from .components import GLOSSARY_FILE, Components, lessons_of
from .dependencies import DependencyError
from .notebook import LessonFiles, lesson_files, with_download_control
from .page import LessonError, PageModel, read_page
from .precompress import precompress
from .render import render_cell
from .runner import PyodideRunner, RunnerError
from .runs import NAMES as RUN_KINDS, RunBlocks, RunError
from .serve_cache import PreparedPages, input_stamps
from .staging import StagingError, resolve_source, stage
from .terms import Finding, ProseChecker
from .values import ValueMacroError, cell_requests, expand as expand_values, expand_cells
from .vendor import PLOT_FONT, VendorError, plot_fonts, write_vendor_assets

log = logging.getLogger("mkdocs.plugins.py_lessons")

ASSETS = Path(__file__).parent / "assets"          # the plugin's own front end
ASSETS_URL = "assets/pathshala"                     # where it lands in the site
MAKE_SERVICE_WORKER = Path(__file__).parent / "node" / "make_sw.mjs"

# What every page that uses the plugin loads, in this order (relative to the site root).
STYLESHEETS = ("assets/vendor/noto-sans-bengali/fonts.css", f"{ASSETS_URL}/cells.css", f"{ASSETS_URL}/runs.css",
               f"{ASSETS_URL}/components.css", "assets/vendor/katex/katex.min.css", f"{ASSETS_URL}/offline.css",
               f"{ASSETS_URL}/print.css")
SCRIPTS = tuple(f"{ASSETS_URL}/{name}" for name in ("cells.js", "offline.js", "a11y.js", "components/index.js",
                                                    "download.js", "lan-notice.js"))
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
    bytecode: bool = True           # wheels shipped as CPython bytecode (bytecode.py)
    startup_snapshot: bool = True   # Python's start-up snapshot made at build (assets/python-snapshot.js)
    pyodide_release: str | None = None
    node_modules: str | None = None
    term_check: str = "error"       # prose checks (terms.py): "error" stops the build, "warn" logs
    app: AppManifest | None = None  # the installable app's names and colours (default: from site_name)

    def __post_init__(self):
        if self.app is None:
            self.app = AppManifest.for_site(self.site_name)


class LessonEngine:
    def __init__(self, settings: Settings, serving: bool = False):
        self.settings = settings
        self.serving = serving
        self.offline = settings.offline and not serving
        root = Path(settings.root)
        self.cache_dir = root / settings.cache_dir
        self.runs_dir = root / settings.runs_dir
        self.inputs = input_stamps(settings.docs_dir, self.runs_dir)  # before staging: an edit during it counts
        try:
            self.node_modules = dependencies.node_modules(
                str(root / settings.node_modules) if settings.node_modules else None)
            self.content = content.find_modules(settings.docs_dir)
            content.load(self.content)
            source = resolve_source(settings.pyodide_release and str(root / settings.pyodide_release),
                                    self.node_modules / "pyodide", dependencies.wheel_carrier)
            self.staged = stage(source, list(settings.packages), self.cache_dir / "pyodide",
                                plot_fonts(self.node_modules), self.content, compiled=settings.bytecode,
                                snapshot=settings.startup_snapshot)
        except (DependencyError, StagingError, OSError) as exc:
            raise LessonError(f"py_lessons: cannot stage Pyodide: {exc}") from exc
        except content.ContentError as exc:
            raise LessonError(str(exc)) from exc
        except Exception as exc:  # noqa: BLE001 - a course module that fails to import
            raise LessonError(f"py_lessons: the course's steppers.py/explorables.py/course.py modules could not be loaded: "
                              f"{exc!r}") from exc
        log.info("py_lessons: Pyodide %s staged from %s", self.staged.version, source.describe())
        self.cache = CellCache(self.cache_dir / "cells")
        self.components = Components(settings.docs_dir, settings.site_name, settings.site_url, self.node_modules)
        self.runs = RunBlocks(self.runs_dir)
        self.prose = ProseChecker(self.components.terms, self.components.parsers, settings.docs_dir)
        glossary = Path(settings.docs_dir) / GLOSSARY_FILE
        if glossary.is_file():
            self._report_prose(self.prose.check_glossary(glossary.read_text(encoding="utf-8"), GLOSSARY_FILE))
        self._runner: PyodideRunner | None = None
        self._warming: threading.Thread | None = None  # serving: the runner starting in the background
        self.page: PageModel | None = None
        self.lesson_files: dict[str, LessonFiles] = {}  # page url -> its notebook and .py
        self.cells_run = 0
        self.cells_cached = 0
        self.figures_drawn = 0
        self.figures_cached = 0
        self.prepared = PreparedPages()
        self.pages_prepared = 0
        self.pages_reused = 0
        if serving and settings.offline:
            log.info("py_lessons: serving: no service worker, the site is not offline while `mkdocs serve` runs "
                     "(`mkdocs build` writes it)")

    def is_current(self, settings: Settings) -> bool:
        """Under `serve`: may the next rebuild keep this engine (same settings, same input files)?"""
        return (self.serving and settings == self.settings
                and input_stamps(settings.docs_dir, self.runs_dir) == self.inputs)

    # -- what the adapter registers -----------------------------------------------------
    @property
    def fence_kinds(self) -> list[str]:
        return [FENCE_LANGUAGE, *self.components.parsers, *RUN_KINDS, cell_claims.KIND]

    @property
    def storage_namespace(self) -> str:
        return self.components.storage_namespace

    def set_pages(self, pages) -> None:
        """``pages``: (src, url, markdown) of every page in navigation order."""
        self.components.lessons = lessons_of(pages)
        self.prose.lesson_count = len(self.components.lessons) or None
        # a new build (under `serve`, the previous one may have stopped half-way): its pages add theirs
        self.lesson_files = {}
        self.cells_run = self.cells_cached = self.figures_drawn = self.figures_cached = 0
        self.pages_prepared = self.pages_reused = 0

    # -- one page -------------------------------------------------------------------------
    def prepare_page(self, markdown: str, src: str, url: str, meta: dict | None = None) -> str:
        """Parse the page once, run its cells (cached), check its exercises and claims, render its
        blocks; returns the Markdown for the renderer (cells tagged, value macros filled in)."""
        key = PreparedPages.key(markdown, src, url, meta, self.prose.lesson_count)
        kept = self.prepared.get(key, self.components.lessons) if self.serving else None
        if kept is not None:
            self.page = kept.page
            if kept.files is not None:
                self.lesson_files[url] = kept.files
            self.pages_reused += 1
            return kept.markdown
        self._check_prose(markdown, src)
        try:  # first: a component's text may quote values too (line numbers do not move)
            markdown = expand_values(markdown, self.runs_dir)
        except ValueMacroError as exc:
            raise LessonError(f"{src}: {exc}") from exc
        page = read_page(markdown, src, url, page_session=(meta or {}).get("cell_session"),
                         parsers=self.components.parsers, run_kinds=RUN_KINDS)
        self.page = page
        page.results = self._run_cells(page, self._value_requests(page, markdown)) if page.cells else {}
        quoted = self._quote_cells(page, markdown)
        if quoted != markdown:  # a block quoted a cell: read the blocks again (no cell changed)
            markdown, results = quoted, page.results
            page = self.page = read_page(markdown, src, url, page_session=(meta or {}).get("cell_session"),
                                         parsers=self.components.parsers, run_kinds=RUN_KINDS)
            page.results = results
        self._check_cell_claims(page)
        self.components.check(page, lambda code, checks: self._check_exercise(page, code, checks))
        self.components.draw_figures(page, lambda *call: self._draw_figure(page, *call))
        for block in page.components:
            block.html = self.components.render(block, page)
        for block in page.runs:
            try:
                block.html = self.runs.render(block.kind, block.body, page.root_url)
            except (RunError, ValueError) as exc:  # a bad block, or a claim that no longer holds
                raise LessonError(f"{page.where(block.line)}: {block.kind}: {exc}") from exc
        files = lesson_files(page, markdown, self.components.terms)
        if files is not None:
            self.lesson_files[page.url] = files
        tagged = page.tagged_markdown(markdown)
        if self.serving:
            self.prepared.put(key, page, tagged, files, self.components.lessons)
        self.pages_prepared += 1
        return tagged

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
        html = self.components.page_content(html, self.page, use_directory_urls, toc)
        files = self.lesson_files.get(self.page.url) if self.page else None
        return with_download_control(html, files) if files else html

    # -- quoting cells and checking prose -----------------------------------------------------
    def _value_requests(self, page: PageModel, markdown: str) -> dict[str, list[str]]:
        """Cell id -> the value(EXPR) expressions the page's macros and cell claims ask of it."""
        try:
            pairs = cell_requests(markdown, page.fences, self.components.parsers)
        except ValueMacroError as exc:
            raise LessonError(f"{page.where(exc.line)}: {exc}") from exc
        requests: dict[str, list[str]] = {}
        for cell_id, expr in pairs + cell_claims.requested_values(block.parsed for block in page.claims):
            if expr not in requests.setdefault(cell_id, []):
                requests[cell_id].append(expr)
        return requests

    def _quote_cells(self, page: PageModel, markdown: str) -> str:
        try:
            return expand_cells(markdown, page.fences, self.components.parsers, page.outputs_by_cell_id())
        except ValueMacroError as exc:
            raise LessonError(f"{page.where(exc.line)}: {exc}") from exc

    def _check_cell_claims(self, page: PageModel) -> None:
        outputs = page.outputs_by_cell_id()
        for block in page.claims:
            try:
                block.html = cell_claims.render(block.parsed, cell_claims.check(block.parsed, outputs))
            except ValueError as exc:  # a claim that does not hold, or a format spec Python rejects
                raise LessonError(f"{page.where(block.line)}: {cell_claims.KIND}: {exc}") from exc

    def _check_prose(self, markdown: str, src: str) -> None:
        """terms.py's checks, on the page's file when there is one: MkDocs hands ``markdown`` over
        without its front matter, so only the file has the lines an author sees."""
        path = Path(self.settings.docs_dir) / src
        source = path.read_text(encoding="utf-8") if path.is_file() else markdown
        self._report_prose(self.prose.check_page(source, src))

    def _report_prose(self, found: list[Finding]) -> None:
        if not found:
            return
        if self.settings.term_check == "error":
            listing = "\n".join(str(finding) for finding in found)
            raise LessonError(f"{found[0].src}:{found[0].line}: the prose check found {len(found)} problem(s) "
                              f"(glossary.yml lists the chosen terms):\n{listing}")
        log.info("py_lessons: %s: %d prose finding(s) (term_check: warn); `python -m py_lessons.plugin.terms "
                 "%s` lists them", found[0].src, len(found), self.settings.docs_dir)

    # -- running cells ----------------------------------------------------------------------
    def _runner_for_build(self) -> PyodideRunner:
        if self._warming is not None:
            self._warming.join()
            self._warming = None
        if self._runner is None:
            self._runner = PyodideRunner(self.staged.path)
        return self._runner

    def _cells_key(self, texts: list[str]) -> str:
        """The runtime part of a cell's cache key: the staged Pyodide, plus the course modules
        (``course.py``) the code imports."""
        imported = content.imported_sources(texts, self.content)
        return f"{self.staged.cells_key}+{imported}" if imported else self.staged.cells_key

    def _run_cells(self, page: PageModel, requests: dict[str, list[str]]) -> dict[int, dict]:
        """Results per cell index; a session's cells all re-run together when any one changed, or
        when the prose asks for a value (``requests``: cell id -> expressions) not yet cached."""
        results: dict[int, dict] = {}
        groups: dict[str | None, list[CellSpec]] = {}
        for spec in page.cells:
            groups.setdefault(spec.session, []).append(spec)
        for session, members in groups.items():
            units = [[spec] for spec in members] if session is None else [members]
            for unit in units:
                keys, history = [], []
                for spec in unit:
                    history.append(spec.run_identity)
                    keys.append(cell_key(spec.run_identity, history[:-1], self._cells_key(history)))
                cached = [self.cache.get(key) for key in keys]
                wanted = [requests.get(spec.cell_id, []) for spec in unit]
                if all(has_values(entry, exprs) for entry, exprs in zip(cached, wanted)):
                    self.cells_cached += len(unit)
                    fresh = cached
                else:
                    fresh = self._execute(page, unit, session, wanted)
                    for key, entry in zip(keys, fresh):
                        self.cache.put(key, entry)
                for spec, entry in zip(unit, fresh):
                    _check_outcome(page, spec, entry)
                    results[spec.index] = entry
        return results

    def _execute(self, page: PageModel, unit: list[CellSpec], session: str | None,
                 wanted: list[list[str]]) -> list[dict]:
        """Run ``unit``'s cells; after each, evaluate the expressions ``wanted`` of it in its namespace."""
        runner = self._runner_for_build()
        session_key = f"{page.src}::{session}" if session else None
        out = []
        try:
            runner.reset()
            for spec, exprs in zip(unit, wanted):
                # a cell without a session keeps a namespace of its own when the prose asks for a value
                key = session_key or (f"{page.src}::#{spec.cell_id}" if exprs else None)
                timeout = spec.timeout or self.settings.cell_timeout
                answer = runner.run(spec.code, key, spec.cell_id, timeout, stdin=spec.stdin)
                entry = {"items": merge_items(answer["items"]), "result": answer["result"]}
                if exprs:
                    entry["values"] = {expr: read_value(runner.run(value_code(expr), key, f"{spec.cell_id}-value",
                                                                   timeout)) for expr in exprs}
                out.append(entry)
                self.cells_run += 1
        except RunnerError as exc:
            spec = unit[len(out)]
            raise LessonError(f"{page.where(spec.line)}: cell '{spec.cell_id}' could not run: {exc}") from exc
        return out

    def _check_exercise(self, page: PageModel, code: str, checks: str) -> dict:
        """py_lessons.runtime.checking in the build's Pyodide, as the reader's Check runs it; cached."""
        key = cell_key(checks, ["# exercise code", code], self._cells_key([code, checks]))
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        try:
            outcome = self._runner_for_build().check(code, checks, self.settings.cell_timeout)
        except RunnerError as exc:
            raise LessonError(f"{page.src}: an exercise's code could not run: {exc}") from exc
        self.cache.put(key, outcome)
        return outcome

    def _draw_figure(self, page: PageModel, module: str, function: str, kwargs: dict, imports: str,
                     content_sha: str) -> dict:
        """py_lessons.runtime.session.call in the build's Pyodide (an explorable's figure), as the
        reader's worker calls it; a successful answer is cached."""
        key = call_key(module, function, kwargs, content_sha, self.staged.cells_key)
        cached = self.cache.get(key)
        if cached is not None:
            self.figures_cached += 1
            return cached
        try:
            answer = self._runner_for_build().call(module, function, kwargs, imports, self.settings.cell_timeout)
        except RunnerError as exc:
            raise LessonError(f"{page.src}: {module}.{function} could not run: {exc}") from exc
        self.figures_drawn += 1
        if answer["ok"]:
            self.cache.put(key, answer)
        return answer

    # -- the built site -------------------------------------------------------------------
    def site_settings_module(self) -> str:
        """Settings the front end reads (assets/pathshala/site.js)."""
        return ("// Written by the py_lessons plugin at build time.\n"
                f'export const storageNamespace = "{self.storage_namespace}";\n'
                f'export const pyodidePath = "{self.settings.pyodide_url.strip("/")}";\n'
                # the service worker (offline.js) also makes the page cross-origin isolated
                f'export const offline = {"true" if self.offline else "false"};\n')

    def write_site(self, site_dir: Path) -> None:
        site_dir = Path(site_dir)
        assets = site_dir / ASSETS_URL
        shutil.copytree(ASSETS, assets, dirs_exist_ok=True)
        (assets / "site.js").write_text(self.site_settings_module(), encoding="utf-8")
        for files in self.lesson_files.values():  # beside each lesson, for its download links
            folder = site_dir / files.folder
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{files.name}.ipynb").write_text(files.notebook, encoding="utf-8")
            (folder / f"{files.name}.py").write_text(files.python, encoding="utf-8")
        target = site_dir / self.settings.pyodide_url
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.staged.path, target)
        try:
            write_vendor_assets(site_dir, self.node_modules, self.cache_dir / "vendor")
        except VendorError as exc:
            raise LessonError(str(exc)) from exc
        # the icons are drawn with the TrueType copy of the Bangla font staged for matplotlib
        write_app(site_dir, self.settings.app, self.staged.path / "fonts" / PLOT_FONT[0])
        if self.offline:
            self._write_service_worker(site_dir)
        if not self.serving:  # `serve` sends files as they are: gzip copies would only slow every rebuild
            packed = precompress(site_dir)  # last: it covers every file written above, sw.js too
            log.info("py_lessons: gzip copies of %d files, %.1f MB -> %.1f MB", packed["files"],
                     packed["bytes"] / 1e6, packed["gzip_bytes"] / 1e6)
        log.info("py_lessons: %d cells run, %d from cache", self.cells_run, self.cells_cached)
        if self.figures_drawn or self.figures_cached:
            log.info("py_lessons: %d explorable figures drawn, %d from cache", self.figures_drawn, self.figures_cached)
        if self.serving:
            log.info("py_lessons: serving: %d pages prepared, %d unchanged pages reused", self.pages_prepared,
                     self.pages_reused)
            self._warm_up()

    def _write_service_worker(self, site_dir: Path) -> None:
        """Last step of the build: it lists every file the site now has (see node/make_sw.mjs)."""
        done = subprocess.run(["node", str(MAKE_SERVICE_WORKER), str(site_dir), self.storage_namespace,
                               str(self.node_modules)], capture_output=True, text=True, cwd=self.settings.root)
        if done.returncode != 0:
            raise LessonError(f"py_lessons: the service worker could not be written:\n{done.stderr[-2000:]}")
        log.info("py_lessons: service worker precaches %s", done.stdout.strip())

    def _warm_up(self) -> None:
        """Serving: start Pyodide under Node.js in the background once the site is written, so that
        the author's first edit of a cell does not wait for it."""
        if self._runner is not None or self._warming is not None:
            return

        def start(runner: PyodideRunner) -> None:
            try:
                runner.run("pass", None, "warm-up", self.settings.cell_timeout)
            except (RunnerError, OSError):
                runner.close()  # the first cell that runs starts it again, and reports why it fails
                return
            self._runner = runner
            log.info("py_lessons: serving: Pyodide under Node.js is started for the next edited cell")

        self._warming = threading.Thread(target=start, args=(PyodideRunner(self.staged.path),), daemon=True)
        self._warming.start()

    def close(self) -> None:
        if self._warming is not None:
            self._warming.join()
            self._warming = None
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
