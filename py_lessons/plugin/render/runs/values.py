"""A run's values as a reader sees them, and what the prose says of them: the one formatter for
table cells and claims (numbers through py_lessons.runtime.numbers, booleans in words), paths into a
run (``values.x``, ``tables.t.rows[model=plain].loss``) and run claims."""

from __future__ import annotations

import html
import math
import re
from typing import Any

from gpu_runs import jsonio

from ....runtime.numbers import bangla_numbers, format_number
from ...base.strings import t
from .results import RunError

NONE_TEXT = "—"


def format_value(value: Any, fmt: str | None = None, *, bangla_digits: bool = False) -> str:
    """A value as a reader sees it: numbers through the one formatter (in a list too, and in a
    run's text when the digits are Bangla), booleans in words."""
    if value is None:
        return NONE_TEXT
    if isinstance(value, bool):
        return t("runs.value.yes") if value else t("runs.value.no")
    if isinstance(value, (int, float)):
        return format_number(value, fmt or "", bangla=bangla_digits)
    if isinstance(value, (list, tuple)):  # "0.77, 0.80, 0.79" (per seed); a nested list bracketed
        return ", ".join(f"[{format_value(item, fmt, bangla_digits=bangla_digits)}]" if isinstance(item, (list, tuple))
                         else format_value(item, fmt, bangla_digits=bangla_digits) for item in value)
    return bangla_numbers(str(value)) if bangla_digits else str(value)


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]|\[([^=\]]+)=([^\]]+)\]")


def resolve(run: dict, path: str) -> Any:
    """Follow a path like ``values.plain_final_loss``,
    ``tables.final_table.rows[0].val_acc`` or
    ``tables.final_table.rows[model=plain].final_loss``."""
    if not isinstance(path, str):
        raise RunError(f"run {run['experiment']!r}: path must be text, got {path!r}")
    node: Any = run
    pos = 0
    for m in _PATH_PART.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            raise RunError(f"run {run['experiment']!r}: malformed path {path!r}")
        pos = m.end()
        name, index, sel_key, sel_val = m.groups()
        try:
            if name is not None:
                node = node[name]
            elif index is not None:
                node = node[int(index)]
            else:
                matches = [r for r in node if str(r.get(sel_key)) == sel_val]
                if len(matches) != 1:
                    raise KeyError(f"{len(matches)} rows with {sel_key}={sel_val}")
                node = matches[0]
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise RunError(f"run {run['experiment']!r}: path {path!r} not found ({exc})") from None
    if pos != len(path):
        raise RunError(f"run {run['experiment']!r}: malformed path {path!r}")
    return node


def _show(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return repr(value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def check_claim(run: dict, path: str, *, equals: Any = None, approx: float | None = None,
                tol: float | None = None, lt: float | None = None, gt: float | None = None) -> Any:
    """Assert something about a value in a run; return the value when it holds."""
    value = resolve(run, path)
    name = run["experiment"]
    checks = []
    if equals is not None:
        if isinstance(equals, str) and equals in jsonio.NONFINITE:
            equals = jsonio.NONFINITE[equals]
        checks.append((f"== {equals!r}", _same(value, equals)))
    if approx is not None:
        if tol is None:
            raise RunError(f"run {name!r}: claim on {path!r} gives approx without tol")
        ok = isinstance(value, (int, float)) and math.isfinite(value) and abs(value - approx) <= tol
        checks.append((f"≈ {approx!r} ± {tol!r}", ok))
    if lt is not None:
        checks.append((f"< {lt!r}", isinstance(value, (int, float)) and value < lt))
    if gt is not None:
        checks.append((f"> {gt!r}", isinstance(value, (int, float)) and value > gt))
    if not checks:
        raise RunError(f"run {name!r}: claim on {path!r} states nothing (give equals, approx+tol, lt or gt)")
    failed = [text for text, ok in checks if not ok]
    if failed:
        raise RunError(f"run {name!r}: claim failed: {path} {' and '.join(failed)}; actual value: {_show(value)}")
    return value


def run_attrs(component: str, run: str, key: str | None = None, device: str | None = None) -> str:
    extra = f' data-key="{html.escape(key)}"' if key else ""
    if device and device != "cpu":
        extra += f' data-device="{html.escape(device)}"'
    return f'data-component="{component}" data-run="{html.escape(run)}"{extra}'
