"""Explorable figures, whole builds: the default figure drawn by the build's Pyodide (and reused
from the cache on a rebuild), and author errors that stop the build with the page and line."""

from __future__ import annotations

import html
import json
import re

import pytest

from support.explorable_site import explorable_site
from support.site import build_site

PAGE = "# L\n\ntext\n\n```explorable\nid: w\nfunction: {function}\n{extra}```\n"
LINE = 5  # the opening fence's line in PAGE


@pytest.mark.parametrize("function, extra, message", [
    ("no_such_figure", "", r"unknown function 'no_such_figure' \(known: .*wave"),
    ("bad_range", "", r"bad_range\): .*এক্স.*\(x\): সর্বনিম্ন মান \(২\.০\)"),
    ("off_grid_default", "", r"off_grid_default\): .*\(x\): শুরুর মান ০\.৩৩ ধাপের মাপে পড়ে না"),
    ("wave", "values: {cycles: 2.5}\n", r"wave\): .*\(cycles\): মান ২\.৫ ধাপের মাপে পড়ে না"),
    ("wave", "values: {speed: 1}\n", r"wave\): .*“speed” নামে কোনো প্যারামিটার নেই"),
    ("always_raises", "", r"always_raises\): ExplorableError: .*ZeroDivisionError"),
    ("draws_nothing", "", r"draws_nothing\): ExplorableError: .*কোনো চিত্র আঁকেনি"),
])
def test_an_author_error_stops_the_build_at_the_block(tmp_path, function, extra, message):
    done = build_site(tmp_path / "out", explorable_site(tmp_path, PAGE.format(function=function, extra=extra)))
    assert done.returncode != 0
    assert re.search(rf"lesson/index\.md:{LINE}: explorable 'w'[: ].*{message}", done.stderr), done.stderr[-3000:]


def _figure_markup(site) -> str:
    html = (site / "lesson" / "index.html").read_text(encoding="utf-8")
    return re.search(r"<div class=\"pz-explorable-figure\" data-figure[^>]*>(<svg.*?</svg>)\s*</div>", html, re.S).group(1)


def test_the_default_figure_is_drawn_at_build_and_reused_on_a_rebuild(tmp_path):
    config = explorable_site(tmp_path, PAGE.format(function="wave", extra="values: {shift: -0.5}\n"))
    first = build_site(tmp_path / "one", config)
    assert first.returncode == 0, first.stderr[-3000:]
    # (drawn now, or by an earlier test run: the course's cache folder is shared)
    assert re.search(r"py_lessons: (1 explorable figures drawn, 0|0 explorable figures drawn, 1) from cache",
                     first.stderr)
    svg = _figure_markup(tmp_path / "one")
    assert svg.count("<path") >= 2  # the curve, the axes' ticks
    html = (tmp_path / "one" / "lesson" / "index.html").read_text(encoding="utf-8")
    assert 'data-component="explorable" data-id="w" data-function="wave" data-state="ready"' in html
    # both sliders at the block's values, with the value as the reader hears it (Bangla digits)
    assert re.search(r'data-param="cycles" min="1" max="5" step="1" value="2"[^>]*aria-valuetext="২"', html)
    assert re.search(r'data-param="shift" min="-1.00" max="1.00" step="0.25" value="-0.50"[^>]*'
                     r'aria-valuetext="−০.৫০ রেডিয়ান"', html)

    again = build_site(tmp_path / "two", config)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "0 explorable figures drawn, 1 from cache" in again.stderr
    assert _figure_markup(tmp_path / "two") == svg


def test_every_explorable_of_the_course_draws_its_default_figure_into_its_frame(built_site):
    """Not tight: a label of a course figure that the frame would clip (or a wrong reading of where
    a label lies) would make the build fall back to a tight cut of another size."""
    drawn = 0
    pages = [page.read_text(encoding="utf-8") for page in built_site.rglob("*.html")]
    for page in pages:
        for block in re.finditer(r'data-component="explorable"[^>]*data-frame="([^"]*)".*?<svg ([^>]*)>', page, re.S):
            x0, y0, x1, y1 = json.loads(html.unescape(block.group(1)))
            width, height = re.search(r'width="([0-9.]+)pt" height="([0-9.]+)pt"', block.group(2)).groups()
            assert (float(width), float(height)) == pytest.approx(((x1 - x0) * 72, (y1 - y0) * 72), abs=0.01)
            drawn += 1
    assert drawn == sum(page.count('data-component="explorable"') for page in pages) >= 5
