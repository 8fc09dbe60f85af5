"""Figures in the dark scheme (a phone at night): drawn light on dark, not glaring white blocks,
with their colours (a blue line stays blue) and their text still readable; in the light scheme and
on paper, as matplotlib drew them."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from support.browser import figures_in_place, wait_enhanced

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

PAGE = "/lessons/optimization/"  # its built output has cell figures


def _figure_pixels(page) -> np.ndarray:
    box = page.locator(".pycell-figure").first
    box.scroll_into_view_if_needed()
    figures_in_place(page, box)
    figure = box.locator("svg")
    return np.asarray(Image.open(io.BytesIO(figure.screenshot())).convert("RGB"), dtype=float) / 255


def _warm_share(pixels: np.ndarray) -> tuple[float, int]:
    """Of the figure's coloured pixels (lines, markers: red and blue channels far apart), the share
    that is warm (more red than blue), and how many there are."""
    r, b = pixels[..., 0], pixels[..., 2]
    coloured = np.abs(r - b) > 0.25
    return float((r[coloured] > b[coloured]).mean()), int(coloured.sum())


def test_figures_follow_the_colour_scheme_and_keep_their_colours(browser, site_url):
    seen = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                                      color_scheme=scheme)
        page = context.new_page()
        page.goto(site_url + PAGE)
        wait_enhanced(page)
        seen[scheme] = _figure_pixels(page)
        page.emulate_media(media="print")  # on paper, as matplotlib drew it
        assert page.locator(".pycell-figure svg").first.evaluate("(svg) => getComputedStyle(svg).filter") == "none"
        context.close()
    assert seen["light"].mean() > 0.8 and seen["dark"].mean() < 0.35, (seen["light"].mean(), seen["dark"].mean())
    (light_warm, light_n), (dark_warm, dark_n) = _warm_share(seen["light"]), _warm_share(seen["dark"])
    assert light_n > 50 and dark_n > 50
    assert abs(light_warm - dark_warm) < 0.25, (light_warm, dark_warm)  # its colours kept, not inverted
