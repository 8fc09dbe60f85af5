"""The one number formatter (py_lessons.runtime.numbers): expected texts are written out by hand
from the rules (Bangla digits, Indian grouping, × 10ⁿ in prose, typographic minus)."""

from __future__ import annotations

import pytest

from py_lessons.runtime.numbers import bn_digits, format_number, group_indian


@pytest.mark.parametrize("digits, grouped", [
    ("7", "7"), ("770", "770"), ("3770", "3,770"), ("70003770", "7,00,03,770"),
    ("123456789012", "1,23,45,67,89,012"),
])
def test_indian_grouping(digits, grouped):
    assert group_indian(digits) == grouped


@pytest.mark.parametrize("value, spec, options, text", [
    (70003770, ",", {"bangla": True}, "৭,০০,০৩,৭৭০"),
    (1234567.891, ",.1f", {}, "12,34,567.9"),
    (3590000.0, ".3g", {"bangla": True, "prose": True}, "৩.৫৯ × ১০⁶"),
    (0.0000123, ".2e", {"prose": True}, "1.23 × 10⁻⁵"),
    (0.0000123, ".2e", {}, "1.23e−05"),
    (-0.5, "", {}, "−0.5"),
    (-12.5, ".1f", {"bangla": True}, "−১২.৫"),
    (0.00048612, "", {"sig": 4}, "0.0004861"),
    (2.785e-7, "", {"sig": 4}, "2.785e−7"),
    (2.785e-7, "", {"sig": 4, "bangla": True, "prose": True}, "২.৭৮৫ × ১০⁻⁷"),
    (1234567, "", {"sig": 4}, "1.235e6"),
    (4.0, "", {"sig": 4}, "4"),
    (float("nan"), ".2f", {}, "NaN"),
    (float("inf"), "", {"bangla": True}, "∞"),
    (float("-inf"), "", {}, "−∞"),
    ("text", ".2f", {"bangla": True}, "text"),
    # zero is zero at every power of ten (a run table's vanished gradient), and has no sign
    (0.0, ".1e", {"bangla": True}, "০.০"),
    (-0.0, ".1e", {"bangla": True}, "০.০"),
    (0.0, ".2e", {"prose": True}, "0.00"),
])
def test_format_number(value, spec, options, text):
    assert format_number(value, spec, **options) == text


def test_bn_digits_leaves_everything_else():
    assert bn_digits("x = 2.5e-3, n=10") == "x = ২.৫e-৩, n=১০"
