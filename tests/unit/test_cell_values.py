"""What a cell printed, quoted in prose ({{ cell:… }}) and asserted (cell-claim), from build results."""

from __future__ import annotations

import math
import re

import pytest

from py_lessons.plugin.page import claims as cell_claims
from py_lessons.plugin.page.selectors import (SelectorError, parse_selector, printed_numbers, read_value, select,
                                           value_code)
from py_lessons.plugin.page.fences import read_fences
from py_lessons.plugin.page.macros import ValueMacroError, cell_requests, check_no_leftovers, expand_cells
from py_lessons.runtime.execute import new_namespace, run_cell

COMPONENTS = {"mcq", "reveal"}


def entry(text: str, values: dict | None = None) -> dict:
    found = {"items": [{"type": "stdout", "text": text}, {"type": "stderr", "text": "warning 99\n"}],
             "result": {"ok": True}}
    if values is not None:
        found["values"] = values
    return found


OUTPUTS = {
    "sweep": entry("step 1: loss = 0.25\nstep 2: loss = -1.5e-3\n\nfinal: nan, inf, −2, ৩.৫ < 4\n"),
    "words": entry("x1 float16 fp32 banana info: 42\n"),
    "calc": entry("", {"w * 2": {"ok": True, "value": 7.5}, "name": {"ok": True, "value": "রুমা"},
                       "w > 0": {"ok": True, "value": True},
                       "missing": {"ok": False, "error": "NameError: name 'missing' is not defined"}}),
}


def quote(text: str, outputs=OUTPUTS) -> str:
    return expand_cells(text, read_fences(text), COMPONENTS, outputs)


def test_numbers_are_read_as_print_writes_them():
    numbers = printed_numbers(OUTPUTS["sweep"]["items"][0]["text"])
    assert numbers[0] == 1 and isinstance(numbers[0], int)
    assert numbers[1:4] == [0.25, 2, -0.0015]
    assert math.isnan(numbers[4]) and numbers[5] == math.inf
    assert numbers[6:] == [-2, 3.5, 4]
    # digits inside names are not numbers; stderr is not what the cell printed
    assert printed_numbers(OUTPUTS["words"]["items"][0]["text"]) == [42]


@pytest.mark.parametrize("macro, shown", [
    ("{{ cell:sweep:number[1] }}", "0.25"),
    ("{{ cell:sweep:number[3] | .2e }}", "−1.50 × 10⁻³"),      # the one formatter: minus sign, × 10ⁿ
    ("{{ cell:sweep:number[-1] | bn }}", "৪"),
    ("{{ cell:sweep:number[-2] | .2f | bn }}", "৩.৫০"),
    ("{{ cell:sweep:number[4] }}", "NaN"),
    ("{{ cell:sweep:line[0] }}", "step 1: loss = 0.25"),
    ("{{ cell:sweep:line[2] }}", ""),                            # blank lines count
    ("{{ cell:sweep:line[-1] }}", "final: nan, inf, −2, ৩.৫ &lt; 4"),
    ("{{ cell:sweep:line[1] | bn }}", "step ২: loss = -১.৫e-৩"),
    ("{{cell:calc:value(w * 2)|.1f}}", "7.5"),
    ("{{ cell:calc:value(name) }}", "রুমা"),
])
def test_cell_macros_quote_the_selected_output(macro, shown):
    assert quote(f"আগে {macro} পরে") == f"আগে {shown} পরে"


def test_macros_in_code_stay_as_written_and_in_components_are_filled_in():
    text = ("`{{ cell:sweep:number[0] }}`\n\n````markdown\n{{ cell:sweep:number[0] }}\n````\n\n"
            "```mcq\nquestion: \"{{ cell:sweep:number[1] }}?\"\n```\n")
    assert quote(text) == text.replace('"{{ cell:sweep:number[1] }}?"', '"0.25?"')


def test_value_requests_are_collected_before_cells_run():
    text = "{{ cell:calc:value(w * 2) }} {{ cell:sweep:number[0] }} `{{ cell:calc:value(hidden) }}`"
    assert cell_requests(text, read_fences(text), COMPONENTS) == [("calc", "w * 2")]


