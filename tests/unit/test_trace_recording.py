"""Stepping through a cell (py_lessons.runtime.trace, through session.run as the page's worker
calls it): the recorded steps of small programs equal the hand-written ones of
tests/support/trace_cases.py, the bounds hold, summaries stay small whatever the value, and a
traced run leaves the session as a Run would."""

from __future__ import annotations

import json

import numpy as np
import pytest

from py_lessons.runtime import session, trace
from support.trace_cases import CASES, NUMPY_IN_PLACE, NUMPY_IN_PLACE_ARRAYS, arrays_of, compact


def traced(code, bounds=None, session_name=None):
    items = []
    result = json.loads(session.run(code, session_name, lambda item: items.append(json.loads(item)), "fig", "[]",
                                    json.dumps(bounds or {})))
    return result, items


@pytest.mark.parametrize("name", sorted(CASES))
def test_steps_equal_the_hand_written_ones(name):
    code, expected = CASES[name]
    result, _ = traced(code)
    assert compact(result["trace"]["steps"]) == [tuple(step) for step in expected]
    assert result["trace"]["limited"] is False


def test_an_exception_mid_loop_ends_the_run_as_run_does():
    code, _ = CASES["exception_mid_loop"]
    result, _ = traced(code)
    assert (result["ok"], result["error"], result["line"]) == (False, "ValueError", 5)
    assert "ValueError: two" in result["traceback"]


def test_recursion_names_the_calls_around_the_step():
    code, _ = CASES["recursion"]
    steps = traced(code)[0]["trace"]["steps"]
    deepest = max(steps, key=lambda step: step["depth"])
    # fact(1) runs inside fact(2) (line 4), inside fact(3) (line 4), inside the cell (line 5)
    assert deepest["stack"] == [["", 5], ["fact", 4], ["fact", 4]]


def test_a_numpy_update_in_place_is_a_change():
    result, _ = traced(NUMPY_IN_PLACE)
    assert arrays_of(result["trace"]["steps"], "w") == NUMPY_IN_PLACE_ARRAYS


def test_a_change_the_summary_does_not_show_is_still_a_change():
    """A list's fifth item and one entry in the middle of an array are beyond what a summary shows
    (four items; min, max, mean to four digits and a corner): still, the line changed them."""
    code = ("import numpy as np\nnorms = [0.0] * 8\nnorms[6] = 2.5\na = np.zeros(1000)\na[500] = 1e-9\n"
            "a[500] = 1e-9\n")
    steps = traced(code)[0]["trace"]["steps"]
    by_line = {step["line"]: set(step["changed"]) for step in steps}
    assert by_line[3] == {"norms"} and by_line[5] == {"a"}
    assert by_line[6] == set()  # the same value written again: no change


def test_only_this_cells_code_is_stepped_through():
    """An earlier cell's function and NumPy's own Python run untraced: their lines are not the
    reader's cell's lines."""
    traced("def helper(a):\n    b = a + 1\n    return b\n", session_name="s-own")  # another cell
    result, _ = traced("import numpy as np\ny = helper(1)\nz = np.linspace(0, 1, 3)\n", session_name="s-own")
    steps = result["trace"]["steps"]
    assert [(step["line"], step["fn"]) for step in steps] == [(1, ""), (2, ""), (3, "")]
    assert steps[1]["changed"]["y"]["text"] == "2"


def test_a_step_knows_the_output_written_before_it():
    result, items = traced("print('ab')\nprint('cde')\n")
    assert [step["out"] for step in result["trace"]["steps"]] == [len("ab\n"), len("ab\ncde\n")]
    assert "".join(item["text"] for item in items) == "ab\ncde\n"


def test_a_million_step_loop_is_recorded_up_to_the_bound_and_runs_to_its_end():
    """Past the bound the cell runs on untraced, as Run would: its output and its variables are
    whole, so the next cells of the session find what a Run leaves."""
    result, items = traced("def bump(v):\n    return v + 1\ni = 0\nwhile i < 10**6:\n    if i == 999_999:\n"
                           "        print('last')\n    i = bump(i)\n", {"maxSteps": 100}, session_name="s-bound")
    assert result["ok"] is True
    assert len(result["trace"]["steps"]) == 100 and result["trace"]["limited"] is True
    assert "".join(item["text"] for item in items) == "last\n"
    assert session._sessions["s-bound"]["i"] == 10**6


