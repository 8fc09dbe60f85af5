"""The plugin's options, declared once. The MkDocs adapter's config class is generated from
:data:`OPTIONS` (mkdocs_adapter.py), and the engine reads the same names from :class:`Settings`,
which adds what the site generator knows (folders, the site's name and language).

A course's mkdocs.yml sets any of them under ``plugins: - py_lessons:``; README.md lists them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .base.layout import SiteLayout


@dataclass(frozen=True)
class Option:
    name: str
    type: type | tuple[type, ...]
    default: Any                      # None: optional, no default
    help: str
    choices: tuple[str, ...] = ()
    items: type | None = None         # a list of this type


OPTIONS: tuple[Option, ...] = (
    Option("packages", list, ("numpy", "matplotlib"), "what cells may import (with their dependencies)", items=str),
    Option("cache_dir", str, ".cache/py_lessons", "cell results and the staged Pyodide, beside mkdocs.yml"),
    Option("cell_timeout", (int, float), 120, "seconds a cell may run at build"),
    Option("pyodide_url", str, "pyodide", "folder of the staged Pyodide inside the site"),
    Option("runs_dir", str, "gpu_runs/results", "the run results pages quote (gpu_runs JSON)"),
    Option("offline", bool, True, "a service worker precaches the whole site and makes it cross-origin isolated"),
    Option("bytecode", bool, True, "wheels shipped as CPython bytecode: faster imports in the page"),
    Option("startup_snapshot", bool, True, "ship Python's start-up snapshot, made at build"),
    Option("pyodide_release", str, None, "an official Pyodide release folder instead of npm's package + the carrier"),
    Option("node_modules", str, None, "a folder with the plugin's npm packages already installed"),
    Option("term_check", str, "error", "the prose checks: stop the build, or log", choices=("error", "warn")),
    # the installable app (manifest.webmanifest): names default to site_name, colours to the theme's indigo
    Option("app_name", str, None, "the installed app's name"),
    Option("app_short_name", str, None, "under the icon: about 12 characters fit"),
    Option("app_icon_text", str, None, "drawn on the icon (default: the short name's first letter)"),
    Option("theme_color", str, None, "the browser's title bar, light scheme"),
    Option("theme_color_dark", str, None, "the browser's title bar, dark scheme"),
    # where the course keeps what the plugin links to (base/layout.py)
    Option("lessons_folder", str, SiteLayout.lessons_folder, "a page here with a `complete` block is a lesson"),
    Option("runs_page", str, SiteLayout.runs_page, "the page that lists every real run"),
    Option("glossary_file", str, SiteLayout.glossary_file, "the course's terms, in the docs folder"),
    Option("glossary_page", str, SiteLayout.glossary_page, "the page that shows every term"),
)


def _field(option: Option):
    default = tuple(option.default) if isinstance(option.default, (list, tuple)) else option.default
    return option.name, Any, dataclasses.field(default=default)


# What the site generator knows, then one field per option.
Settings = dataclasses.make_dataclass(
    "Settings",
    [("root", Path), ("docs_dir", Path), ("site_name", str),
     ("site_url", str, dataclasses.field(default="")), ("site_description", str, dataclasses.field(default="")),
     ("language", str, dataclasses.field(default="en")),
     *(_field(option) for option in OPTIONS)],
    frozen=True,
    namespace={
        "__doc__": "The engine's settings: the site's folders and name, and every option of OPTIONS.",
        "layout": property(lambda self: SiteLayout(self.lessons_folder, self.runs_page, self.glossary_file,
                                                   self.glossary_page, self.pyodide_url.strip("/"))),
    },
)
Settings.__module__ = __name__
