"""Checking a code exercise: the reader's code, then the exercise's hidden checks, in one fresh
namespace. The one implementation: the build verifies each exercise with it (the solution must
pass, the starter must not) and the reader's Check button calls it in the page's Pyodide.
"""

from __future__ import annotations

from . import execute

CHECKS_FILENAME = "<checks>"


def check_exercise(code: str, checks: str, emit, figure_prefix: str = "exercise", tracer=None) -> dict:
    """``emit`` gets the reader's code's output items (the checks' own output is not shown).
    Returns ``{"stage": "code" | "checks", "result": {...}}``: the stage that decided, and its
    run_cell result. The page tells the reader only an AssertionError's message (the checks are
    hidden); the build shows authors the whole traceback. ``tracer`` (execute.run_cell's): one
    recording of the reader's code through both stages, so the checks' calls of the reader's
    functions (the failing case) are stepped through too, and the checks' own lines are not."""
    namespace = execute.new_namespace()
    if tracer is not None:
        make, made = tracer, []

        def tracer(compiled, output_units):  # the reader's code's recorder, kept for the checks
            if not made:
                made.append(make(compiled, output_units))
            return made[0]
    try:
        first = execute.run_cell(code, namespace, emit, figure_prefix=figure_prefix, tracer=tracer)
        if not first["ok"]:
            return {"stage": "code", "result": first}
        second = execute.run_cell(checks, namespace, lambda item: None, figure_prefix=f"{figure_prefix}-checks",
                                  filename=CHECKS_FILENAME, tracer=tracer)
        return {"stage": "checks", "result": second}
    finally:
        namespace.clear()  # nothing of an attempt is kept