def test_the_byte_budget_holds():
    # every step changes a 30-character string: each step's JSON is about 120 bytes
    budget = 4_000
    result, _ = traced("for k in range(1000):\n    s = str(k) * 30\n", {"maxBytes": budget})
    steps = result["trace"]["steps"]
    assert result["trace"]["limited"] is True and 20 < len(steps) < 1000
    assert sum(len(json.dumps(step, ensure_ascii=False).encode()) + 1 for step in steps) <= budget


@pytest.mark.parametrize("value", [
    np.arange(10**6, dtype=np.float32).reshape(1000, 1000),
    np.zeros((50, 40, 30)),
    list(range(10**6)),
    {i: str(i) * 100 for i in range(1000)},
    "ক" * 10**6,
    [[list(range(1000))] * 1000],
])
def test_a_summary_is_small_whatever_the_value(value):
    summary = trace.summarise(value)
    assert len(json.dumps(summary, allow_nan=False).encode()) < 600


def test_an_array_summary_counts_nan_and_inf_and_keeps_a_corner():
    a = np.arange(30.0).reshape(5, 6)
    a[0, 0], a[4, 5] = np.inf, np.nan
    summary = trace.summarise(a)
    assert (summary["nan"], summary["inf"]) == (1, 1)
    assert (summary["min"], summary["max"]) == (1.0, 28.0)
    assert summary["corner"] == [["inf", 1.0, 2.0, 3.0], [6.0, 7.0, 8.0, 9.0], [12.0, 13.0, 14.0, 15.0],
                                 [18.0, 19.0, 20.0, 21.0]]
    json.dumps(summary, allow_nan=False)  # the page's JSON.parse takes it


def test_a_traced_run_leaves_the_session_as_run_would():
    code = ("import numpy as np\nw = np.ones(3)\nfor step in range(4):\n    w -= 0.1 * w\n"
            "def loss(v):\n    return float((v ** 2).sum())\nfinal = loss(w)\n")
    session.run(code, "s-run", lambda item: None, "fig", "[]")
    traced(code, session_name="s-trace")
    ran, stepped = session._sessions["s-run"], session._sessions["s-trace"]
    assert sorted(ran) == sorted(stepped)
    assert np.array_equal(ran["w"], stepped["w"]) and ran["final"] == stepped["final"] and ran["step"] == stepped["step"]


def test_no_trace_without_asking():
    result = json.loads(session.run("x = 1\n", None, lambda item: None, "fig", "[]"))
    assert "trace" not in result


def test_a_traced_check_steps_through_the_readers_function_on_the_failing_case():
    """The checks call the reader's function with the case that fails: its lines are steps, the
    checks' own lines are not (they are hidden from the reader)."""
    code = "def double(x):\n    y = x + x\n    if x > 2:\n        y = y - 1\n    return y\n"
    checks = "assert double(1) == 2\nassert double(3) == 6, 'double(3)'\n"
    outcome = json.loads(session.check(code, checks, lambda item: None, "exercise", "{}"))
    assert (outcome["stage"], outcome["result"]["error"]) == ("checks", "AssertionError")
    steps = outcome["result"]["trace"]["steps"]
    assert compact(steps) == [
        (1, "", 0, {"double": "double"}),
        (2, "double", 0, {"x": "1", "y": "2"}),   # double(1), called by the checks: no cell frame around it
        (3, "double", 0, {}),
        (5, "double", 0, {}, {"returned": "2"}),
        (2, "double", 0, {"x": "3", "y": "6"}),   # double(3): the failing case
        (3, "double", 0, {}),
        (4, "double", 0, {"y": "5"}),
        (5, "double", 0, {}, {"returned": "5"}),
    ]


def test_an_untraced_check_has_no_trace():
    outcome = json.loads(session.check("x = 1\n", "assert x == 1\n", lambda item: None))
    assert outcome["result"]["ok"] and "trace" not in outcome["result"]
