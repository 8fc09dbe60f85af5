"""Stepper machinery: worked calculations shown row by row, in pure Python.

A stepper turns a few numeric inputs into rows of (title, calculation, result, note). The
functions themselves are a lesson's content and live beside the lesson (``steppers.py`` in its
folder, found by convention: see content.py); this module registers them, validates
inputs and runs them. They run twice: at build time, where the rows are rendered into the page,
and in the reader's Pyodide when the reader edits an input. Standard library only, so Pyodide
imports it without fetching a package.

Conventions
-----------
* ``calculation`` and ``result`` hold ASCII digits; negative numbers use the typographic minus.
* ``title`` and ``note`` are Bangla prose: numbers in them use Bangla digits (:func:`prose_number`).
* ``run_stepper`` also returns ``values``: the key unrounded numbers, so that a lesson can quote
  a figure in its prose (``{{ step:NAME:key }}``) without typing it by hand.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Callable

from . import content
from .catalogue import t
from .numbers import BN_DIGITS, MINUS, bn_digits, format_number

__all__ = [
    "Step", "InputSpec", "StepperDef", "STEPPERS", "InputError", "stepper", "run_stepper", "describe",
    "fmt", "fmt_vec", "fmt_int", "paren", "prose_number", "bn_digits", "MINUS",
    "sigmoid", "softmax", "log_softmax", "milestones",
]

# ---------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    title: str        # short Bangla label of the step
    calculation: str  # the arithmetic shown (ASCII digits)
    result: str       # formatted result (ASCII digits)
    note: str         # one short Bangla sentence on what the step means


@dataclass(frozen=True)
class InputSpec:
    name: str
    label: str
    # a number for "float"/"int"; a tuple of numbers for "floats"
    default: float | int | tuple[float, ...]
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    kind: str = "float"  # "float", "int" or "floats" (comma-separated list)


@dataclass(frozen=True)
class StepperDef:
    name: str
    title: str
    inputs: tuple[InputSpec, ...]
    func: Callable[..., tuple[list[Step], dict]] = field(repr=False)


STEPPERS: dict[str, StepperDef] = content.registry({})


class InputError(ValueError):
    """A bad input value; the message is Bangla and names the input."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


# ---------------------------------------------------------------------------
# Numbers in rows (all through the one formatter, py_lessons.runtime.numbers)
# ---------------------------------------------------------------------------

_FROM_BN = str.maketrans(BN_DIGITS, "0123456789")


def fmt(x: float, sig: int = 4) -> str:
    """``sig`` significant digits, no trailing zeros; 1e-4 <= |x| < 1e6 in plain decimals, else
    the short exponent form ``4.861e−4``."""
    return format_number(float(x), sig=sig)


def fmt_int(n: int) -> str:
    """Whole numbers grouped the Indian way: 49,40,32,768."""
    return format_number(int(n), ",")


def fmt_vec(xs, sig: int = 4) -> str:
    return "[" + ", ".join(fmt(x, sig) for x in xs) + "]"


def paren(x: float, sig: int = 4) -> str:
    """A number ready to sit after an operator: negatives in parentheses."""
    text = fmt(x, sig)
    return f"({text})" if x < 0 else text


def prose_number(x: float, sig: int = 4) -> str:
    """A number for Bangla prose: Bangla digits, and 2.785e−7 written 2.785 × 10⁻⁷."""
    return format_number(float(x), sig=sig, bangla=True, prose=True)


# ---------------------------------------------------------------------------
# Registry, validation and the public entry points
# ---------------------------------------------------------------------------

def stepper(name: str, *, title: str, inputs: list[InputSpec]):
    """Register a stepper function under ``name``."""

    def register(func):
        if name in STEPPERS:
            raise RuntimeError(f"stepper {name!r} registered twice")
        names = [spec.name for spec in inputs]
        if len(set(names)) != len(names):
            raise RuntimeError(f"stepper {name!r} has duplicate input names")
        STEPPERS[name] = StepperDef(name, title, tuple(inputs), func)
        return func

    return register


