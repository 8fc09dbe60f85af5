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

from ..base.fonts import (FONT_FOLDER, FONT_PACKAGE, FONT_SUBSETS, FONT_WEIGHTS, MATH_FONT_FAMILY, MATH_FONT_FILE,
                          MATH_FONT_PACKAGE, face_file, math_font_code_points, subset_math_font)
from ..base.layout import ASSETS_URL, VENDOR_URL
from ..base.strings import as_javascript_module

# Bundled by esbuild (their npm packages' pieces in one minified module each): name -> entry.
BUNDLES = {name: Path(__file__).parent / "frontend" / name for name in ("editor.js", "unzip.js", "fsrs.js")}

# (npm package, folder inside it, folder under assets/vendor/): copied as they are.
# DOMPurify's ES module (with its license): output.js sanitizes the worker's figures with it.
TREES = [("dompurify", "dist/purify.es.mjs", "dompurify/purify.es.mjs"), ("dompurify", "LICENSE", "dompurify/LICENSE")]
# The formulas' font (MathML, render/math.py), cut at build time (base/fonts.py), and its face:
# "swap" shows a formula at once in a fallback font and redraws it when this one is there.
MATH_FONT = "math/noto-sans-math.woff2"


class VendorError(RuntimeError):
    pass


def _bundle(entry: Path, node_modules: Path, cache_dir: Path) -> Path:
    lock = node_modules / ".package-lock.json"  # what npm installed there
    digest = hashlib.sha256(entry.read_bytes() + (lock.read_bytes() if lock.exists() else b""))
    out = cache_dir / f"{entry.stem}-{digest.hexdigest()[:16]}.js"
    if out.exists():
        return out
    esbuild = node_modules / ".bin" / "esbuild"
    if not esbuild.exists():
        raise VendorError(f"{esbuild} is missing from the plugin's npm packages")
    cache_dir.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(  # NODE_PATH: the entry lives in the plugin, its packages in node_modules
        [str(esbuild), str(entry), "--bundle", "--format=esm", "--minify", "--legal-comments=eof",
         f"--outfile={out}"],
        capture_output=True, text=True, cwd=node_modules.parent, env={**os.environ, "NODE_PATH": str(node_modules)},
    )
    if done.returncode != 0:
        raise VendorError(f"esbuild could not bundle {entry.name}:\n{done.stderr}")
    return out


def bundled(name: str, node_modules: Path, cache_dir: Path) -> Path:
    """The esbuild bundle of one of BUNDLES (cached by its entry and the installed packages)."""
    return _bundle(BUNDLES[name], node_modules, cache_dir)


def _math_font(node_modules: Path, cache_dir: Path, formula_text: str) -> Path:
    source = node_modules / MATH_FONT_PACKAGE / MATH_FONT_FILE
    if not source.exists():
        raise VendorError(f"{source} is missing from the plugin's npm packages")
    code_points = math_font_code_points(formula_text)
    digest = hashlib.sha256(source.read_bytes() + repr(code_points).encode())  # the font and the cut
    out = cache_dir / f"math-{digest.hexdigest()[:16]}.woff2"
    if not out.exists():  # cutting the font takes a few seconds: once per font file and set of characters
        cache_dir.mkdir(parents=True, exist_ok=True)
        part = out.with_name(f"{out.name}.{os.getpid()}.part")
        subset_math_font(source, part, code_points)
        os.replace(part, out)
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


def write_vendor_assets(site_dir: Path, node_modules: Path, cache_dir: Path, formula_text: str,
                        to_vendor: str) -> str:
    """``formula_text``: the characters of the site's formulas, which its math font keeps. Returns
    the fonts' @font-face rules for a stylesheet whose way to VENDOR_URL is ``to_vendor``."""
    vendor = site_dir / VENDOR_URL
    vendor.mkdir(parents=True, exist_ok=True)
    for name in BUNDLES:
        shutil.copyfile(bundled(name, node_modules, cache_dir), vendor / name)

    font_src = node_modules / FONT_PACKAGE
    font_out = vendor / FONT_FOLDER
    (font_out / "files").mkdir(parents=True, exist_ok=True)
    css = []
    for weight in FONT_WEIGHTS:  # fontsource's faces name their files ./files/NAME
        text = (font_src / f"{weight}.css").read_text(encoding="utf-8").replace(
            "url(./files/", f"url({to_vendor}{FONT_FOLDER}/files/")
        css.append(text)
        css.append(_bengali_only_alias(text))
        for subset in FONT_SUBSETS:
            for ext in ("woff2", "woff"):
                name = face_file(subset, weight, ext)
                shutil.copyfile(font_src / "files" / name, font_out / "files" / name)

    for package, inside, target in TREES:
        source, dest = node_modules / package / inside, vendor / target
        if not source.exists():
            raise VendorError(f"{source} is missing from the plugin's npm packages")
        if source.is_dir():
            shutil.copytree(source, dest, dirs_exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)

    (vendor / MATH_FONT).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_math_font(node_modules, cache_dir, formula_text), vendor / MATH_FONT)
    css.append(f'@font-face{{font-family:"{MATH_FONT_FAMILY}";font-style:normal;font-weight:400;font-display:swap;'
               f'src:url({to_vendor}{MATH_FONT}) format("woff2")}}')

    strings = site_dir / ASSETS_URL / "strings.js"
    strings.parent.mkdir(parents=True, exist_ok=True)
    strings.write_text(as_javascript_module(), encoding="utf-8")
    return "\n".join(css) + "\n"
