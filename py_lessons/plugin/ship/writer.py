"""The built site's own files, written after the pages: the plugin's front end and the settings it
reads (``assets/pathshala/site.js``), each lesson's notebook and .py, the staged Pyodide, the
vendor files, the installable app, the service worker (last but one: it lists every file) and
the gzip copies (last: they cover every file, sw.js too). Also what every page's <head> gets.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import posixpath
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..base import dependencies
from ..base.errors import LessonError
from ..base.fonts import PLOT_FONT, PRELOADED_FONTS
from ..base.layout import ASSETS_URL, FIGURES_URL, VENDOR_URL, SiteLayout
from .app_manifest import AppManifest, write_app
from .precompress import precompress
from .vendor import VendorError, write_vendor_assets

log = logging.getLogger("mkdocs.plugins.py_lessons")

ASSETS = Path(__file__).parents[1] / "assets"          # the plugin's front end
WORK_SCHEMA = Path(__file__).parents[1] / "schemas" / "work-export.schema.json"
MAKE_SERVICE_WORKER = Path(__file__).parent / "node" / "make_sw.mjs"

# What every page that uses the plugin loads (relative to the site root). Its stylesheet is one
# file: the vendored fonts' faces, then the rules of STYLE_PARTS (assets/css/NAME.css) in this
# order. Seven files cost a phone on a slow link a round trip each before its first paint.
STYLESHEET = f"{ASSETS_URL}/css/pathshala.css"
STYLE_PARTS = ("cells", "runs", "components", "offline", "print")
SCRIPTS = tuple(f"{ASSETS_URL}/{name}" for name in ("site/deferred.js", "cells/index.js", "site/offline.js",
                                                    "site/a11y.js", "components/index.js", "cells/download.js",
                                                    "site/lan-notice.js", "site/save-notice.js", "site/search.js",
                                                    "site/figures.js", "site/sections.js",
                                                    "site/lesson-print.js", "site/fonts.js"))
HEAD_SCRIPT = f"{ASSETS_URL}/site/theme-requests.js"  # the sitemap and the search index, as this course needs them
PYTHON_WORKER = f"{ASSETS_URL}/python/worker.js"
# The names a Python worker started from a page's <head> is given (python/protocol.js EARLY_START:
# the same strings, checked by a test): it starts Python at once, the way input() needs when a cell
# of the page calls it (``reads-input``).
EARLY_START = {"start": "python-early", "reads_input": "python-early reads-input"}
# The same pattern as python/worker.js usesInput: the early worker must choose what a late one would.
CALLS_INPUT = re.compile(r"\binput\s*\(")
# The theme's palette sets this on <body> while it applies the reader's colours at load (its rule
# under it, "[data-md-color-switching] *", turns transitions off) and removes it a task later. Each
# change restyles the whole page (the rule ends in "*"); set from the start, the theme's own setting
# changes nothing, and its first task restyles the page once less (issue 23).
PALETTE_SWITCHING = "data-md-color-switching"


def early_python(root: str, codes: list[str]) -> str:
    """A classic script for the top of a page with cells: Python's worker is started while the page
    is still being read, so its downloads begin then. Measured under the phone profile (4x slower
    main thread, 20 Mbit/s), the page's module scripts spawned it 1.7 s after the page opened, with
    the link idle until then. The page's cells/python-worker.js takes this worker on (once) with
    the messages it sent meanwhile. Not where the reader asked the browser to save data (offline.js
    saveData): there Python starts only when the reader reaches for a cell."""
    name = EARLY_START["reads_input" if any(CALLS_INPUT.search(code) for code in codes) else "start"]
    url = json.dumps(root + PYTHON_WORKER)
    return ("<script>if(!navigator.connection?.saveData&&!self.pathshalaEarlyPython){"
            f'const worker=new Worker(new URL({url},location.href),{{type:"module",name:"{name}"}}),queued=[];'
            "worker.onmessage=worker.onerror=(event)=>queued.push(event);"
            "self.pathshalaEarlyPython={worker,queued}}</script>")


def storage_namespace(site_name: str, site_url: str) -> str:
    """localStorage keys start with this, so two sites on one host never collide."""
    digest = hashlib.sha256(f"{site_url or ''}\n{site_name}".encode("utf-8")).hexdigest()[:10]
    return f"pathshala-{digest}"


def work_file_format() -> dict:
    """What "my work" files are (schemas/work-export.schema.json), for the page's reader of them."""
    schema = json.loads(WORK_SCHEMA.read_text(encoding="utf-8"))
    properties = schema["properties"]
    return {"format": properties["format"]["const"], "version": properties["version"]["const"],
            "keyPattern": properties["items"]["items"]["properties"]["key"]["pattern"]}


