"""Small programs and, written by hand from Python's rules, the steps a trace of each must record:
one step per executed line of the cell's own code once it has run, as (line, function, depth,
{changed variable: its summary's text}), and what a step adds (an exception, a returned value).
The CPython unit tests and the Pyodide build test both hold py_lessons.runtime.trace to these."""

from __future__ import annotations

LOOP_AND_CALL = """\
def f(n):
    total = 0
    for i in range(n):
        total += i
    return total
x = f(3)
"""
LOOP_AND_CALL_STEPS = [
    (1, "", 0, {"f": "f"}),
    (2, "f", 1, {"n": "3", "total": "0"}),
    (3, "f", 1, {"i": "0"}),
    (4, "f", 1, {}),                       # total += 0 leaves total as it was
    (3, "f", 1, {"i": "1"}),
    (4, "f", 1, {"total": "1"}),
    (3, "f", 1, {"i": "2"}),
    (4, "f", 1, {"total": "3"}),
    (3, "f", 1, {}),                       # range(3) is spent: the loop ends
    (5, "f", 1, {}, {"returned": "3"}),
    (6, "", 0, {"x": "3"}),
]

EXCEPTION_MID_LOOP = """\
seen = []
for i in range(5):
    seen.append(i)
    if i == 2:
        raise ValueError("two")
"""
EXCEPTION_MID_LOOP_STEPS = [
    (1, "", 0, {"seen": "[]"}),
    (2, "", 0, {"i": "0"}),
    (3, "", 0, {"seen": "[0]"}),
    (4, "", 0, {}),
    (2, "", 0, {"i": "1"}),
    (3, "", 0, {"seen": "[0, 1]"}),
    (4, "", 0, {}),
    (2, "", 0, {"i": "2"}),
    (3, "", 0, {"seen": "[0, 1, 2]"}),
    (4, "", 0, {}),
    (5, "", 0, {}, {"exception": "ValueError: two"}),
]

RECURSION = """\
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
r = fact(3)
"""
RECURSION_STEPS = [
    (1, "", 0, {"fact": "fact"}),
    (2, "fact", 1, {"n": "3"}),
    (2, "fact", 2, {"n": "2"}),
    (2, "fact", 3, {"n": "1"}),
    (3, "fact", 3, {}, {"returned": "1"}),
    (4, "fact", 2, {}, {"returned": "2"}),
    (4, "fact", 1, {}, {"returned": "6"}),
    (5, "", 0, {"r": "6"}),
]

GENERATOR = """\
def squares(k):
    for j in range(k):
        yield j * j
out = list(squares(2))
"""
# a generator's frame comes back at each next(): its steps go on where they left off
GENERATOR_STEPS = [
    (1, "", 0, {"squares": "squares"}),
    (2, "squares", 1, {"k": "2", "j": "0"}),
    (3, "squares", 1, {}, {"yielded": "0"}),
    (2, "squares", 1, {"j": "1"}),
    (3, "squares", 1, {}, {"yielded": "1"}),
    (2, "squares", 1, {}),
    (4, "", 0, {"out": "[0, 1]"}),
]

NUMPY_IN_PLACE = """\
import numpy as np
w = np.zeros(3)
w += 1.5
w[0] = np.nan
"""
# in place: the same array object, new values; a NaN is counted and left out of min/max/mean
NUMPY_IN_PLACE_ARRAYS = [
    (2, {"shape": [3], "dtype": "float64", "min": 0.0, "max": 0.0, "mean": 0.0, "nan": 0, "inf": 0,
         "corner": [0.0, 0.0, 0.0]}),
    (3, {"shape": [3], "dtype": "float64", "min": 1.5, "max": 1.5, "mean": 1.5, "nan": 0, "inf": 0,
         "corner": [1.5, 1.5, 1.5]}),
    (4, {"shape": [3], "dtype": "float64", "min": 1.5, "max": 1.5, "mean": 1.5, "nan": 1, "inf": 0,
         "corner": ["nan", 1.5, 1.5]}),
]

CASES = {
    "loop_and_call": (LOOP_AND_CALL, LOOP_AND_CALL_STEPS),
    "exception_mid_loop": (EXCEPTION_MID_LOOP, EXCEPTION_MID_LOOP_STEPS),
    "recursion": (RECURSION, RECURSION_STEPS),
    "generator": (GENERATOR, GENERATOR_STEPS),
}


def compact(steps: list[dict]) -> list[tuple]:
    """A recording in the cases' form."""
    out = []
    for step in steps:
        row = (step["line"], step["fn"], step["depth"], {name: s["text"] for name, s in step["changed"].items()})
        extra = {}
        if "exception" in step:
            extra["exception"] = step["exception"]
        for given in ("returned", "yielded"):
            if given in step:
                extra[given] = step[given]["text"]
        out.append(row + ((extra,) if extra else ()))
    return out


def arrays_of(steps: list[dict], name: str) -> list[tuple]:
    """(line, the array's summary without its text) at each step that changed ``name``."""
    return [(step["line"], {k: v for k, v in step["changed"][name].items() if k not in ("text", "kind")})
            for step in steps if name in step["changed"]]
