"""Third-party front-end files the built site serves from its own origin, declared in one table.

Everything comes from npm packages pinned in package.json / package-lock.json (installed by the
setup step); nothing is fetched at run time.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from ..base.fonts import FONT_PACKAGE, FONT_SUBSETS, FONT_WEIGHTS
from ..base.layout import ASSETS_URL, VENDOR_URL
from ..base.strings import as_javascript_module

EDITOR_ENTRY = Path(__file__).parent / "frontend" / "editor.js"

# (npm package, folder inside it, folder under assets/vendor/): copied as they are.
# KaTeX's fonts: formulas are rendered to HTML at build time (render/math.py).
# DOMPurify's ES module (with its license): output.js sanitizes the worker's figures with it.
TREES = [("katex", "dist/fonts", "katex/fonts"),
         ("dompurify", "dist/purify.es.mjs", "dompurify/purify.es.mjs"), ("dompurify", "LICENSE", "dompurify/LICENSE")]
# KaTeX's stylesheet, copied with a font-display in each @font-face, which KaTeX leaves out: the
# browser's default hides a formula's text until its font has arrived (up to 3 s), "swap" shows
# it at once in a fallback font and redraws it when the KaTeX font is there.
KATEX_CSS = ("katex", "dist/katex.min.css", "katex/katex.min.css")
KATEX_FONT_DISPLAY = "swap"


class VendorError(RuntimeError):
    pass


def _bundle_editor(node_modules: Path, cache_dir: Path) -> Path:
    lock = node_modules / ".package-lock.json"  # what npm installed there
    digest = hashlib.sha256(EDITOR_ENTRY.read_bytes() + (lock.read_bytes() if lock.exists() else b""))
    out = cache_dir / f"editor-{digest.hexdigest()[:16]}.js"
    if out.exists():
        return out
    esbuild = node_modules / ".bin" / "esbuild"
    if not esbuild.exists():
        raise VendorError(f"{esbuild} is missing from the plugin's npm packages")
    cache_dir.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(  # NODE_PATH: the entry lives in the plugin, its packages in node_modules
        [str(esbuild), str(EDITOR_ENTRY), "--bundle", "--format=esm", "--minify", "--legal-comments=eof",
         f"--outfile={out}"],
        capture_output=True, text=True, cwd=node_modules.parent, env={**os.environ, "NODE_PATH": str(node_modules)},
    )
    if done.returncode != 0:
        raise VendorError(f"esbuild could not bundle CodeMirror:\n{done.stderr}")
    return out


BENGALI_ALIAS = "Pathshala Bangla"


def _bengali_only_alias(css: str) -> str:
    """The Bengali-subset @font-face again, under a family that covers Bengali code points only.

    Put first in a font stack (code, figures) it draws Bangla and leaves every Latin character to
    the fonts after it. Naming a Bangla font first matters: with <html lang="bn"> Chromium picks
    a locale font for Bengali before walking the rest of the stack, and shows boxes.
    """
    blocks = re.findall(r"/\* [\w-]*-bengali-\d+-normal \*/\s*@font-face\s*\{[^}]*\}", css)
    return "\n".join(block.replace("'Noto Sans Bengali'", f"'{BENGALI_ALIAS}'") for block in blocks)


def with_font_display(css: str, display: str) -> str:
    """``css`` with ``font-display: DISPLAY`` added to each @font-face rule that names none."""
    return re.sub(r"@font-face\s*\{(?![^}]*font-display)", lambda rule: f"{rule[0]}font-display:{display};", css)


def write_vendor_assets(site_dir: Path, node_modules: Path, cache_dir: Path) -> None:
    vendor = site_dir / VENDOR_URL
    vendor.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_bundle_editor(node_modules, cache_dir), vendor / "editor.js")

    font_src = node_modules / FONT_PACKAGE
    font_out = vendor / "noto-sans-bengali"
    (font_out / "files").mkdir(parents=True, exist_ok=True)
    css = []
    for weight in FONT_WEIGHTS:
        text = (font_src / f"{weight}.css").read_text(encoding="utf-8")
        css.append(text)
        css.append(_bengali_only_alias(text))
        for subset in FONT_SUBSETS:
            for ext in ("woff2", "woff"):
                name = f"noto-sans-bengali-{subset}-{weight}-normal.{ext}"
                shutil.copyfile(font_src / "files" / name, font_out / "files" / name)
    (font_out / "fonts.css").write_text("\n".join(css), encoding="utf-8")

    for package, inside, target in TREES:
        source, dest = node_modules / package / inside, vendor / target
        if not source.exists():
            raise VendorError(f"{source} is missing from the plugin's npm packages")
        if source.is_dir():
            shutil.copytree(source, dest, dirs_exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)

    package, inside, target = KATEX_CSS
    css = node_modules / package / inside
    if not css.exists():
        raise VendorError(f"{css} is missing from the plugin's npm packages")
    (vendor / target).write_text(with_font_display(css.read_text(encoding="utf-8"), KATEX_FONT_DISPLAY), encoding="utf-8")

    strings = site_dir / ASSETS_URL / "strings.js"
    strings.parent.mkdir(parents=True, exist_ok=True)
    strings.write_text(as_javascript_module(), encoding="utf-8")
