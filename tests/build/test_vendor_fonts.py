"""The built site's fonts: the formulas' font shows its text while it loads (issue 15:
Lighthouse's font-display audit), has a glyph for every character of every formula and little
else (issue 23: every reader of a formula downloads it); the body text's faces are preloaded."""

from __future__ import annotations

import html
import re

from fontTools.ttLib import TTFont

# What MathML draws a single-letter identifier with: the Unicode italic of the letter (MathML
# Core's text transform), not the letter itself.
ITALIC = {**{chr(c): chr(0x1D434 + c - 0x41) for c in range(0x41, 0x5B)},
          **{chr(c): chr(0x1D44E + c - 0x61) for c in range(0x61, 0x7B)}, "h": "\u210E",
          **{chr(c): chr(0x1D6FC + c - 0x3B1) for c in range(0x3B1, 0x3CA)}}

# Operators MathML keeps for meaning only (function application after log, invisible times): never drawn.
INVISIBLE = dict.fromkeys(range(0x2061, 0x2065))


THEMES_STYLESHEETS = re.compile(r"assets/stylesheets/(main|palette)\.[0-9a-f]+\.min\.css$")


def stylesheets(page):
    """The files of the stylesheets ``page`` links to."""
    head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
    return [(page.parent / href).resolve() for href in re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)]


def the_plugins_stylesheet(built_site):
    """The one stylesheet besides the theme's two that a lesson page links to."""
    ours = [sheet for sheet in stylesheets(built_site / "lessons" / "optimization" / "index.html")
            if not THEMES_STYLESHEETS.search(sheet.as_posix())]
    assert len(ours) == 1, ours
    return ours[0]


def test_every_page_links_the_theme_and_one_stylesheet_for_everything_else(built_site):
    """One request for the fonts' faces and the plugin's rules, not seven: on a phone's slow link
    each stylesheet costs a round trip before the page can paint."""
    sheet = the_plugins_stylesheet(built_site)
    pages = sorted(built_site.glob("**/index.html"))
    assert len(pages) > 20
    for page in pages:
        linked = stylesheets(page)
        assert len(linked) == 3 and sheet in linked, page
    rules = sheet.read_text(encoding="utf-8")
    for selector in (".pycell-toolbar", "@media print", "@font-face"):  # cells.css, print.css, the faces
        assert selector in rules


def test_the_math_font_shows_text_while_it_loads_and_holds_every_formulas_characters_only(built_site):
    sheet = the_plugins_stylesheet(built_site)
    faces = [face for face in re.findall(r"@font-face\s*\{([^}]*)\}", sheet.read_text(encoding="utf-8"))
             if "Pathshala Math" in face]
    assert len(faces) == 1 and re.search(r"font-display\s*:\s*swap", faces[0])
    font = TTFont(sheet.parent / re.search(r"url\(([^)]+)\)", faces[0])[1])
    assert "MATH" in font  # MathML's stretchy brackets, radicals and big operators come from it
    covered = set(map(chr, font.getBestCmap()))
    needed, written = {}, set()
    for page in built_site.glob("**/index.html"):
        for formula in re.findall(r"<math\b.*?</math>", page.read_text(encoding="utf-8"), re.DOTALL):
            written |= set(html.unescape(re.sub(r"<[^>]*>", "", formula)))
            if re.search(r"<m(sqrt|root)\b", formula):  # the radical sign, drawn by MathML itself
                needed.setdefault("\u221A", page.relative_to(built_site))
            for tag, attributes, text in re.findall(r"<(mi|mn|mo|mtext)\b([^>]*)>([^<]*)<", formula):
                text = html.unescape(text)
                if tag == "mtext":  # \text{...}: Bangla words, drawn by the Bangla face after this one
                    continue
                if tag == "mi" and len(text) == 1 and "mathvariant" not in attributes:
                    text = ITALIC.get(text, text)
                for char in text.translate(INVISIBLE):
                    needed.setdefault(char, page.relative_to(built_site))
    assert needed, "no formula found: the site has formulas (the lessons use them)"
    missing = {char: str(page) for char, page in needed.items() if char not in covered}
    assert not missing
    # and little else: the italic letters (any one-letter identifier may need its italic), the
    # radical sign, and the odd character whose glyph the kept ones' substitutions reach (fontTools
    # keeps its mapping)
    drawn = {chr(c) for first, last in ((0x1D434, 0x1D467), (0x1D6A4, 0x1D6A5), (0x1D6E2, 0x1D71B))
             for c in range(first, last + 1)} | {"\u210E", "\u221A"}
    unused = covered - written - drawn
    assert len(unused) <= 3, "".join(sorted(unused))


def test_every_page_preloads_the_body_texts_font_faces_that_its_stylesheet_names(built_site):
    """Preloaded, the Bangla faces arrive before the first paint, so the text does not reflow when
    they come (Lighthouse measured CLS 0.2-0.3 without). A preload must be the very URL the
    stylesheet asks for, or the browser fetches the font twice."""
    sheet = the_plugins_stylesheet(built_site)
    named = {(sheet.parent / url).resolve() for url in re.findall(r"url\(([^)]+\.woff2)\)", sheet.read_text())}
    for page in [built_site / "index.html", *sorted(built_site.glob("lessons/*/index.html"))]:
        head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
        preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>', head)
        assert len(preloads) == 3, page
        for href in preloads:
            target = (page.parent / href).resolve()
            assert target in named and target.is_file()
        assert any("bengali-400" in href for href in preloads)
