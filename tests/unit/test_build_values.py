"""Value macros: numbers in prose come from stepper functions (and run files), never typed."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from py_lessons.plugin.page.macros import ValueMacroError, expand
from py_lessons.plugin.render.runs.blocks import RunBlocks
from py_lessons.runtime.numbers import format_number
from py_lessons.runtime.steppers import run_stepper

NO_RUNS = RunBlocks(Path("/nonexistent")).value


def test_stepper_value_with_default_and_custom_inputs():
    grad = run_stepper("norm_clip")["inputs"]["grad"]
    norm = math.sqrt(sum(g * g for g in grad))  # computed here, independently of the stepper
    assert expand("norm {{ step:norm_clip:norm | .4g }}.", NO_RUNS) == f"norm {norm:.4g}."
    assert expand("{{ step:norm_clip(grad=[6, 8]):norm | .1f }}", NO_RUNS) == "10.0"


def test_bangla_digits_and_minus_sign():
    assert format_number(-12.5, ".1f", bangla=True) == "−১২.৫"
    assert format_number(float("nan")) == "NaN"
    assert expand("{{ step:norm_clip(grad=[6, 8]):norm | .0f | bn }}", NO_RUNS) == "১০"


def test_text_without_macros_and_code_braces_are_untouched():
    text = "```python\nd = {{'a': 1}}\nf'{{x}}'\n```\n"
    assert expand(text, NO_RUNS) == text


@pytest.mark.parametrize("macro, message", [
    ("{{ step:no_such_stepper:x }}", "no_such_stepper"),
    ("{{ step:norm_clip:missing_value }}", "has no value 'missing_value'"),
    ("{{ step:norm_clip }}", "cannot read"),
    ("{{ run:no_such_run:values.x }}", "no_such_run"),
])
def test_bad_macros_fail_with_their_line(macro, message):
    with pytest.raises(ValueMacroError, match=message) as caught:
        expand(f"first line\n\nvalue: {macro}", NO_RUNS)
    assert caught.value.line == 3 and caught.value.at("p.md").startswith(f"p.md:3: {macro}: ")


BANGLA = re.compile("[\u0980-\u09FF]")


@pytest.mark.parametrize("macro, first_line", [
    ("{{ step:norm_clp:norm }}", "no stepper named 'norm_clp' (did you mean 'norm_clip'?)"),
    ("{{ step:norm_clip(gradz=[6, 8]):norm }}", "stepper 'norm_clip' has no input 'gradz' (did you mean 'grad'?)"),
    ("{{ step:norm_clip(max_norm=-3):norm }}", "stepper 'norm_clip' rejects these inputs; what a reader would read:"),
    ("{{ step:norm_clip:norm | .2q }}", "the format '.2q' cannot write the float"),
])
def test_an_authors_mistake_in_a_step_macro_is_told_in_english_one_language_per_line(macro, first_line):
    with pytest.raises(ValueMacroError) as caught:
        expand(f"first line\n\nvalue: {macro}", NO_RUNS)
    lines = str(caught.value).split("\n")
    assert first_line in lines[0] and not BANGLA.search(lines[0])
    # the stepper's own message, written for readers, stands alone on the next line
    assert all(BANGLA.search(line) for line in lines[1:])


def _residual_products(x0: float, a: float, blocks: int) -> tuple[list[float], list[float]]:
    """∏F′ and ∏(1 + F′) for F(x) = σ(a·x), x ← x + F(x); worked out here, not with the stepper."""
    sig = lambda z: 1 / (1 + math.exp(-z))  # noqa: E731
    x, plain, resid, plains, resids = x0, 1.0, 1.0, [], []
    for _ in range(blocks):
        fprime = a * sig(a * x) * (1 - sig(a * x))
        plain, resid = plain * fprime, resid * (1 + fprime)
        plains.append(plain)
        resids.append(resid)
        x += sig(a * x)
    return plains, resids


def test_list_values_can_be_indexed_from_either_end():
    defaults = run_stepper("residual_chain")["inputs"]
    plains, resids = _residual_products(defaults["x0"], defaults["gain"], defaults["blocks"])
    assert expand("{{ step:residual_chain:plain_product[2] | .3g }}", NO_RUNS) == format(plains[2], ".3g")
    assert expand("{{ step:residual_chain:residual_product[-1] | .4g }}", NO_RUNS) == format(resids[-1], ".4g")
    assert expand("{{ step:residual_chain:plain_product[0] | .3g }}", NO_RUNS) == format(plains[0], ".3g")
    # with other inputs, and with Bangla digits
    plains5, _ = _residual_products(1.0, 2.0, 5)
    text = expand("{{ step:residual_chain(x0=1.0, gain=2.0, blocks=5):plain_product[-2] | .3e | bn }}", NO_RUNS)
    mantissa, exponent = format(plains5[-2], ".3e").split("e")  # powers of ten in prose: × 10ⁿ
    assert text == _bangla(f"{mantissa} × 10{_superscript(int(exponent))}")


def test_list_index_of_gradient_descent_trail_matches_closed_form():
    # w_k = w* + (w0 − w*)·(1 − 2x²·lr)^k for loss (x·w − y)²
    x, y, w0, lr = 2.0, 10.0, 0.0, 0.1
    w_star, factor = y / x, 1 - 2 * x * x * lr
    w3 = w_star + (w0 - w_star) * factor ** 3
    assert expand("{{ step:gd_update:w[3] | .6f }}", NO_RUNS) == f"{w3:.6f}"
    w_last = w_star + (w0 - w_star) * factor ** 5
    loss_last = (x * w_last - y) ** 2
    mantissa, exponent = format(loss_last, ".6g").split("e")
    assert expand("{{ step:gd_update:loss[-1] | .6g }}", NO_RUNS) == f"{mantissa} × 10{_superscript(int(exponent))}"
    # a list inside the inputs and an index in the key do not get in each other's way
    assert expand("{{ step:norm_clip(grad=[6, 8], max_norm=5):clipped[1] | .1f }}", NO_RUNS) == "4.0"


@pytest.mark.parametrize("macro, message", [
    ("{{ step:residual_chain:plain_product[10] }}", "out of range"),
    ("{{ step:residual_chain:plain_product[-11] }}", "out of range"),
    ("{{ step:norm_clip:norm[0] }}", "not a list"),
    ("{{ step:residual_chain:no_list[0] }}", "has no value"),
    ("{{ step:residual_chain:plain_product[x] }}", "cannot read"),
    ("{{ step:residual_chain:plain_product[] }}", "cannot read"),
])
def test_bad_list_indices_fail_with_their_line(macro, message):
    with pytest.raises(ValueMacroError, match=message) as caught:
        expand(f"first line\n\nvalue: {macro}", NO_RUNS)
    assert caught.value.line == 3 and caught.value.at("p.md").startswith(f"p.md:3: {macro}: ")


def _superscript(n: int) -> str:
    return "".join("⁰¹²³⁴⁵⁶⁷⁸⁹⁻"["0123456789-".index(ch)] for ch in str(n))


def _bangla(text: str) -> str:
    return "".join("০১২৩৪৫৬৭৮৯"[int(ch)] if ch in "0123456789" else ch for ch in text)
