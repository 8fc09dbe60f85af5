"""The installable app: a web app manifest and its icons, written into the built site, and the
tags that point every page at them. No MkDocs here; Pillow draws the icons at build time with
the Bangla font the build already staged for matplotlib.

Every URL is relative (the manifest's own ones to the manifest, the tags' to the page), so the
installed app works from a sub-path such as ``/course/`` as well as from ``/``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ..base.layout import ASSETS_URL

MANIFEST = "manifest.webmanifest"           # at the site root: its scope is the whole site
ICON_FOLDER = f"{ASSETS_URL}/app"
APPLE_TOUCH_ICON = f"{ICON_FOLDER}/apple-touch-icon.png"
DEFAULT_THEME_COLOR = "#4051b5"             # Material's indigo, the header colour of the light scheme
DEFAULT_THEME_COLOR_DARK = "#303fa1"        # its darker shade, for the dark scheme
BACKGROUND_COLOR = "#ffffff"                # the splash screen, like the page before its styles load

# (file, size in px, purpose): the sizes Chromium asks for (192 and 512); a maskable icon fills
# its square, and the platform cuts its own shape from it; iOS takes a full square of 180.
ICONS = (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"),
         ("icon-maskable-512.png", 512, "maskable"), ("apple-touch-icon.png", 180, "apple"))
VIRAMA_OR_JOINER = {"\u09cd", "\u094d", "\u200d"}  # a conjunct goes on to the next letter
_NAME_PARTS = re.compile(r"\s*[:|]\s+|\s+[—–-]\s+")  # "পাঠশালা — মেশিন লার্নিং", "পাঠশালা: ...": the first part


@dataclass(frozen=True)
class AppManifest:
    name: str
    short_name: str
    description: str = ""
    language: str = "bn"
    theme_color: str = DEFAULT_THEME_COLOR
    theme_color_dark: str = DEFAULT_THEME_COLOR_DARK
    icon_text: str = ""

    @classmethod
    def for_site(cls, site_name: str, *, description: str = "", language: str = "bn", name: str | None = None,
                 short_name: str | None = None, theme_color: str | None = None,
                 theme_color_dark: str | None = None, icon_text: str | None = None) -> AppManifest:
        """Defaults from the site: its name; the name's first part as the short name (launchers
        show about 12 characters); the short name's first letter on the icon."""
        name = name or site_name
        short_name = short_name or _NAME_PARTS.split(name, maxsplit=1)[0]
        return cls(name=name, short_name=short_name, description=description, language=language,
                   theme_color=theme_color or DEFAULT_THEME_COLOR,
                   theme_color_dark=theme_color_dark or DEFAULT_THEME_COLOR_DARK,
                   icon_text=icon_text or first_letter(short_name))

    def as_json(self) -> dict:
        icons = [{"src": f"{ICON_FOLDER}/{file}", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                 for file, size, purpose in ICONS if purpose != "apple"]
        # no "id": it would resolve against the origin, so two courses on one host would be one app;
        # without it the id is start_url, the course's own folder
        manifest = {"name": self.name, "short_name": self.short_name, "lang": self.language, "dir": "ltr",
                    "start_url": "./", "scope": "./", "display": "standalone",
                    "theme_color": self.theme_color, "background_color": BACKGROUND_COLOR, "icons": icons}
        if self.description:
            manifest["description"] = self.description
        return manifest

    def head_tags(self, root: str) -> str:
        """What a page's <head> needs; ``root``: the site root relative to the page ("../../")."""
        return (f'<link rel="manifest" href="{root}{MANIFEST}">'
                f'<meta name="theme-color" media="(prefers-color-scheme: light)" content="{escape(self.theme_color)}">'
                f'<meta name="theme-color" media="(prefers-color-scheme: dark)" content="{escape(self.theme_color_dark)}">'
                f'<link rel="apple-touch-icon" href="{root}{APPLE_TOUCH_ICON}">')


def first_letter(text: str) -> str:
    """The first letter as a reader sees it: a base character with its vowel signs and marks
    ("পাঠশালা" -> "পা"), a conjunct whole ("ক্ষমা" -> "ক্ষ"); Latin letters upper-cased."""
    letter = ""
    for char in text.strip():
        joined = letter and (unicodedata.category(char).startswith("M") or letter[-1] in VIRAMA_OR_JOINER
                             or char in VIRAMA_OR_JOINER)
        if letter and not joined:
            break
        letter += char
    return letter.upper()


def write_app(site_dir: Path, app: AppManifest, font: Path) -> list[Path]:
    """The manifest at the site root and the icons under ICON_FOLDER; returns the files written.
    The same inputs give the same bytes, so a rebuild does not change their precache revisions."""
    site_dir = Path(site_dir)
    folder = site_dir / ICON_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file, size, purpose in ICONS:
        draw_icon(app.icon_text, size, app.theme_color, font, full_bleed=purpose != "any").save(folder / file)
        written.append(folder / file)
    manifest = site_dir / MANIFEST
    manifest.write_text(json.dumps(app.as_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return [manifest, *written]


def draw_icon(text: str, size: int, colour: str, font: Path, *, full_bleed: bool):
    """White ``text`` centred on ``colour``. A plain icon is a rounded square on transparency; a
    full-bleed one (maskable, Apple) fills the square, and its text keeps to the middle 55%: a box
    whose corners stay inside the circle of radius 40% that no platform's mask cuts into."""
    from PIL import Image, ImageDraw, ImageFont  # only the build draws icons

    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if full_bleed:
        draw.rectangle((0, 0, size, size), fill=colour)
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=round(size * 0.2), fill=colour)
    room = size * (0.55 if full_bleed else 0.7)    # the text's box, at most this wide and tall
    stroke = max(1, size // 80)                    # the Regular weight, thickened: an icon is small
    face = ImageFont.truetype(str(font), size=size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face, stroke_width=stroke)
    scale = room / max(right - left, bottom - top)
    face = ImageFont.truetype(str(font), size=max(1, round(size * scale)))
    stroke = max(1, round(stroke * scale))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face, stroke_width=stroke)
    origin = ((size - (right - left)) / 2 - left, (size - (bottom - top)) / 2 - top)
    draw.text(origin, text, font=face, fill="white", stroke_width=stroke, stroke_fill="white")
    return image