@dataclass
class SiteWriter:
    site_name: str
    namespace: str
    layout: SiteLayout
    node_modules: Path
    vendor_cache: Path
    app: AppManifest
    offline: bool                    # a service worker (not under serve)
    precompressed: bool              # gzip copies (not under serve: they would only slow every rebuild)
    component_scripts: dict[str, str]

    def settings_module(self) -> str:
        """Settings the front end reads (assets/pathshala/site.js)."""
        values = {
            "storageNamespace": self.namespace,
            # written into "my work" files, so one brought to the wrong course can say whose it is
            "courseName": self.site_name,
            "pyodidePath": self.layout.pyodide,
            "runsPage": self.layout.runs_page,
            # the service worker (offline.js) also makes the page cross-origin isolated
            "offline": self.offline,
            "componentScripts": self.component_scripts,
            "workFile": work_file_format(),
        }
        lines = [f"export const {name} = {json.dumps(value, ensure_ascii=False)};" for name, value in values.items()]
        return ("// Written by the py_lessons plugin at build time (ship/writer.py).\n"
                "/** The site's root: this file lives in <root>/" + ASSETS_URL + "/. */\n"
                f'export const siteRoot = new URL("{"../" * ASSETS_URL.count("/")}../", import.meta.url);\n'
                + "\n".join(lines) + "\n")

    def head_tags(self, page_url: str, page_urls: list[str], python_codes: list[str] | None = None) -> str:
        """What a page's <head> gets: Python's early start where the page has cells (``python_codes``:
        their code; None: no cells), the page list for instant navigation without a site_url, the
        body text's font faces preloaded, and the installable app's manifest, colours and icon."""
        root = "../" * (page_url.count("/") if page_url else 0)
        early = "" if python_codes is None else early_python(root, python_codes)
        fonts = "".join(f'<link rel="preload" href="{root}{font}" as="font" type="font/woff2" crossorigin>'
                        for font in PRELOADED_FONTS)
        pages = html.escape(json.dumps(page_urls), quote=True)
        return (early + f'<script src="{root}{HEAD_SCRIPT}" data-pages="{pages}"></script>' + fonts
                + self.app.head_tags(root))

    @staticmethod
    def finish_document(page_html: str, head_tags: str) -> str:
        """The whole page with ``head_tags`` first in its <head>, and its <body> already marked as
        the theme's palette marks it at load."""
        page_html = re.sub(r"(<head[^>]*>)", lambda match: match.group(1) + head_tags, page_html, count=1)
        return re.sub(r"<body\b", f"<body {PALETTE_SWITCHING}", page_html, count=1)

    def write(self, site_dir: Path, staged_dir: Path, lesson_files, figures: dict[str, str], formula_text: str) -> None:
        """``figures``: the build's figures that the pages set aside (render/figure_files.py);
        ``formula_text``: the characters of its formulas (the math font is cut to them)."""
        site_dir = Path(site_dir)
        assets = site_dir / ASSETS_URL
        parts = {f"{name}.css" for name in STYLE_PARTS}  # they go into STYLESHEET, not beside it
        shutil.copytree(ASSETS, assets, dirs_exist_ok=True,
                        ignore=lambda folder, names: [name for name in names if Path(folder).name == "css" and name in parts])
        (assets / "site.js").write_text(self.settings_module(), encoding="utf-8")
        figures_folder = site_dir / FIGURES_URL
        shutil.rmtree(figures_folder, ignore_errors=True)  # only this build's (under `serve` the folder stays)
        figures_folder.mkdir(parents=True)
        for name, svg in figures.items():
            (figures_folder / name).write_text(svg, encoding="utf-8")
        for files in lesson_files:  # beside each lesson, for its download links
            folder = site_dir / files.folder
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{files.name}.ipynb").write_text(files.notebook, encoding="utf-8")
            (folder / f"{files.name}.py").write_text(files.python, encoding="utf-8")
        target = site_dir / self.layout.pyodide
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(staged_dir, target)
        stylesheet = site_dir / STYLESHEET
        to_vendor = posixpath.relpath(VENDOR_URL, posixpath.dirname(STYLESHEET)) + "/"
        try:
            faces = write_vendor_assets(site_dir, self.node_modules, self.vendor_cache, formula_text, to_vendor)
        except VendorError as exc:
            raise LessonError(str(exc)) from exc
        stylesheet.write_text("\n".join([faces, *((ASSETS / "css" / f"{name}.css").read_text(encoding="utf-8")
                                                  for name in STYLE_PARTS)]), encoding="utf-8")
        # the icons are drawn with the TrueType copy of the Bangla font staged for matplotlib
        write_app(site_dir, self.app, staged_dir / "fonts" / PLOT_FONT[0])
        if self.offline:
            self._service_worker(site_dir)
        if self.precompressed:
            # last: it covers every file written above, sw.js too
            packed = precompress(site_dir, dependencies.user_cache() / "gzip")
            log.info("py_lessons: gzip copies of %d files, %.1f MB -> %.1f MB (brotli where smaller: %.1f MB)",
                     packed["files"], packed["bytes"] / 1e6, packed["gzip_bytes"] / 1e6, packed["br_bytes"] / 1e6)

    def _service_worker(self, site_dir: Path) -> None:
        """It lists every file the site now has (see node/make_sw.mjs)."""
        done = subprocess.run(["node", str(MAKE_SERVICE_WORKER), str(site_dir), self.namespace,
                               str(self.node_modules)], capture_output=True, text=True)
        if done.returncode != 0:
            raise LessonError(f"py_lessons: the service worker could not be written:\n{done.stderr[-2000:]}")
        log.info("py_lessons: service worker precaches %s", done.stdout.strip())
