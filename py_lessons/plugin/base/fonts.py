"""The Bangla font the plugin writes with: text in the page (the npm package's WOFF2 faces),
figure labels (a TrueType copy that matplotlib measures with, in the build's Pyodide and for run
charts), and the app's icons."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from . import dependencies

FONT_PACKAGE = "@fontsource/noto-sans-bengali"
FONT_WEIGHTS = ("400", "700")
FONT_SUBSETS = ("bengali", "latin", "latin-ext")
# Preloaded by every page (mkdocs_adapter.on_post_page): the body text's faces. Found only once the
# stylesheet is parsed, they arrived after the first paint, and the Bangla text reflowed (CLS 0.2-0.3).
PRELOADED_FONTS = tuple(f"assets/vendor/noto-sans-bengali/files/noto-sans-bengali-{subset}-{weight}-normal.woff2"
                        for subset, weight in (("bengali", "400"), ("bengali", "700"), ("latin", "400")))
# The woff (not woff2) of the Bengali subset becomes the TrueType font matplotlib measures with.
PLOT_FONT = ("NotoSansBengali-Regular.ttf", "files/noto-sans-bengali-bengali-400-normal.woff")


def plot_fonts(node_modules: Path) -> dict[str, Path]:
    """TrueType file name -> the npm WOFF it is made from."""
    return {PLOT_FONT[0]: node_modules / FONT_PACKAGE / PLOT_FONT[1]}


def convert_font(woff: Path, ttf: Path) -> None:
    """matplotlib (FreeType) reads TrueType, npm's font package ships WOFF: convert (keeping the
    font's own modification time, so the same WOFF always gives the same bytes)."""
    from fontTools.ttLib import TTFont

    font = TTFont(woff, recalcTimestamp=False)
    font.flavor = None
    font.save(ttf)


@cache
def plot_font_file() -> Path:
    """The TrueType Bangla font as a file on this machine, made from the same npm WOFF as the
    staged copy (this FreeType cannot read WOFF either); converted once per machine."""
    woff = plot_fonts(dependencies.node_modules())[PLOT_FONT[0]]
    ttf = dependencies.user_cache() / "fonts" / hashlib.sha256(woff.read_bytes()).hexdigest()[:16] / PLOT_FONT[0]
    if not ttf.is_file():
        ttf.parent.mkdir(parents=True, exist_ok=True)
        part = ttf.with_name(f"{ttf.name}.{os.getpid()}.part")
        convert_font(woff, part)
        os.replace(part, ttf)
    return ttf
