"""Numbers in lesson prose, computed at build time instead of typed.

    {{ step:norm_clip:norm | .4g }}                     a stepper's value (default inputs)
    {{ step:norm_clip(max_norm=2):coefficient | .3f }}  ... with other inputs
    {{ step:residual_chain:plain_product[2] | .3g }}     one entry of a list value ([-1]: the last)
    {{ run:train_deep:values.plain_final_loss | .3f | bn }}   a value from a gpu_runs result file
    {{ run:lowbit_llm@cuda:values.nf4_peak_mib | .1f }}     ... from its CUDA variant (lowbit_llm.cuda.json)

The format spec is Python's (optional); ``bn`` writes Bangla digits. Numbers go through the one
formatter (py_lessons.runtime.numbers): typographic minus, ``3.59 × 10⁶`` for powers of ten, a
``,`` in the spec groups the Indian way. A value that cannot be
found fails the build with the page, the line and the reason.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from ..runtime import steppers
from ..runtime.numbers import format_number

_MACRO = re.compile(r"\{\{\s*(?P<kind>run|step):(?P<body>[^{}|]+?)\s*(?:\|(?P<opts>[^{}]*?))?\s*\}\}")
_STEP = re.compile(r"^(?P<name>\w+)(?:\((?P<args>[^)]*)\))?:(?P<key>\w+(?:\[-?\d+\])*(?:\.\w+(?:\[-?\d+\])*)*)$")
_KEY_PART = re.compile(r"^(?P<field>\w+)(?P<indices>(?:\[-?\d+\])*)$")
_RUN = re.compile(r"^(?P<name>\w+):(?P<path>\S+)$")


class ValueMacroError(ValueError):
    pass


def _stepper_args(text: str | None) -> dict:
    if not text:
        return {}
    call = ast.parse(f"f({text})", mode="eval").body
    return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}


@lru_cache(maxsize=256)
def _stepper_values(name: str, args_text: str | None) -> dict:
    return steppers.run_stepper(name, **_stepper_args(args_text))["values"]


def _step_value(body: str):
    match = _STEP.match(body)
    if not match:
        raise ValueMacroError(f"cannot read {body!r}; write step:NAME:key, step:NAME(x=1):key "
                              "or step:NAME:key[0]")
    values = _stepper_values(match["name"], match["args"])
    node = values
    for part in match["key"].split("."):
        piece = _KEY_PART.match(part)
        field = piece["field"]
        if not isinstance(node, dict) or field not in node:
            raise ValueMacroError(f"stepper {match['name']!r} has no value {match['key']!r} "
                                  f"(has: {', '.join(values)})")
        node = node[field]
        for index in re.findall(r"\[(-?\d+)\]", piece["indices"]):
            if not isinstance(node, (list, tuple)):
                raise ValueMacroError(f"stepper {match['name']!r}: {field!r} in {match['key']!r} "
                                      f"is not a list, so [{index}] cannot index it")
            if not -len(node) <= int(index) < len(node):
                raise ValueMacroError(f"stepper {match['name']!r}: index [{index}] in {match['key']!r} "
                                      f"is out of range ({field!r} has {len(node)} entries)")
            node = node[int(index)]
    return node


def _run_value(body: str, runs_dir: Path):
    from .runs import load_run, resolve  # imported only when a page quotes a run

    # run:NAME@cuda:path reads the CUDA variant (NAME.cuda.json); plain run:NAME:path the CPU one
    variant = re.match(r"^(?P<name>\w+)@(?P<device>\w+):(?P<path>\S+)$", body)
    match = variant or _RUN.match(body)
    if not match:
        raise ValueMacroError(f"cannot read {body!r}; write run:NAME:path.to.value or run:NAME@cuda:path.to.value")
    device = match["device"] if variant else "cpu"
    return resolve(load_run(runs_dir, match["name"], device), match["path"])


def expand(markdown: str, runs_dir: Path) -> str:
    """Replace every value macro; errors name the line."""

    def replace(match: re.Match) -> str:
        line = markdown.count("\n", 0, match.start()) + 1
        opts = [part.strip() for part in (match["opts"] or "").split("|") if part.strip()]
        bangla = "bn" in opts
        specs = [part for part in opts if part != "bn"]
        try:
            body = match["body"].strip()
            value = _step_value(body) if match["kind"] == "step" else _run_value(body, runs_dir)
            return format_number(value, specs[0] if specs else "", bangla=bangla, prose=True)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a build error with the line
            raise ValueMacroError(f"line {line}: {match.group(0)}: {exc}") from exc

    return _MACRO.sub(replace, markdown)
