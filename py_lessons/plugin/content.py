"""A course's own Python, found by convention: every ``steppers.py`` in the docs folder holds the
worked calculations of the page beside it. Each becomes a module of ``py_lessons_content``, named
after its folder (``lessons/optimization/steppers.py`` -> ``lessons_optimization``): loaded here at
build time, and shipped in the runtime wheel for the reader's Pyodide.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..runtime import steppers

CONVENTION = "steppers.py"


def module_name(relative: Path) -> str:
    folder = relative.parent.as_posix()
    name = re.sub(r"[^0-9a-zA-Z]+", "_", folder).strip("_").lower() if folder != "." else "index"
    return name if name[:1].isalpha() else f"m_{name}"


def find_modules(docs_dir: Path) -> dict[str, Path]:
    """``{module name: file}`` for every ``steppers.py`` under ``docs_dir``."""
    found: dict[str, Path] = {}
    for path in sorted(Path(docs_dir).rglob(CONVENTION)):
        relative = path.relative_to(docs_dir)
        if any(part.startswith(".") for part in relative.parts):
            continue
        found[module_name(relative)] = path
    return found


def load(modules: dict[str, Path]) -> None:
    """Register the modules' steppers (a module that fails to import is the author's error)."""
    steppers.load_content({name: str(path) for name, path in modules.items()})
