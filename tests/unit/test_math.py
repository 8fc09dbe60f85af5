"""Formulas as one MathML rendering (render/math.py, issue 23): KaTeX's HTML copy, its wrapper and
the TeX annotation are left out; a prime follows its letter instead of shrinking as a superscript."""

from __future__ import annotations

import re

import pytest

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.base.errors import BlockError
from py_lessons.plugin.render.math import MathRenderer


@pytest.fixture(scope="module")
def renderer():
    return MathRenderer(dependencies.node_modules())


def test_a_page_gets_bare_mathml_inline_and_displayed(renderer):
    page = ('<p>loss <span class="arithmatex">\\(L(w) = \\frac{1}{n}\\sum_i x_i\\)</span></p>'
            '<div class="arithmatex">\\[\\sqrt{v} + \\epsilon\\]</div>')
    out = renderer.render_page(page)
    assert "arithmatex" not in out and "katex" not in out
    assert "<annotation" not in out and "<semantics" not in out
    inline, display = re.findall(r"<math\b[^>]*>", out)
    assert "display" not in inline and 'display="block"' in display
    assert "<mfrac>" in out and "<msqrt>" in out and "<munder>" not in out  # inline: a sum's limits go beside it
    assert out.startswith('<p>loss <span class="pz-math" data-search-exclude><math')
    assert '<div class="pz-math pz-math-display" tabindex="0" data-search-exclude><math' in out


def test_a_prime_follows_its_letter(renderer):
    out = renderer.render_page('<span class="arithmatex">\\(F\' + \\sigma\'(z)\\)</span>')
    assert "<msup>" not in out
    assert re.search(r"<mrow><mi>F</mi><mo[^>]*>′</mo></mrow>", out)
    assert re.search(r"<mrow><mi>σ</mi><mo[^>]*>′</mo></mrow>", out)
    # a real superscript stays one
    assert "<msup>" in renderer.render_page('<span class="arithmatex">\\(x^2\\)</span>')


def test_a_formula_katex_cannot_read_fails_with_its_text(renderer):
    with pytest.raises(BlockError, match=r"\\frac\{1"):
        renderer.render_page('<span class="arithmatex">\\(\\frac{1\\)</span>')