@pytest.mark.parametrize("macro, message", [
    ("{{ cell:nope:number[0] }}", "no pycell with id 'nope'"),
    ("{{ cell:sweep:number[9] }}", "printed 9 number(s), so number[9] is out of range"),
    ("{{ cell:sweep:number[-10] }}", "out of range"),
    ("{{ cell:sweep:line[4] }}", "printed 4 line(s)"),
    ("{{ cell:sweep:line[0] | .2f }}", "is a text"),
    ("{{ cell:sweep:numbers[0] }}", "cannot read the selector"),
    ("{{ cell:sweep }}", "write {{ cell:ID:SELECTOR }}"),
    ("{{ cell:calc:value(missing) }}", "NameError"),
    ("{{ cell:calc:value(w >) }}", "not a Python expression"),
    ("{{ cell:calc:value(w > 0) }}", "cell-claim"),
    ("{{ cell:sweep:number[0] | .2q }}", "the format '.2q' cannot write the int 1"),
])
def test_bad_cell_macros_name_their_line_and_what_the_cell_printed(macro, message):
    with pytest.raises(ValueMacroError, match=re.escape(message)) as caught:
        quote(f"first\n\nvalue: {macro}")
    assert caught.value.line == 3
    if "range" in message:
        assert "step 1: loss = 0.25" in str(caught.value)  # what the cell printed


@pytest.mark.parametrize("left, hint", [
    ("{{ stp:gd_update:factor | .2f }}", "did you mean {{ step:… }}?"),
    ("{{ cel:sweep:number[0] }}", "did you mean {{ cell:… }}?"),
    ("{{ step:f(x={1}):y }}", "may not hold |, { or }"),   # braces in the body: no macro pattern took it
    ("{{ w }}", "a macro is {{ step:… }}"),
])
def test_a_macro_left_as_written_in_prose_names_its_line_and_the_kind_meant(left, hint):
    text = f"first\n\n`{{{{ stp:in_code }}}}` and {left}\n"
    with pytest.raises(ValueMacroError, match=re.escape(hint)) as caught:
        check_no_leftovers(text, read_fences(text), COMPONENTS)
    assert caught.value.line == 3
    assert left in str(caught.value)


def test_braces_of_formulas_and_code_are_not_macros():
    text = "$x^{{2}}$ and $\\frac{{a}}{b}$\n\n```python\nprint(f\"{{ stp:x }}\")\n```\n"
    check_no_leftovers(text, read_fences(text), COMPONENTS)  # raises nothing


def test_value_code_runs_in_the_namespace_binds_no_name_and_is_read_back():
    namespace = new_namespace()
    run_cell("import numpy as np\nw = np.float64(3.75)\nn = np.int64(6)", namespace, lambda item: None)
    before = dict(namespace)
    for expr, expected in [("w * 2", 7.5), ("n * 2", 12), ("str(n)", "6"), ("w > 1", True)]:
        items = []
        result = run_cell(value_code(expr), namespace, items.append)
        assert read_value({"items": items, "result": result}) == {"ok": True, "value": expected}
    assert namespace == before  # a later cell listing its namespace sees nothing new
    items = []
    result = run_cell(value_code("v"), namespace, items.append)
    assert read_value({"items": items, "result": result}) == {"ok": False, "error": "NameError: name 'v' is not defined"}


def claim(body: str):
    parsed = cell_claims.parse(body)
    return cell_claims.check(parsed, OUTPUTS), parsed


