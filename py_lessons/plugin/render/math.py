"""Formulas rendered with KaTeX at build time, so pages do not reflow and need no JS for maths.

pymdownx.arithmatex (generic mode) leaves ``<span class="arithmatex">\\(...\\)</span>`` and
``<div class="arithmatex">\\[...\\]</div>``; here every one of a page is rendered in one Node call
(KaTeX from node_modules, pinned in package.json). A formula KaTeX cannot parse fails the build.
"""

from __future__ import annotations

import html as htmllib
import json
import re
import subprocess
from pathlib import Path

from ..base.errors import BlockError

SCRIPT = Path(__file__).with_name("katex_render.mjs")
MATH = re.compile(r'<(span|div) class="arithmatex">(?:\\\(|\\\[)(.*?)(?:\\\)|\\\])</\1>', re.DOTALL)


class MathRenderer:
    def __init__(self, node_modules: Path):
        self.node_modules = node_modules
        self.cache: dict[tuple[str, bool], str] = {}

    def _render(self, jobs: list[tuple[str, bool]]) -> None:
        todo = [job for job in dict.fromkeys(jobs) if job not in self.cache]
        if not todo:
            return
        if not (self.node_modules / "katex").exists():
            raise BlockError(f"{self.node_modules / 'katex'} is missing: run npm ci")
        done = subprocess.run(["node", str(SCRIPT), str(self.node_modules)], input=json.dumps(todo),
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise BlockError(f"KaTeX could not run: {done.stderr[-2000:]}")
        for job, answer in zip(todo, json.loads(done.stdout)):
            if "error" in answer:
                raise BlockError(f"formula {job[0]!r} cannot be rendered: {answer['error']}")
            self.cache[job] = answer["html"]

    def render_page(self, page_html: str) -> str:
        matches = list(MATH.finditer(page_html))
        if not matches:
            return page_html
        jobs = [(htmllib.unescape(m[2]).strip(), m[1] == "div") for m in matches]
        self._render(jobs)

        def replace(match: re.Match) -> str:
            job = (htmllib.unescape(match[2]).strip(), match[1] == "div")
            tag = match[1]
            if tag == "div":  # a wide display formula scrolls by itself (focusable, for the keyboard)
                return f'<div class="pz-math pz-math-display" tabindex="0" data-search-exclude>{self.cache[job]}</div>'
            return f'<span class="pz-math" data-search-exclude>{self.cache[job]}</span>'

        return MATH.sub(replace, page_html)


TOC_MATH = re.compile(r"\\\((.*?)\\\)")


def plain_toc_titles(items) -> None:
    """The table of contents shows a heading as plain text, where a formula would stay raw TeX
    with its \\( \\) delimiters: keep the formula's text, drop the delimiters."""
    for item in items:
        item.title = TOC_MATH.sub(lambda match: match[1].strip(), item.title)
        plain_toc_titles(item.children)
