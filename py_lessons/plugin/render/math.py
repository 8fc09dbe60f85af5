"""Formulas rendered to MathML with KaTeX at build time, so pages do not reflow and need no JS for maths.

One rendering per formula: MathML, which Chromium, Firefox and Safari lay out themselves (MathML
Core) with the math font the site ships (ship/vendor.py), and which screen readers read. KaTeX's
HTML form drew each formula a second time, in 4-8 elements per symbol: on the longest part of a
lesson it was a third of the page's elements, and style and layout of the elements is what a phone
waits for. The TeX source KaTeX keeps beside the MathML (<semantics>/<annotation>) is left out too.

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
# KaTeX's wrapper: <span class="katex"><math ...><semantics>BODY<annotation ...>TEX</annotation></semantics></math></span>
KATEX_MATHML = re.compile(r'^<span class="katex">(<math[^>]*>)<semantics>(.*)<annotation encoding="application/x-tex">'
                          r'.*</annotation></semantics></math></span>$', re.DOTALL)
MATH = re.compile(r'<(span|div) class="arithmatex">(?:\\\(|\\\[)(.*?)(?:\\\)|\\\])</\1>', re.DOTALL)
TAG = re.compile(r"<[^>]*>")


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
            self.cache[job] = bare_mathml(answer["html"])

    def formula_text(self) -> str:
        """The characters of every formula this build drew: what the site's math font must hold."""
        return "".join(htmllib.unescape(TAG.sub("", mathml)) for mathml in self.cache.values())

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
            # inline, the formula is its own box: the class and the search mark go on <math> itself
            return self.cache[job].replace("<math ", '<math class="pz-math" data-search-exclude ', 1)

        return MATH.sub(replace, page_html)


# f' is a prime set as a superscript (<msup>); the prime glyph already sits high, so as a
# superscript it shrank to a speck beside the letter: it follows the letter instead, as in print.
PRIMED = re.compile(r"<msup>(<mi>[^<]*</mi>)(<mo[^>]*>[′″‴]</mo>)</msup>")


def bare_mathml(katex_html: str) -> str:
    """The <math> element alone: without KaTeX's span (its stylesheet is not shipped), the TeX
    annotation (two more elements per formula that no reader sees) and the outer <mrow>."""
    match = KATEX_MATHML.match(katex_html)
    if not match:
        raise BlockError(f"KaTeX wrote MathML of an unknown shape: {katex_html[:200]!r}")
    body = PRIMED.sub(r"<mrow>\1\2</mrow>", match[2])
    return f"{match[1]}{without_outer_mrow(body)}</math>"


MROW = re.compile(r"<(/?)mrow\b[^>]*>")


def without_outer_mrow(body: str) -> str:
    """KaTeX wraps a formula's whole body in one <mrow>; <math> already lays its children out as
    an mrow does (MathML Core), so that one is an element per formula that changes nothing."""
    tags = list(MROW.finditer(body))
    if not tags or tags[0].start() != 0 or tags[-1].end() != len(body) or tags[-1][1] != "/":
        return body
    depth = 0
    for tag in tags:
        depth += -1 if tag[1] else 1
        if depth == 0:  # where the first <mrow> closes: the body is that one element only at the end
            return body[tags[0].end():tags[-1].start()] if tag is tags[-1] else body
    return body


TOC_MATH = re.compile(r"\\\((.*?)\\\)")


def plain_toc_titles(items) -> None:
    """The table of contents shows a heading as plain text, where a formula would stay raw TeX
    with its \\( \\) delimiters: keep the formula's text, drop the delimiters."""
    for item in items:
        item.title = TOC_MATH.sub(lambda match: match[1].strip(), item.title)
        plain_toc_titles(item.children)
