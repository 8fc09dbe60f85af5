"""One value from a cell's build-time run, for the prose: the selectors that ``{{ cell:… }}`` macros
(macros.py) and ``cell-claim`` blocks (claims.py) share.

    number[k]     the k-th number the cell printed (0: the first, -1: the last); ints, decimals,
                  exponent forms, nan and inf, with a sign (- or −), in ASCII or Bangla digits
    line[k]       the k-th line it printed, as text (blank lines count)
    value(EXPR)   the Python expression EXPR, evaluated in the cell's namespace right after the
                  cell ran at build; it must give a number, a truth value or a text

A cell's build output is deterministic (the build runs it in the same Pyodide every time), so the
prose may quote it. ``value`` expressions are evaluated by the build's runner in the cell's own
namespace (a cell without a session gets a private one) and kept in the cell's cache entry, so a
cached cell is re-run only when an expression is new; an expression must not change what later
cells of its session see.
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass

from ..base.errors import BlockError

_SELECTOR = re.compile(r"^(?:(?P<kind>number|line)\[(?P<index>-?\d+)\]|value\((?P<expr>.+)\))$", re.DOTALL)
_TO_ASCII = str.maketrans("০১২৩৪৫৬৭৮৯−", "0123456789-")
# a number as print() writes it: not part of a name (x1, float64), perhaps signed
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(?:[-+](?=[0-9.]|nan|inf))?"
                     r"(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf(?:inity)?)(?![A-Za-z0-9_])", re.IGNORECASE)
_SHOWN_CHARS = 600  # how much of a cell's output an error message quotes
VALUE_MARKER = "\x1epy-lessons-value:"  # starts the line that carries an evaluated value


class SelectorError(BlockError):
    """A selector that cannot be read, or that finds nothing in the cell's output."""


@dataclass(frozen=True)
class Selector:
    kind: str        # "number", "line" or "value"
    index: int = 0
    expr: str = ""

    def __str__(self) -> str:
        return f"value({self.expr})" if self.kind == "value" else f"{self.kind}[{self.index}]"


def parse_selector(text: str) -> Selector:
    match = _SELECTOR.match(str(text).strip())
    if not match:
        raise SelectorError(f"cannot read the selector {text!r}; write number[k], line[k] or value(EXPR)")
    if match["expr"] is None:
        return Selector(match["kind"], int(match["index"]))
    expr = match["expr"].strip()
    try:
        ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise SelectorError(f"value({expr}): not a Python expression ({exc.msg})") from None
    return Selector("value", expr=expr)


def printed(entry: dict) -> str:
    """Everything the cell printed (stdout), as one text."""
    return "".join(item["text"] for item in entry["items"] if item["type"] == "stdout")


def printed_lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def printed_numbers(text: str) -> list[int | float]:
    numbers: list[int | float] = []
    for match in _NUMBER.finditer(text.translate(_TO_ASCII)):
        word = match.group(0)
        plain = re.fullmatch(r"[-+]?\d+", word)
        numbers.append(int(word) if plain else float(word))
    return numbers


def _quote(text: str) -> str:
    shown = text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + " …"
    return f"it printed:\n{shown}" if shown.strip() else "it printed nothing"


def _pick(found: list, selector: Selector, what: str, cell_id: str, text: str):
    if not -len(found) <= selector.index < len(found):
        raise SelectorError(f"cell {cell_id!r} printed {len(found)} {what}, so {selector} is out of range; "
                            f"{_quote(text)}")
    return found[selector.index]


def select(entry: dict, selector: Selector, cell_id: str):
    """The value ``selector`` picks from the cell's build ``entry`` (number, bool or text)."""
    text = printed(entry)
    if selector.kind == "number":
        return _pick(printed_numbers(text), selector, "number(s)", cell_id, text)
    if selector.kind == "line":
        return _pick(printed_lines(text), selector, "line(s)", cell_id, text)
    answer = entry.get("values", {}).get(selector.expr)
    if answer is None:  # the engine evaluates every requested expression; kept as a safety net
        raise SelectorError(f"cell {cell_id!r}: {selector} was not evaluated at build")
    if not answer["ok"]:
        raise SelectorError(f"cell {cell_id!r}: {selector} failed: {answer['error']}")
    value = answer["value"]
    if not isinstance(value, (int, float, str)):
        raise SelectorError(f"cell {cell_id!r}: {selector} is {value!r}, not one number, truth value or text")
    return value


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def show(value) -> str:
    """A selected value in an error message."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return repr(value)


# -- value(EXPR): evaluated by the build's runner, in the cell's namespace ----------------------
def value_code(expr: str) -> str:
    """Python that prints EXPR's value as JSON after :data:`VALUE_MARKER`, binding no new names
    (a later cell of the session may list its namespace); NumPy scalars become Python ones."""
    return (f"print({VALUE_MARKER!r} + __import__('json').dumps(({expr}), "
            f"default=lambda o: o.item()))")


def read_value(answer: dict) -> dict:
    """The runner's answer to :func:`value_code` as ``{"ok": True, "value"}`` or
    ``{"ok": False, "error"}``."""
    result = answer["result"]
    if not result["ok"]:
        return {"ok": False, "error": f"{result['error']}: {result.get('message', '')}"}
    text = "".join(item.get("text", "") for item in answer["items"] if item["type"] == "stdout")
    line = next((line for line in reversed(text.split("\n")) if line.startswith(VALUE_MARKER)), None)
    if line is None:
        return {"ok": False, "error": "no value came back"}
    return {"ok": True, "value": json.loads(line[len(VALUE_MARKER):])}


def has_values(entry: dict | None, exprs) -> bool:
    """Whether a cached cell ``entry`` holds every expression in ``exprs``."""
    return entry is not None and all(expr in entry.get("values", {}) for expr in exprs)
