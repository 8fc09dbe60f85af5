"""Issue 5's table: each lesson page carries at least the parts its row lists.

Counted in the built HTML through the components' stable hooks, so a page that loses a
stepper, a cell, a run table or a quiz fails here.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import textwrap

import pytest

from support.site import ROOT, lesson_html, lesson_part_urls, outputs

LESSONS = {
    "lessons/optimization/": {
        "cells": 3, "figure_cells": 2, "steppers": ["gd_update"], "mcq": 3, "exercise_reveals": 1,
        "code_tabs_with_go": 1, "complete": 1,
    },
    "lessons/vanishing-gradients/": {
        "steppers": ["sigmoid_chain", "residual_chain", "norm_clip"], "cells": 3, "figure_cells": 2,
        "runs": ["grad_norms", "train_deep", "explode"], "charts": ["train_deep"], "tables_in_prose": 1,
        "thinking": 5, "exercise_reveals": 4, "ordering": 1, "mcq": 6, "glossary": 1, "summary": 1, "complete": 1,
    },
    "lessons/numerical-stability/": {
        "cells": 3, "steppers": ["stable_softmax"], "runs": ["mixed_precision"], "mcq": 5, "glossary": 1,
    },
    "lessons/smaller-models/": {
        "steppers": ["memory_ledger", "affine_quant", "kd_loss"], "cells": 4, "figure_cells": 1,
        "runs": ["int8_dynamic", "lowbit_llm", "distill", "prune"], "tables_in_prose": 1,
        "thinking": 5, "exercise_reveals": 4, "ordering": 1, "mcq": 6, "glossary": 1, "summary": 1, "complete": 1,
    },
    "lessons/capstone/": {
        "cells": 2, "figure_cells": 1, "thinking": 2, "exercise_reveals": 1, "mcq": 2, "glossary": 1, "summary": 1,
        "complete": 1,
    },
}


def count(html: str, pattern: str) -> int:
    return len(re.findall(pattern, html))


def cell_blocks(html: str) -> list[str]:
    return re.split(r'(?=<div class="pycell" data-cell-id=)', html)[1:]


@pytest.mark.parametrize("path", sorted(LESSONS))
def test_lesson_has_every_part_its_row_lists(built_site, path):
    html = lesson_html(built_site, path)  # all its parts
    need = LESSONS[path]
    missing = []

    def at_least(name, found, wanted):
        if found < wanted:
            missing.append(f"{name}: {found} < {wanted}")

    cells = [block for block in cell_blocks(html) if 'data-cell-kind="exercise"' not in block[:300]]
    at_least("runnable cells", len(cells), need.get("cells", 0))
    figure_cells = [block for block in cells if "data-figure" in block.split("data-notes")[0]]
    at_least("cells with a plot", len(figure_cells), need.get("figure_cells", 0))
    for function in need.get("steppers", []):
        at_least(f"stepper {function}", count(html, rf'data-component="stepper"[^>]*data-function="{function}"'), 1)
    for run in need.get("runs", []):
        at_least(f"run table {run}", count(html, rf'data-component="run-table" data-run="{run}"'), 1)
    for run in need.get("charts", []):
        at_least(f"run chart {run}", count(html, rf'data-component="run-chart" data-run="{run}"'), 1)
    at_least("MCQs", count(html, r'data-component="mcq"'), need.get("mcq", 0))
    at_least("ordering", count(html, r'data-component="ordering"'), need.get("ordering", 0))
    at_least("thinking questions", count(html, r'data-component="reveal"[^>]*data-kind="thinking"'), need.get("thinking", 0))
    at_least("exercises", count(html, r'data-component="reveal"[^>]*data-kind="exercise"')
             + count(html, r'data-component="exercise"'), need.get("exercise_reveals", 0))
    at_least("completion stamp", count(html, r'data-component="complete"'), need.get("complete", 0))
    at_least("glossary terms", count(html, r'data-component="glossary-term"'), need.get("glossary", 0))
    at_least("'মনে রাখুন' summary", count(html, r"<h2[^>]*>\s*মনে রাখুন"), need.get("summary", 0))
    at_least("prose tables", count(html, r"<table>"), need.get("tables_in_prose", 0))
    if need.get("code_tabs_with_go"):
        # from each code-tabs wrapper to the next section: a runnable Python tab and a highlighted Go tab
        tabs = [html[start.start():].split("<h2", 1)[0] for start in re.finditer(r'data-component="code-tabs"', html)]
        with_go = [tab for tab in tabs if ">Python</label>" in tab and ">Go</label>" in tab and "data-cell-id" in tab
                   and re.search(r'<span class="kd">func</span>', tab)]
        at_least("Python + Go code tabs", len(with_go), 1)
    assert not missing, f"{path} lacks: " + "; ".join(missing)


def test_every_lesson_is_in_the_navigation_in_course_order(built_site):
    home = (built_site / "index.html").read_text(encoding="utf-8")
    positions = [home.find(f'href="{path}"') for path in LESSONS]
    assert all(p > 0 for p in positions), positions


def test_tables_of_contents_show_no_raw_tex(built_site):
    """vanishing-gradients has a heading with a formula; the sidebar shows its text, not TeX."""
    import re

    html = (built_site / "lessons/vanishing-gradients/residual/index.html").read_text(encoding="utf-8")
    toc = html[html.index('data-md-component="toc"'):]
    toc = toc[:toc.index("</nav>")]
    assert "x + F(x)" in toc
    for page in built_site.rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        navs = re.findall(r'<nav class="md-nav[^"]*".*?</nav>', text, re.DOTALL)
        assert not [nav for nav in navs if "\\(" in nav], page


@pytest.mark.skipif(shutil.which("go") is None, reason="no Go toolchain here (Debian: golang-go)")
def test_the_go_tab_prints_what_the_python_cell_printed(built_site, tmp_path):
    """The optimisation lesson tells the reader its Go tab prints the same table as the Python
    cell beside it: the Go code is run and compared with the Python cell's build output."""
    source = (ROOT / "site/lessons/optimization/index.md").read_text(encoding="utf-8")
    tabs = source[source.index('data-id="opt-three-lr-tabs"'):]
    (tmp_path / "main.go").write_text(textwrap.dedent(re.search(r"```go\n(.*?)^\s*```", tabs, re.S | re.M)[1]))
    ran = subprocess.run(["go", "run", "main.go"], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "GOCACHE": str(tmp_path / "go-cache"), "GOPATH": str(tmp_path / "go"),
                              "GOTOOLCHAIN": "local", "GOFLAGS": ""})
    assert ran.returncode == 0, ran.stderr
    python_output = html.unescape(outputs(built_site, "lessons/optimization/index.html")["opt-three-lr"])
    assert "lr=0.3" in ran.stdout and ran.stdout == python_output


