"""A course's own Python, found by convention: a ``steppers.py`` (worked calculations) or an
``explorables.py`` (figures with sliders) in the docs folder serves the page beside it, and a
``course.py`` holds code that cells import (the course's one small model and data set). Each
becomes a module of ``py_lessons_content``, named after its folder: ``lessons/optimization/
steppers.py`` -> ``lessons_optimization``, ``lessons/optimization/explorables.py`` ->
``lessons_optimization__explorables``, ``course.py`` at the docs root -> ``course`` (a folder's
name never holds "__": runs of other characters become one "_"). Loaded here at build time, and
shipped in the runtime wheel for the reader's Pyodide.
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from pathlib import Path

from ...runtime import content, session

# file name -> what its module name ends with
CONVENTIONS = {"steppers.py": "", "explorables.py": "__explorables", "course.py": "__course"}


def module_name(relative: Path) -> str:
    folder = relative.parent.as_posix()
    if folder == "." and relative.name == "course.py":
        return "course"  # what cells import: ``from py_lessons_content.course import ...``
    name = re.sub(r"[^0-9a-zA-Z]+", "_", folder).strip("_").lower() if folder != "." else "index"
    name = name if name[:1].isalpha() else f"m_{name}"
    return name + CONVENTIONS[relative.name]


def find_modules(docs_dir: Path) -> dict[str, Path]:
    """``{module name: file}`` for every ``steppers.py``, ``explorables.py`` and ``course.py``
    under ``docs_dir``."""
    found: dict[str, Path] = {}
    for convention in CONVENTIONS:
        for path in sorted(Path(docs_dir).rglob(convention)):
            relative = path.relative_to(docs_dir)
            if any(part.startswith(".") for part in relative.parts):
                continue
            found[module_name(relative)] = path
    return dict(sorted(found.items()))


class ContentError(ValueError):
    """A content module the reader's Python could not import; the message starts with file:line."""


def _run_at_import(tree: ast.AST):
    """The statements of a module that run when it is imported (not those inside functions)."""
    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield node
            yield from _run_at_import(node)


def check_imports(path: Path) -> None:
    """The reader's Python imports every content module before it loads any package (a stepper
    needs none), so at import time a module may use only the standard library and py_lessons:
    NumPy or matplotlib are imported inside the function that draws with them."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), str(path))
    for node in _run_at_import(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            if root not in sys.stdlib_module_names and root not in ("__future__", "py_lessons"):
                raise ContentError(f"{path}:{node.lineno}: import {name} inside the function that uses it: the "
                                   f"reader's Python imports this file before it loads any package")


def load(modules: dict[str, Path]) -> None:
    """Register the modules' steppers and explorables (a module that fails to import is the
    author's error)."""
    for path in modules.values():
        check_imports(path)
    content.load_content({name: str(path) for name, path in modules.items()})


def imported_sources(texts: list[str], modules: dict[str, Path]) -> str:
    """A digest of the content modules that ``texts`` (a cell and the session's cells before it)
    name, so that their cached outputs go stale when the module's code changes; "" when none."""
    imported = {full.split(".")[1] for full in session.content_modules_named(texts)}
    named = [name for name in modules if name in imported]
    if not named:
        return ""
    digest = hashlib.sha256()
    for name in named:
        digest.update(name.encode() + b"\0" + modules[name].read_bytes())
    return digest.hexdigest()[:16]
