"""Stepping through a cell in the Python a reader's page runs (Pyodide's CPython 3.12, the built
site's own runtime wheel, through the build's runner and protocol.js's RUN with `trace`): the
same hand-written steps as the CPython unit tests (tests/support/trace_cases.py)."""

from __future__ import annotations

import pytest

from py_lessons.plugin.execute.runner import PyodideRunner
from support.trace_cases import CASES, NUMPY_IN_PLACE, NUMPY_IN_PLACE_ARRAYS, arrays_of, compact


@pytest.fixture(scope="module")
def runner(built_site):
    started = PyodideRunner(built_site / "pyodide")
    yield started
    started.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_steps_in_pyodide_equal_the_hand_written_ones(runner, name):
    code, expected = CASES[name]
    answer = runner.run(code, None, "trace", 120, trace={})
    assert compact(answer["result"]["trace"]["steps"]) == [tuple(step) for step in expected]


def test_a_numpy_update_in_place_in_pyodide(runner):
    answer = runner.run(NUMPY_IN_PLACE, None, "trace", 120, trace={})
    assert arrays_of(answer["result"]["trace"]["steps"], "w") == NUMPY_IN_PLACE_ARRAYS


def test_the_bound_in_pyodide(runner):
    answer = runner.run("i = 0\nwhile i < 10**6:\n    i += 1\n", None, "trace", 120, trace={"maxSteps": 2000})
    assert answer["result"]["ok"] and len(answer["result"]["trace"]["steps"]) == 2000
    assert answer["result"]["trace"]["limited"] is True


def test_a_run_without_trace_has_none(runner):
    assert "trace" not in runner.run("x = 1\n", None, "plain", 120)["result"]