def test_each_lesson_has_one_name_in_the_navigation_its_header_and_its_heading(built_site):
    """The navigation's name ("৪ · Model হালকা করা") is the first part's heading before its colon,
    or the whole heading; every part's header says "পাঠ ৪ · Model হালকা করা", the home page's card
    the same name, and the browser's title of each part is its own heading (or the navigation's name)."""
    home = (built_site / "index.html").read_text(encoding="utf-8")
    nav_labels = [html.unescape(label).strip() for label in
                  re.findall(r'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*([০-৯]+ · .*?)\s*</span>', home, re.S)]
    for path in LESSONS:
        parts = lesson_part_urls(path.strip("/").split("/")[1])
        first = (built_site / parts[0] / "index.html").read_text(encoding="utf-8")
        heading = _heading(first)
        label = next(label for label in nav_labels if label.split(" · ", 1)[1] in (heading.split(":")[0], heading))
        number, name = label.split(" · ", 1)
        assert re.fullmatch("[০-৯]+", number), label  # its number, in Bangla digits
        assert f"{name}</a></h3>" in home or f"{name}:" in home, name
        for part in parts:
            page = (built_site / part / "index.html").read_text(encoding="utf-8")
            header = re.search(r'<p class="pz-parts-lesson"><a [^>]*>(.*?)</a>', page).group(1)
            assert html.unescape(header) == f"পাঠ {number} · {name}", (part, header)
            title = html.unescape(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
            assert title.startswith((_heading(page), label)), (part, title)


def _heading(page: str) -> str:
    h1 = re.sub(r'<a class="headerlink".*?</a>', "", re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1))
    return html.unescape(re.sub(r"<[^>]+>", "", h1)).strip()


@pytest.mark.parametrize("path", sorted(LESSONS))
def test_the_download_is_the_whole_lesson_from_every_part(built_site, path):
    """One notebook for a lesson in parts, beside its first part, with every part's cells in order;
    each part's control links to it."""
    import json

    slug = path.strip("/").split("/")[1]
    notebook = json.loads((built_site / path / f"{slug}.ipynb").read_text(encoding="utf-8"))
    ids = [cell["metadata"]["pathshala"]["cell_id"] for cell in notebook["cells"] if cell["cell_type"] == "code"]
    pages = [(built_site / part / "index.html").read_text(encoding="utf-8") for part in lesson_part_urls(slug)]
    in_pages = [cell_id for page in pages
                for cell_id in re.findall(r'<div class="pycell" data-cell-id="([^"]+)"(?![^>]*data-cell-kind="exercise")', page)]
    assert [cell_id for cell_id in ids if cell_id in in_pages] == in_pages  # all of them, in the parts' order
    for part, page in zip(lesson_part_urls(slug), pages):
        depth = part.count("/") - path.count("/")
        assert f'href="{"../" * depth}{slug}.ipynb"' in page, part
    assert not list((built_site / path).glob("*/*.ipynb"))  # no part has a notebook of its own
