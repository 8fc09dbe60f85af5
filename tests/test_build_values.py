"""Value macros: numbers in prose come from stepper functions (and run files), never typed."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from py_lessons.build.values import ValueMacroError, expand, format_number
from py_lessons.runtime.steppers import run_stepper

NO_RUNS = Path("/nonexistent")


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
    assert str(caught.value).startswith("line 3:")
