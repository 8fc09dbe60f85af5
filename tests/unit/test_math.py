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
    assert out.startswith('<p>loss <math class="pz-math" data-search-exclude xmlns=')  # no wrapper
    assert '<div class="pz-math pz-math-display" tabindex="0" data-search-exclude><math' in out


def test_the_outer_mrow_goes_and_nothing_else(renderer):
    """<math> lays its children out as an <mrow>: KaTeX's one around the whole body is dropped;
    an mrow that groups only part of the formula, or one of several at the top, stays."""
    out = renderer.render_page('<span class="arithmatex">\\(x + F(x)\\)</span>')
    assert re.fullmatch(r'<math class="pz-math" data-search-exclude xmlns="[^"]+"><mi>x</mi><mo>\+</mo>.*</math>', out)
    assert "<mrow>" not in out
    grouped = renderer.render_page('<span class="arithmatex">\\(h_{l-1}\\)</span>')
    assert "<msub><mi>h</mi><mrow><mi>l</mi><mo>−</mo><mn>1</mn></mrow></msub>" in grouped
    assert not re.search(r"<math[^>]*><mrow>", grouped)
    from py_lessons.plugin.render.math import without_outer_mrow
    two = "<mrow><mi>a</mi></mrow><mrow><mi>b</mi></mrow>"
    assert without_outer_mrow(two) == two
    assert without_outer_mrow("<mrow><mrow><mi>a</mi></mrow><mi>b</mi></mrow>") == "<mrow><mi>a</mi></mrow><mi>b</mi>"


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
