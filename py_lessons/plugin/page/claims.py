"""```` ```cell-claim ```` blocks: what the prose (or a figure's caption) says about a cell's output,
asserted at build. A change in the code that breaks the statement fails the build.

    ```cell-claim
    cell: opt-lr-sweep         # a pycell on the same page (it may come later)
    select: number[-1]         # number[k], line[k] or value(EXPR), as in {{ cell:… }} (selectors.py)
    lt: 0.01                   # and/or: equals, approx (+ tol and/or rtol), gt, contains
    ```

``equals`` compares a number as a number (``nan`` equals nan) and a text exactly; ``approx`` holds
when |value − approx| ≤ tol + rtol·|approx| (``tol`` absolute, ``rtol`` relative to ``approx``;
give either or both, like numpy.isclose); ``lt``/``gt`` compare numbers; ``contains`` looks for a
text in a printed line (or a value that is text). Every condition given must hold.

The block renders nothing (a hidden marker) unless ``show: true``, which writes the value where
the block stands, through the one number formatter (``format``: a format spec, ``bangla_digits``).
"""

from __future__ import annotations

import html
import math
from typing import Any

from ...runtime.numbers import bn_digits
from ..base.errors import BlockError
from ..base.html import comment
from ..base.yaml_blocks import read_block
from .macros import formatted
from .selectors import Selector, SelectorError, is_number, parse_selector, printed, select, show

KIND = "cell-claim"
_CONDITIONS = ("equals", "approx", "lt", "gt", "contains")
_KEYS = {"cell", "select", *_CONDITIONS, "tol", "rtol", "show", "format", "bangla_digits"}
_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class ClaimError(BlockError):
    """A cell-claim block that cannot be read, or a claim that does not hold."""


def _number(body: dict, key: str) -> float | None:
    value = body.get(key)
    if isinstance(value, str) and value.strip().lower() in _NONFINITE:
        return _NONFINITE[value.strip().lower()]
    if value is not None and not is_number(value):
        raise ClaimError(f"{key} must be a number, not {value!r}")
    return value


def parse(source: str) -> dict:
    body = read_block(source, KIND, {"cell", "select"}, _KEYS - {"cell", "select"})
    if not any(key in body for key in _CONDITIONS):
        raise ClaimError(f"the {KIND} block states nothing: give {', '.join(_CONDITIONS)}")
    claim = {"cell": str(body["cell"]), "select": parse_selector(str(body["select"])),
             "approx": _number(body, "approx"), "tol": _number(body, "tol"), "rtol": _number(body, "rtol"),
             "lt": _number(body, "lt"), "gt": _number(body, "gt"), "show": bool(body.get("show", False)),
             "format": str(body.get("format", "")), "bangla_digits": bool(body.get("bangla_digits", False))}
    if (claim["tol"] is not None or claim["rtol"] is not None) != (claim["approx"] is not None):
        raise ClaimError("approx needs tol (absolute) and/or rtol (relative), and they need approx")
    if "equals" in body:
        equals = body["equals"]
        nonfinite = isinstance(equals, str) and equals.strip().lower() in _NONFINITE
        claim["equals"] = _NONFINITE[equals.strip().lower()] if nonfinite else equals
    if "contains" in body:
        if not isinstance(body["contains"], str):
            raise ClaimError(f"contains must be a text, not {body['contains']!r}")
        claim["contains"] = body["contains"]
    return claim


def _equal(value: Any, expected: Any) -> bool:
    if is_number(value) and is_number(expected):
        return value == expected or (math.isnan(value) and math.isnan(expected))
    return type(value) is type(expected) and value == expected  # a text, or a truth value


def _failures(claim: dict, value: Any) -> list[str]:
    """The conditions of ``claim`` that ``value`` does not meet, as the claim states them."""
    failed = []
    if "equals" in claim and not _equal(value, claim["equals"]):
        failed.append(f"equals {show(claim['equals'])}")
    if claim["approx"] is not None:
        allowed = (claim["tol"] or 0) + (claim["rtol"] or 0) * abs(claim["approx"])
        if not (is_number(value) and math.isfinite(value) and abs(value - claim["approx"]) <= allowed):
            failed.append(f"≈ {show(claim['approx'])} (within {show(allowed)})")
    if claim["lt"] is not None and not (is_number(value) and value < claim["lt"]):
        failed.append(f"< {show(claim['lt'])}")
    if claim["gt"] is not None and not (is_number(value) and value > claim["gt"]):
        failed.append(f"> {show(claim['gt'])}")
    if "contains" in claim and not (isinstance(value, str) and claim["contains"] in value):
        failed.append(f"contains {claim['contains']!r}")
    return failed


def check(claim: dict, outputs: dict[str, dict]) -> Any:
    """Assert the claim on the page's cell outputs (cell id -> build entry); return the value."""
    cell = claim["cell"]
    if cell not in outputs:
        raise ClaimError(f"there is no pycell with id {cell!r} on this page (cells here: "
                         f"{', '.join(sorted(outputs)) or 'none'})")
    try:
        value = select(outputs[cell], claim["select"], cell)
    except SelectorError as exc:
        raise ClaimError(str(exc)) from None
    failed = _failures(claim, value)
    if failed:
        raise ClaimError(f"claim failed: cell {cell!r} {claim['select']} {' and '.join(failed)}; "
                         f"actual value: {show(value)}; the cell printed:\n{printed(outputs[cell])[:600]}")
    return value


def render(claim: dict, value: Any) -> str:
    selector: Selector = claim["select"]
    attrs = (f'class="pz-cell-claim" data-component="{KIND}" data-cell="{html.escape(claim["cell"])}" '
             f'data-select="{html.escape(str(selector))}"')
    if not claim["show"]:  # checked at build; a comment, not an element a phone would lay out
        return comment(f'{KIND} {claim["cell"]}: {selector}')
    if is_number(value):
        text = formatted(value, claim["format"], claim["bangla_digits"])
    else:
        text = bn_digits(value) if claim["bangla_digits"] else str(value)
    return f"<span {attrs}>{html.escape(text)}</span>"


def requested_values(claims) -> list[tuple[str, str]]:
    """(cell id, expression) of every value(EXPR) the claims select: the build evaluates them."""
    return [(claim["cell"], claim["select"].expr) for claim in claims if claim["select"].kind == "value"]

