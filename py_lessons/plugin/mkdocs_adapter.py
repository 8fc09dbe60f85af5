"""The MkDocs plugin ``py_lessons``: a thin adapter from MkDocs' hooks to the lesson engine.

The only module that imports MkDocs; another site generator needs only another such file.
In a course's mkdocs.yml (theme: material):

    plugins:
      - search
      - py_lessons:
          packages: [numpy, matplotlib]   # what cells may import (and their dependencies)

The plugin adds its own stylesheets, scripts and superfences fences; the course lists none.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from pymdownx.superfences import SuperFencesException

from .app_manifest import AppManifest
from .engine import HEAD_SCRIPT, SCRIPTS, STYLESHEETS, LessonEngine, Settings
from .page import LessonError
from .vendor import PRELOADED_FONTS


class LessonsConfig(Config):
    packages = c.ListOfItems(c.Type(str), default=["numpy", "matplotlib"])
    cache_dir = c.Type(str, default=".cache/py_lessons")
    cell_timeout = c.Type((int, float), default=120)
    pyodide_url = c.Type(str, default="pyodide")           # folder of the staged Pyodide in the site
    runs_dir = c.Type(str, default="gpu_runs/results")     # run results quoted by pages (JSON)
    offline = c.Type(bool, default=True)                   # a service worker precaches the whole site
    bytecode = c.Type(bool, default=True)                  # wheels as CPython bytecode: faster imports in the page
    startup_snapshot = c.Type(bool, default=True)          # ship Python's start-up snapshot, made at build
    pyodide_release = c.Optional(c.Type(str))              # an official Pyodide release folder instead
    node_modules = c.Optional(c.Type(str))                 # the plugin's npm packages, if not its own
    term_check = c.Choice(("error", "warn"), default="error")  # prose checks (terms.py): stop the build, or log
    # the installable app (manifest.webmanifest): names default to site_name, colours to the theme's indigo
    app_name = c.Optional(c.Type(str))
    app_short_name = c.Optional(c.Type(str))               # under the icon: about 12 characters fit
    app_icon_text = c.Optional(c.Type(str))                # drawn on the icon (default: the short name's first letter)
    theme_color = c.Optional(c.Type(str))                  # the browser's title bar, light scheme
    theme_color_dark = c.Optional(c.Type(str))             # and dark scheme


class LessonsPlugin(BasePlugin[LessonsConfig]):
    def __init__(self):
        self.engine: LessonEngine | None = None
        self.serving = False
        self.page_urls: list[str] = []

    def on_startup(self, *, command, dirty):
        self.serving = command == "serve"

    def on_config(self, config):
        settings = Settings(
            root=Path(config.config_file_path).resolve().parent, docs_dir=Path(config.docs_dir),
            site_name=config.site_name, site_url=config.site_url or "", packages=list(self.config.packages),
            cache_dir=self.config.cache_dir, cell_timeout=self.config.cell_timeout,
            pyodide_url=self.config.pyodide_url, runs_dir=self.config.runs_dir, offline=self.config.offline,
            bytecode=self.config.bytecode, startup_snapshot=self.config.startup_snapshot,
            pyodide_release=self.config.pyodide_release, node_modules=self.config.node_modules,
            term_check=self.config.term_check,
            app=AppManifest.for_site(
                config.site_name, description=config.site_description or "",
                language=config.theme.get("language") or "en", name=self.config.app_name,
                short_name=self.config.app_short_name, icon_text=self.config.app_icon_text,
                theme_color=self.config.theme_color, theme_color_dark=self.config.theme_color_dark))
        if self.engine is None or not self.engine.is_current(settings):  # `serve` keeps a current one
            if self.engine is not None:
                self.engine.close()
                self.engine = None
            try:
                self.engine = LessonEngine(settings, serving=self.serving)
            except LessonError as exc:
                raise PluginError(str(exc)) from exc
        if "pymdownx.superfences" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.superfences")
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        fences.extend({"name": kind, "class": kind, "format": self._formatter(kind), "validator": _keep_options}
                      for kind in self.engine.fence_kinds)
        for path in STYLESHEETS:
            if path not in config.extra_css:
                config.extra_css.append(path)
        listed = {str(script) for script in config.extra_javascript}
        for path in SCRIPTS:
            if path not in listed:
                config.extra_javascript.append(c.ExtraScriptValue(path))
                config.extra_javascript[-1].type = "module"
        return config

    def _formatter(self, kind):
        def format_fence(source, language, css_class, options, md, **kwargs):
            try:
                return self.engine.render_fence(kind, source, options)
            except LessonError as exc:  # superfences would swallow anything else silently
                raise SuperFencesException(str(exc)) from exc
        return format_fence

    def on_files(self, files, config):
        """The course's steppers.py modules are build inputs, not pages or assets of the site."""
        for path in self.engine.content.values():
            file = files.get_file_from_path(path.relative_to(config.docs_dir).as_posix())
            if file is not None:
                files.remove(file)
        return files

    def on_nav(self, nav, config, files):
        self.page_urls = [file.page.url for file in files.documentation_pages() if file.page is not None]
        pages = []
        for page in nav.pages:
            try:
                pages.append((page.file.src_uri, page.url, page.file.content_string))
            except (OSError, UnicodeDecodeError):
                continue
        self.engine.set_pages(pages)
        return nav

    def on_page_markdown(self, markdown, page, config, files):
        try:
            return self.engine.prepare_page(markdown, page.file.src_uri, page.url, page.meta)
        except LessonError as exc:
            raise PluginError(str(exc)) from exc

    def on_page_content(self, html, page, config, files):
        try:
            return self.engine.finish_page(html, page.file.use_directory_urls, page.toc)
        except LessonError as exc:
            raise PluginError(str(exc)) from exc

    def on_post_page(self, output, page, config):
        """Instant navigation without a site_url: the page lists the site's pages for the theme.
        The body text's font faces, preloaded. And the installable app: the manifest, theme
        colours and the Apple icon."""
        pages = self.page_urls
        root = "../" * (page.url.count("/") if page.url else 0)
        fonts = "".join(f'<link rel="preload" href="{root}{font}" as="font" type="font/woff2" crossorigin>'
                        for font in PRELOADED_FONTS)
        tag = (f'<script src="{root}{HEAD_SCRIPT}" data-pages="'
               + _attribute_json(pages) + '"></script>' + fonts + self.engine.settings.app.head_tags(root))
        return re.sub(r"(<head[^>]*>)", lambda m: m.group(1) + tag, output, count=1)

    def on_post_build(self, config):
        try:
            self.engine.write_site(Path(config.site_dir))
        except LessonError as exc:
            raise PluginError(str(exc)) from exc

    def on_shutdown(self):
        if self.engine is not None:
            self.engine.close()


def _keep_options(language, inputs, options, attrs, md):
    options.update(inputs)  # ``cell="N"``: which of the page's cells a pycell fence is
    return True


def _attribute_json(values) -> str:
    return html.escape(json.dumps(values), quote=True)
