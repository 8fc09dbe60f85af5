"""The build's figures set aside in files (issue 23): the page keeps an empty svg of the figure's
size, its box the width at which the figure's smallest text reads."""

from __future__ import annotations

import math
import re

from py_lessons.plugin.render import figure_files
from py_lessons.plugin.render.cell_html import render_items

TEXT = "<text style=\"font: {size}px 'DejaVu Sans'; text-anchor: middle\" x=\"1\" y=\"2\">{words}</text>"


def figure(width: float, sizes: list[float], empty_size: float | None = None) -> str:
    texts = "".join(TEXT.format(size=size, words="ক্ষতি ০.৫") for size in sizes)
    if empty_size is not None:  # matplotlib writes empty labels too; they set no size
        texts += TEXT.format(size=empty_size, words=" ")
    return (f'<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="{width}pt" height="200pt" '
            f'viewBox="0 0 {width} 200" xmlns="http://www.w3.org/2000/svg" version="1.1">\n <metadata>\n'
            f'  <rdf:RDF><cc:Work/></rdf:RDF>\n </metadata>\n <g id="figure_1">{texts}<path d="M 0 0"/></g>\n</svg>\n')


def test_a_cell_figure_leaves_a_placeholder_of_its_size_and_its_file():
    svg = figure(410.4, [9, 8, 12], empty_size=4)
    page = "<p>আগে</p>" + render_items([{"type": "figure", "svg": svg}], {"ok": True}) + "<p>পরে</p>"
    figures = {}
    html = figure_files.set_aside(page, figures)
    [(name, kept)] = figures.items()
    assert "<text" not in html and "<text" in kept and "<metadata>" not in kept
    assert name == figure_files.figure_file_name(kept) and name.endswith(".svg")
    placeholder = re.search(r"<svg([^>]*)></svg>", html).group(1)
    for size in ('width="410.4pt"', 'height="200pt"', 'viewBox="0 0 410.4 200"', 'aria-label="'):
        assert size in placeholder
    assert f'data-figure-file="{name}"' in placeholder
    # the smallest text that has words is 8 (the empty label's 4 does not count)
    assert f'style="--figure-min-width: {math.ceil(410.4 * 10 / 8)}px"' in html
    assert html.startswith("<p>আগে</p>") and html.endswith("<p>পরে</p>")


def test_run_charts_go_too_and_explorables_stay_inline():
    chart = f'<figure class="gpu-run-chart" data-component="run-chart" data-run="r" data-search-exclude>{figure(460.8, [8])}<figcaption>ক্ষতি</figcaption></figure>'
    explorable = f'<div class="pz-explorable-figure" data-figure>{figure(300, [10])}</div>'
    figures = {}
    html = figure_files.set_aside(chart + explorable, figures)
    assert len(figures) == 1
    assert html.count("<text") == 1 and "<figcaption>ক্ষতি</figcaption></figure>" in html
    assert 'data-run="r" data-search-exclude style="--figure-min-width: 576px"><svg' in html


def test_one_figure_drawn_twice_is_one_file():
    svg = figure(300, [10])
    figures = {}
    html = figure_files.set_aside(render_items([{"type": "figure", "svg": svg}] * 2, {"ok": True}), figures)
    assert len(figures) == 1 and html.count("data-figure-file") == 2
