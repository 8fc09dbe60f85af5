"""matplotlib's Bangla font: where the font files go in Pyodide's file system, and the font list
made once (at build) so that no start rescans fonts.

Standard library only, and no import of the rest of py_lessons: the build runs this file by
itself inside the staged Pyodide to make the font list (py_lessons/plugin/ship/node/
make_font_cache.mjs), before the runtime wheel exists.
"""

from __future__ import annotations

import importlib.util
import os

FONT_DIR = "/pathshala/fonts"
BANGLA_FONT_FAMILY = "Noto Sans Bengali"


def font_cache_path() -> str:
    # Pyodide's matplotlib keeps its font list beside font_manager.py (upstream: in MPLCONFIGDIR).
    # find_spec locates the installed package without importing it.
    spec = importlib.util.find_spec("matplotlib")
    return os.path.join(os.path.dirname(spec.origin), "fontlist.json")


def install_font_cache(text: str) -> None:
    """Put a font list made by :func:`build_font_cache` in place; call after matplotlib is
    installed and before it is imported, so matplotlib never rescans fonts (seconds, plus a notice
    printed into the first plotting cell's output)."""
    with open(font_cache_path(), "w", encoding="utf-8") as cache:
        cache.write(text)


def build_font_cache() -> str:
    """Make matplotlib's font list with the fonts in FONT_DIR added; return its JSON text."""
    from matplotlib import font_manager

    for name in sorted(os.listdir(FONT_DIR)) if os.path.isdir(FONT_DIR) else []:
        font_manager.fontManager.addfont(os.path.join(FONT_DIR, name))
    font_manager.json_dump(font_manager.fontManager, font_cache_path())
    with open(font_cache_path(), encoding="utf-8") as cache:
        return cache.read()