@pytest.mark.parametrize("body", [
    "cell: sweep\nselect: number[1]\nequals: 0.25",
    "cell: sweep\nselect: number[4]\nequals: nan",
    "cell: sweep\nselect: number[-1]\nequals: 4",
    "cell: sweep\nselect: line[0]\nequals: 'step 1: loss = 0.25'",
    "cell: sweep\nselect: number[3]\napprox: -0.0016\ntol: 0.0002",
    "cell: sweep\nselect: number[3]\napprox: -0.0016\nrtol: 0.1",
    "cell: sweep\nselect: number[1]\nlt: 0.3\ngt: 0.2",
    "cell: sweep\nselect: line[-1]\ncontains: nan, inf",
    "cell: calc\nselect: value(w > 0)\nequals: true",
])
def test_claims_that_hold(body):
    claim(body)


@pytest.mark.parametrize("body, stated, actual", [
    ("cell: sweep\nselect: number[1]\nequals: 0.5", "equals 0.5", "0.25"),
    ("cell: sweep\nselect: number[3]\napprox: -0.0016\ntol: 0.00005", "≈ -0.0016 (within 5e-05)", "-0.0015"),
    ("cell: sweep\nselect: number[3]\napprox: -0.0016\nrtol: 0.01", "≈ -0.0016", "-0.0015"),
    ("cell: sweep\nselect: number[4]\napprox: 1\ntol: 1000", "≈ 1", "nan"),
    ("cell: sweep\nselect: number[1]\nlt: 0.2", "< 0.2", "0.25"),
    ("cell: sweep\nselect: number[1]\ngt: 0.3", "> 0.3", "0.25"),
    ("cell: sweep\nselect: line[0]\ncontains: accuracy", "contains 'accuracy'", "'step 1: loss = 0.25'"),
    ("cell: sweep\nselect: line[0]\nequals: 0.25", "equals 0.25", "'step 1: loss = 0.25'"),
    ("cell: calc\nselect: value(w > 0)\nequals: 1", "equals 1", "True"),
])
def test_claims_that_fail_say_the_claim_and_the_actual_value(body, stated, actual):
    with pytest.raises(cell_claims.ClaimError) as caught:
        claim(body)
    message = str(caught.value)
    assert "claim failed" in message and stated in message and f"actual value: {actual}" in message


@pytest.mark.parametrize("body, message", [
    ("cell: sweep\nselect: number[1]", "states nothing"),
    ("select: number[1]\nlt: 1", "needs cell"),
    ("cell: sweep\nselect: number[1]\napprox: 1", "approx needs tol"),
    ("cell: sweep\nselect: number[1]\nlt: 1\ntol: 1", "approx needs tol"),
    ("cell: sweep\nselect: number[1]\nlt: small", "lt must be a number"),
    ("cell: sweep\nselect: number[1]\nlt: 1\nshows: true", "unknown key"),
    ("cell: sweep\nselect: first\nlt: 1", "cannot read the selector"),
])
def test_malformed_claims_are_rejected(body, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        cell_claims.parse(body)


def test_a_claim_on_a_missing_cell_lists_the_cells():
    with pytest.raises(cell_claims.ClaimError, match="no pycell with id 'gone'.*calc, sweep, words"):
        claim("cell: gone\nselect: number[0]\nlt: 1")


def test_a_claim_renders_nothing_or_its_value_through_the_formatter():
    value, parsed = claim("cell: sweep\nselect: number[3]\nlt: 0")
    # checked at build: a comment, no element for a phone to lay out
    assert cell_claims.render(parsed, value) == "<!-- cell-claim sweep: number[3] -->"
    value, parsed = claim("cell: sweep\nselect: number[3]\nlt: 0\nshow: true\nformat: .1e\nbangla_digits: true")
    assert ">−১.৫ × ১০⁻³</span>" in cell_claims.render(parsed, value)


def test_selectors_read_and_print_back():
    assert str(parse_selector(" number[-2] ")) == "number[-2]"
    assert str(parse_selector("value(a[1:3].sum())")) == "value(a[1:3].sum())"
    with pytest.raises(SelectorError):
        select(OUTPUTS["calc"], parse_selector("value(not_requested)"), "calc")


def test_a_comment_cannot_be_ended_early_by_what_it_quotes():
    from py_lessons.plugin.base.html import comment
    assert comment("value(a-->b)") == "<!-- value(a- -&gt;b) -->"
