"""Build figures out of the page's first parse (issue 23).

A matplotlib figure is 100-500 SVG elements; a lesson part drew up to a thousand of them inline,
and style and layout of its elements is most of what a phone waits for on every page. Each
figure a cell printed at build, and each run chart, is set aside in its own file
(``assets/pathshala/figures/<hash>.svg``) and the page keeps an empty ``<svg>`` with the figure's
own size attributes, so its box takes the figure's final size before the figure arrives: nothing
moves when site/figures.js puts the figure in its place, inline (an SVG shown through ``<img>``
cannot use the page's Bangla font). The box also gets, from the build, the width at which the
figure's smallest text reads (``--figure-min-width``), which figures.js computed from the drawn
text when the figure was inline.

Explorables keep their first figure inline: their script redraws it, and compares it with the
build's.
"""

from __future__ import annotations

import hashlib
import math
import re

MIN_TEXT_PX = 10  # site/figures.js: the smallest text of a figure on the screen, in CSS px

# a cell's figure (render/cell_html.py) and a run chart (render/runs/chart.py): the box, its svg
_BOX = re.compile(r'(<(?:div|figure) class="(?:pycell-figure|gpu-run-chart)"[^>]*)>(<svg\b([^>]*)>.*?</svg>)', re.S)
_TEXT = re.compile(r'<text\b[^>]*?style="[^"]*?font(?:-size)?:\s*([0-9.]+)px[^"]*"[^>]*>(.*?)</text>', re.S)
_VIEW_BOX = re.compile(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"')
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)  # matplotlib's RDF: no reader sees it


def figure_file_name(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:20] + ".svg"


def min_width_px(svg: str) -> int | None:
    """The width at which the figure's smallest text is MIN_TEXT_PX (as figures.js's fit())."""
    view_box = _VIEW_BOX.search(svg)
    sizes = [float(size) for size, content in _TEXT.findall(svg) if re.sub(r"<[^>]+>", "", content).strip()]
    if not view_box or not sizes or min(sizes) <= 0:
        return None
    return math.ceil(float(view_box.group(1)) * MIN_TEXT_PX / min(sizes))


def set_aside(html: str, figures: dict[str, str]) -> str:
    """``html`` with each build figure replaced by its sized, empty placeholder; the figures go
    into ``figures`` (file name -> SVG text)."""
    def placeholder(match: re.Match) -> str:
        box, svg, attributes = match.group(1), _METADATA.sub("", match.group(2), count=1), match.group(3)
        name = figure_file_name(svg)
        figures[name] = svg
        width = min_width_px(svg)
        if width is not None:
            box += f' style="--figure-min-width: {width}px"'
        return f'{box}><svg{attributes} data-figure-file="{name}"></svg>'

    return _BOX.sub(placeholder, html)
