"""A stepper run at build for the author (a ```stepper``` block, a {{ step:… }} macro): an unknown
stepper or input is told in English with the closest name, and an input the stepper rejects with
its own message, written for readers in Bangla, on a line of its own (one language per line)."""

from __future__ import annotations

import difflib

from ...runtime import content, steppers
from ..base.errors import BlockError


def did_you_mean(name: str, names) -> str:
    """' (did you mean 'x'?)' for the closest of ``names``, or ''."""
    close = difflib.get_close_matches(name, list(names), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def run_stepper(name: str, inputs: dict) -> dict:
    """``steppers.run_stepper(name, **inputs)``; BlockError with an author's message."""
    try:
        definition = content.lookup(steppers.STEPPERS, name)
    except KeyError:
        known = ", ".join(sorted(steppers.STEPPERS)) or "none"
        raise BlockError(f"no stepper named {name!r}{did_you_mean(name, steppers.STEPPERS)} (known: {known})") from None
    names = [spec.name for spec in definition.inputs]
    for key in inputs:
        if key not in names:
            raise BlockError(f"stepper {name!r} has no input {key!r}{did_you_mean(key, names)} "
                             f"(its inputs: {', '.join(names) or 'none'})")
    try:
        return steppers.run_stepper(name, **inputs)
    except (ValueError, TypeError) as exc:
        raise BlockError(f"stepper {name!r} rejects these inputs; what a reader would read:\n    {exc}") from None
