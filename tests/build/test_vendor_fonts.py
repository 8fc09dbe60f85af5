"""The built site's KaTeX stylesheet says how its fonts are shown while they load (issue 15:
Lighthouse's font-display audit): formulas are readable at once, in a fallback font."""

from __future__ import annotations

import re


def test_every_katex_font_face_shows_its_text_while_the_font_loads(built_site):
    katex = built_site / "assets" / "vendor" / "katex"
    faces = re.findall(r"@font-face\s*\{([^}]*)\}", (katex / "katex.min.css").read_text(encoding="utf-8"))
    assert len(faces) == len(list((katex / "fonts").glob("*.woff2")))  # one rule per font, none lost
    assert all(re.search(r"font-display\s*:\s*swap", face) for face in faces)


def test_every_page_preloads_the_body_texts_font_faces_that_its_stylesheet_names(built_site):
    """Preloaded, the Bangla faces arrive before the first paint, so the text does not reflow when
    they come (Lighthouse measured CLS 0.2-0.3 without). A preload must be the very URL the
    stylesheet asks for, or the browser fetches the font twice."""
    fonts_css = built_site / "assets" / "vendor" / "noto-sans-bengali" / "fonts.css"
    named = {(fonts_css.parent / url).resolve() for url in re.findall(r"url\(([^)]+\.woff2)\)", fonts_css.read_text())}
    for page in [built_site / "index.html", *sorted(built_site.glob("lessons/*/index.html"))]:
        head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
        preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>', head)
        assert len(preloads) == 3, page
        for href in preloads:
            target = (page.parent / href).resolve()
            assert target in named and target.is_file()
        assert any("bengali-400" in href for href in preloads)
