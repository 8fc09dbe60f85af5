"""The Bangla font the plugin writes with: text in the page (the npm package's WOFF2 faces),
figure labels (a TrueType copy that matplotlib measures with, in the build's Pyodide and for run
charts), and the app's icons."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from . import dependencies
from .layout import VENDOR_URL

FONT_PACKAGE = "@fontsource/noto-sans-bengali"
FONT_WEIGHTS = ("400", "700")
FONT_SUBSETS = ("bengali", "latin", "latin-ext")
FONT_FOLDER = "noto-sans-bengali"  # under VENDOR_URL: the package's CSS and its files/ (ship/vendor.py)


def face_file(subset: str, weight: str, ext: str = "woff2") -> str:
    """The name the font package gives one face's file."""
    return f"noto-sans-bengali-{subset}-{weight}-normal.{ext}"


# Preloaded by every page (ship/writer.py head_tags): the body text's faces. Found only once the
# stylesheet is parsed, they arrived after the first paint, and the Bangla text reflowed (CLS 0.2-0.3).
PRELOADED_FONTS = tuple(f"{VENDOR_URL}/{FONT_FOLDER}/files/{face_file(subset, weight)}"
                        for subset, weight in (("bengali", "400"), ("bengali", "700"), ("latin", "400")))
# The woff (not woff2) of the Bengali subset becomes the TrueType font matplotlib measures with.
PLOT_FONT = ("NotoSansBengali-Regular.ttf", "files/" + face_file("bengali", "400", "woff"))


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


# The formulas' font (render/math.py writes MathML): Noto Sans Math, which has the OpenType MATH
# table MathML layout needs (stretchy brackets, radicals, fraction rules, big operators), is a
# sans like the body text, and comes from npm. Fontsource's file is the whole font (270 KB); the
# site ships the characters its formulas use, within the range below (letters, digits, Greek,
# operators, arrows), with their stretch variants, and every italic letter.
MATH_FONT_PACKAGE = "@fontsource/noto-sans-math"
MATH_FONT_FILE = "files/noto-sans-math-latin-400-normal.woff2"
MATH_FONT_FAMILY = "Pathshala Math"
MATH_CODE_POINTS = ((0x20, 0x7E), (0xA0, 0xFF), (0x131, 0x131), (0x237, 0x237), (0x391, 0x3A9), (0x3B1, 0x3C9),
                    (0x3D1, 0x3D1), (0x3D5, 0x3D6), (0x3F0, 0x3F1), (0x3F5, 0x3F5), (0x2010, 0x2044),
                    (0x2100, 0x214F), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2308, 0x230B), (0x23B4, 0x23B5),
                    (0x23DC, 0x23E1), (0x27E8, 0x27E9),
                    (0x1D434, 0x1D467), (0x1D6A4, 0x1D6A5), (0x1D6E2, 0x1D71B))  # italic Latin, ı ȷ, Greek
# What MathML Core draws that a formula's text does not hold: a one-letter <mi> in the letter's
# mathematical italic (text-transform: math-auto; every italic letter stays, about 4 KB), and the
# radical sign of <msqrt>/<mroot>.
MATHML_DRAWN = ((0x210E, 0x210E), (0x221A, 0x221A), (0x1D434, 0x1D467), (0x1D6A4, 0x1D6A5), (0x1D6E2, 0x1D71B))


def math_font_code_points(formula_text: str) -> list[int]:
    """What the site's math font keeps: the characters of its formulas (``formula_text``) and what
    MathML draws itself, where MATH_CODE_POINTS has them. Cut to this course's formulas, the font
    is about 20 KB instead of 69: every reader of a lesson with a formula downloads it."""
    wanted = set(map(ord, formula_text)) | {code for first, last in MATHML_DRAWN for code in range(first, last + 1)}
    return sorted(code for code in wanted if any(first <= code <= last for first, last in MATH_CODE_POINTS))


def subset_math_font(woff2: Path, out: Path, code_points: list[int]) -> None:
    """The math font cut to ``code_points``, keeping every layout feature and the MATH table."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]  # the licence and the font's names stay in the file
    options.notdef_outline = True
    font = TTFont(woff2, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=code_points)
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(out)
