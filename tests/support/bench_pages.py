"""What each page of the built site weighs at load: the home page and every part of every lesson.

    ./pathshala bench --pages
    PYTHONPATH=tests .venv/bin/python -m support.bench_pages SITE

Per page, in Debian's Chromium once the page has loaded and settled (the figures within two
screens of the first one fetched and placed, as site/figures.js does; no Python started, no
service worker):
dom_elements (the document's elements; style and layout of them is most of what a phone waits
for on each page, issue 23), of which math_elements (formulas, MathML) and svg_elements (figures
and icons), and html_bytes / html_gzip_bytes / html_br_bytes (the page file and its copies as
the build wrote them). The issue's target: dom_elements <= 1,500 on every lesson page.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from .bench_lighthouse import lesson_pages
from .local_server import CHROMIUM_ARGS, serve

COUNT = """() => ({
  dom_elements: document.getElementsByTagName('*').length,
  math_elements: document.querySelectorAll('math, math *').length,
  svg_elements: document.querySelectorAll('svg, svg *').length,
})"""


def _size(path: Path) -> int | None:
    return path.stat().st_size if path.is_file() else None


def page_census(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    pages = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                          service_workers="block")
            page = context.new_page()
            for path in lesson_pages(site):
                page.goto(url + path, wait_until="networkidle")
                html = site / path.strip("/") / "index.html"
                pages[path] = {**page.evaluate(COUNT), "html_bytes": _size(html),
                               "html_gzip_bytes": _size(html.with_name("index.html.gz")),
                               "html_br_bytes": _size(html.with_name("index.html.br"))}
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    lessons = [numbers["dom_elements"] for path, numbers in pages.items() if path.startswith("/lessons/")]
    return {"pages": pages, "max_lesson_dom_elements": max(lessons), "lesson_pages_over_1500": sum(n > 1500 for n in lessons)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    print(json.dumps({"page_census": page_census(parser.parse_args().site)}, indent=1))


if __name__ == "__main__":
    main()
