"""Checking a code exercise: the reader's code, then the exercise's hidden checks, in one fresh
namespace. The one implementation: the build verifies each exercise with it (the solution must
pass, the starter must not) and the reader's Check button calls it in the page's Pyodide.
"""

from __future__ import annotations

from . import execute

CHECKS_FILENAME = "<checks>"


def check_exercise(code: str, checks: str, emit, figure_prefix: str = "exercise") -> dict:
    """``emit`` gets the reader's code's output items (the checks' own output is not shown).
    Returns ``{"stage": "code" | "checks", "result": {...}}``: the stage that decided, and its
    run_cell result. The page tells the reader only an AssertionError's message (the checks are
    hidden); the build shows authors the whole traceback."""
    namespace = execute.new_namespace()
    try:
        first = execute.run_cell(code, namespace, emit, figure_prefix=figure_prefix)
        if not first["ok"]:
            return {"stage": "code", "result": first}
        second = execute.run_cell(checks, namespace, lambda item: None, figure_prefix=f"{figure_prefix}-checks",
                                  filename=CHECKS_FILENAME)
        return {"stage": "checks", "result": second}
    finally:
        namespace.clear()  # nothing of an attempt is kept
