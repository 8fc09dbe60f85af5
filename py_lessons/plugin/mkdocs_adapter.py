"""The MkDocs plugin ``py_lessons``: a thin adapter from MkDocs' hooks to the lesson engine.

The only module that imports MkDocs; another site generator needs only another such file.
In a course's mkdocs.yml (theme: material):

    plugins:
      - search
      - py_lessons:
          packages: [numpy, matplotlib]   # what cells may import (and their dependencies)

The plugin adds its own stylesheets, scripts and superfences fences; the course lists none. Its
options are config.py's table, turned into MkDocs' config class here.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from pymdownx.superfences import SuperFencesException

from ..host.policy import ISOLATION_HEADERS
from .base.errors import LessonError
from .config import OPTIONS, Option, Settings
from .engine import LessonEngine
from .ship.writer import SCRIPTS, STYLESHEET

log = logging.getLogger("mkdocs.plugins.py_lessons")


def _mkdocs_option(option: Option):
    if option.choices:
        return c.Choice(option.choices, default=option.default)
    if option.items is not None:
        return c.ListOfItems(c.Type(option.items), default=list(option.default))
    if option.default is None:
        return c.Optional(c.Type(option.type))
    return c.Type(option.type, default=option.default)


LessonsConfig = type("LessonsConfig", (Config,), {option.name: _mkdocs_option(option) for option in OPTIONS})


class LessonsPlugin(BasePlugin[LessonsConfig]):
    def __init__(self):
        self.engine: LessonEngine | None = None
        self.serving = False
        self.page_urls: list[str] = []
        self.site_dir: Path | None = None  # where a good build goes; it builds beside it first

    def on_startup(self, *, command, dirty):
        self.serving = command == "serve"

    def on_config(self, config):
        settings = Settings(
            root=Path(config.config_file_path).resolve().parent, docs_dir=Path(config.docs_dir),
            site_name=config.site_name, site_url=config.site_url or "",
            site_description=config.site_description or "", language=config.theme.get("language") or "en",
            **{option.name: _value(self.config[option.name]) for option in OPTIONS})
        if self.engine is None or not self.engine.is_current(settings):  # `serve` keeps a current one
            if self.engine is not None:
                self.engine.close()
                self.engine = None
            try:
                self.engine = LessonEngine(settings, serving=self.serving)
            except LessonError as exc:
                raise PluginError(str(exc)) from exc
        if not self.serving:
            # The theme empties site_dir before anything can fail: a course hosted from it would
            # answer 404 until the next good build. So the build writes beside it, and a good
            # build takes its place (_swap_in); a failed one leaves the last good site as it was.
            self.site_dir = Path(config.site_dir)
            config.site_dir = str(_building(self.site_dir))
        if settings.offline:
            _keep_on_origin(config)
        if "pymdownx.superfences" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.superfences")
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        fences.extend({"name": kind, "class": kind, "format": self._formatter(kind), "validator": _keep_options}
                      for kind in self.engine.fence_kinds)
        if STYLESHEET not in config.extra_css:
            config.extra_css.append(STYLESHEET)
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
        for path in self.engine.modules.values():
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
        return self.engine.finish_document(page.url, self.page_urls, output)

    def on_serve(self, server, config, builder):
        """The author's server isolates the page as a host that follows README's advice does, so
        input() and a Stop that keeps variables work under `serve` too (it has no service worker)."""
        app = server.get_app()

        def isolated(environ, start_response):
            def start(status, headers, exc_info=None):
                return start_response(status, [*headers, *ISOLATION_HEADERS], exc_info)
            return app(environ, start)

        server.set_app(isolated)
        return server

    def _write_site(self, config):
        try:
            self.engine.write_site(Path(config.site_dir), config.use_directory_urls)
        except LessonError as exc:
            raise PluginError(str(exc)) from exc

    @event_priority(-100)  # after every plugin's post_build (search writes its index there)
    def _swap_in(self, config):
        if self.site_dir is None:
            return
        built, old = Path(config.site_dir), self.site_dir.with_name(self.site_dir.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if self.site_dir.exists():
            self.site_dir.rename(old)
        built.rename(self.site_dir)
        shutil.rmtree(old, ignore_errors=True)
        config.site_dir = str(self.site_dir)

    on_post_build = CombinedEvent(_write_site, _swap_in)

    def on_build_error(self, *, error):
        if self.site_dir is not None:
            shutil.rmtree(_building(self.site_dir), ignore_errors=True)

    def on_shutdown(self):
        if self.engine is not None:
            self.engine.close()


def _building(site_dir: Path) -> Path:
    return site_dir.with_name(site_dir.name + ".building")


def _value(value):
    return tuple(value) if isinstance(value, list) else value


def _keep_on_origin(config) -> None:
    """``offline: true`` promises a site that requests nothing off its origin: what the theme would
    fetch from elsewhere is turned off, and the build says so."""
    theme = config.theme
    if theme.name == "material" and theme.get("font") is not False:
        theme["font"] = False
        log.info("py_lessons: offline: the theme's Google Fonts are turned off (theme.font: false); pages use "
                 "the system's fonts, and the plugin's Bangla font for Bangla text and code")
    extra = config.extra or {}
    if extra.get("analytics"):
        extra.pop("analytics")
        log.warning("py_lessons: offline: extra.analytics is removed (it would send every visit off the site)")
    if config.repo_url and theme.name == "material":
        log.warning("py_lessons: offline: the theme fetches the repository's facts (stars, forks) from %s on "
                    "every first visit; remove repo_url to keep the site on its origin", config.repo_url)


def _keep_options(language, inputs, options, attrs, md):
    options.update(inputs)  # ``cell="N"`` / ``block="N"``: which cell or block of the page a fence is
    return True