def _to_float(spec: InputSpec, raw) -> float:
    if isinstance(raw, bool):
        raise InputError(spec.name, t("stepper.input.not_number", value=raw))
    if isinstance(raw, (int, float)):
        value = float(raw)
    elif isinstance(raw, str):
        text = raw.strip().translate(_FROM_BN).replace(MINUS, "-")
        try:
            value = float(text)
        except ValueError:
            raise InputError(spec.name, t("stepper.input.not_number", value=raw)) from None
    else:
        raise InputError(spec.name, t("stepper.input.not_number", value=raw))
    if not math.isfinite(value):
        raise InputError(spec.name, t("stepper.input.not_finite"))
    return value


def _check_bounds(spec: InputSpec, value: float) -> None:
    if spec.minimum is not None and value < spec.minimum:
        raise InputError(spec.name, t("stepper.input.too_small", 
            minimum=fmt(spec.minimum, 6), value=fmt(value, 6)))
    if spec.maximum is not None and value > spec.maximum:
        raise InputError(spec.name, t("stepper.input.too_large", 
            maximum=fmt(spec.maximum, 6), value=fmt(value, 6)))


def _convert(spec: InputSpec, raw):
    if spec.kind == "floats":
        if isinstance(raw, str):
            parts = [p for p in raw.split(",") if p.strip()]
        elif isinstance(raw, (list, tuple)):
            parts = list(raw)
        else:
            raise InputError(spec.name, t("stepper.input.not_list"))
        if not parts:
            raise InputError(spec.name, t("stepper.input.empty_list"))
        values = [_to_float(spec, p) for p in parts]
        for v in values:
            _check_bounds(spec, v)
        return values
    value = _to_float(spec, raw)
    if spec.kind == "int":
        if not value.is_integer():
            raise InputError(spec.name, t("stepper.input.not_integer", value=fmt(value, 6)))
        value = int(value)
    _check_bounds(spec, value)
    return value


def _json_default(value):
    return list(value) if isinstance(value, tuple) else value


def describe(name: str) -> list[dict]:
    """The input specifications of a stepper, as JSON-ready dicts."""
    defn = _lookup(name)
    out = []
    for spec in defn.inputs:
        d = asdict(spec)
        d["default"] = _json_default(spec.default)
        out.append(d)
    return out


def _lookup(name: str) -> StepperDef:
    try:
        return content.lookup(STEPPERS, name)
    except KeyError:
        raise ValueError(t("stepper.input.unknown_stepper", name=name) + content.did_you_mean(STEPPERS, name)) from None


def run_stepper(name: str, **inputs) -> dict:
    """Validate the inputs, run the stepper and return a JSON-ready dict."""
    defn = _lookup(name)
    specs = {spec.name: spec for spec in defn.inputs}
    for key in inputs:
        if key not in specs:
            raise ValueError(t("stepper.input.unknown_input", stepper=name, name=key))
    values = {}
    try:
        for spec in defn.inputs:
            raw = inputs.get(spec.name, _json_default(spec.default))
            values[spec.name] = _convert(spec, raw)
        steps, numbers = defn.func(**values)
    except InputError as exc:
        spec = specs.get(exc.name)
        label = spec.label if spec else exc.name
        raise InputError(exc.name, t("stepper.input.wrapped", 
            label=label, name=exc.name, message=str(exc))) from None
    return {
        "name": defn.name,
        "title": defn.title,
        "inputs": values,
        "steps": [asdict(s) for s in steps],
        "values": numbers,
    }


# ---------------------------------------------------------------------------
# Small maths helpers for stepper authors (no numpy on purpose)
# ---------------------------------------------------------------------------

def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def softmax(zs: list[float], temperature: float = 1.0) -> list[float]:
    return [math.exp(v) for v in log_softmax(zs, temperature)]


def log_softmax(zs: list[float], temperature: float = 1.0) -> list[float]:
    scaled = [z / temperature for z in zs]
    m = max(scaled)
    lse = m + math.log(sum(math.exp(z - m) for z in scaled))
    return [z - lse for z in scaled]


def milestones(n: int) -> list[int]:
    """Which layers to show: all of a short chain, else 1, 2, 3, 5, 10, 20, ... n."""
    if n <= 6:
        return list(range(1, n + 1))
    marks = {1, 2, 3, 5, n}
    marks.update(range(10, n + 1, 10))
    return sorted(k for k in marks if k <= n)
