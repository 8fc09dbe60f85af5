"""Under `mkdocs serve`: what lets a rebuild redo only what the author's edit changed.

MkDocs builds the whole site again after every save. The engine (its staged Pyodide, its Node
runner with Pyodide started, KaTeX's formulas) is kept while the files it was made from are
unchanged (``input_stamps``), and a page whose Markdown, front matter and inputs are unchanged is
not prepared again (``PreparedPages``): its cells, checks and rendered blocks are reused.
``mkdocs build`` uses neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import runtime
from ..page.lessons import Lesson
from ..page.model import PageModel
from . import course_modules

RUNTIME = Path(runtime.__file__).parent  # staged with the course's modules (ship/runtime_wheel.py)


def input_stamps(docs_dir: Path, runs_dir: Path, glossary_file: str) -> tuple:
    """(path, size, mtime) of every file the engine is made from: the course's modules, the
    glossary, the run results and the runtime staged with them (a missing file counts too)."""
    paths = [*course_modules.find_modules(Path(docs_dir)).values(), Path(docs_dir) / glossary_file,
             *sorted(Path(runs_dir).glob("*.json")),
             *sorted(path for path in RUNTIME.rglob("*") if path.is_file() and "__pycache__" not in path.parts)]
    return tuple(_stamp(path) for path in paths)


def _stamp(path: Path) -> tuple:
    try:
        status = path.stat()
    except OSError:
        return (str(path), None)
    return (str(path), status.st_size, status.st_mtime_ns)


@dataclass
class PreparedPage:
    key: tuple
    page: PageModel
    markdown: str                   # what prepare_page returned
    files: Any                      # its notebook and .py (render/notebook.py), or None
    lessons: list[Lesson] | None    # the lessons its progress block listed; None: it has none


class PreparedPages:
    """The last preparation of each page (by source path), reused while its key and lessons hold."""

    def __init__(self):
        self._pages: dict[str, PreparedPage] = {}

    @staticmethod
    def key(markdown: str, src: str, url: str, meta: dict | None, lesson_count: int | None) -> tuple:
        # the lesson count is in the prose checks; the engine's other inputs are in input_stamps
        return (src, url, markdown, json.dumps(meta or {}, sort_keys=True, default=str), lesson_count)

    def get(self, key: tuple, lessons: list[Lesson]) -> PreparedPage | None:
        kept = self._pages.get(key[0])
        if kept is None or kept.key != key or (kept.lessons is not None and kept.lessons != lessons):
            return None
        return kept

    def put(self, key: tuple, page: PageModel, markdown: str, files: Any, listed: list[Lesson] | None) -> None:
        """``listed``: the lessons the page shows (a progress block), None when it shows none."""
        self._pages[key[0]] = PreparedPage(key, page, markdown, files, None if listed is None else list(listed))
