"""Numbers in lesson prose, computed at build time instead of typed.

    {{ step:norm_clip:norm | .4g }}                     a stepper's value (default inputs)
    {{ step:norm_clip(max_norm=2):coefficient | .3f }}  ... with other inputs
    {{ step:residual_chain:plain_product[2] | .3g }}     one entry of a list value ([-1]: the last)
    {{ run:train_deep:values.plain_final_loss | .3f | bn }}   a value from a gpu_runs result file
    {{ run:lowbit_llm@cuda:values.nf4_peak_mib | .1f }}     ... from its CUDA variant (lowbit_llm.cuda.json)
    {{ cell:opt-bumpy:number[-1] | .3g | bn }}           the last number a cell of this page printed
    {{ cell:opt-bumpy:line[0] }}                         ... the first line it printed, as text
    {{ cell:opt-bumpy:value(w * 2) | .2f }}              ... an expression in its namespace after it ran

``step`` and ``run`` macros are filled in before the page is read; ``cell`` macros once its cells
have run (selectors: selectors.py), in the prose and in component blocks, never in code (a fence
or inline code shows a macro as written). An expression may not contain ``|``, ``{`` or ``}``.
Run values come from whoever loads run results (the engine hands in ``run_value``).

The format spec is Python's (optional; numbers only); ``bn`` writes Bangla digits. Numbers go through the one
formatter (py_lessons.runtime.numbers): typographic minus, ``3.59 × 10⁶`` for powers of ten, a
``,`` in the spec groups the Indian way. A value that cannot be
found fails the build with the page, the line and the reason.
"""

from __future__ import annotations

import ast
import difflib
import html
import re
from functools import lru_cache
from typing import Any, Callable

from ...runtime.numbers import bn_digits, format_number
from ..base.errors import BlockError, LineError
from .prose import line_of, outside_code
from .selectors import SelectorError, is_number, parse_selector, select
from .stepper_calls import run_stepper

RunValue = Callable[[str, str, str], Any]   # (run name, device, path) -> the value; BlockError if absent

_MACRO = re.compile(r"\{\{\s*(?P<kind>run|step):(?P<body>[^{}|]+?)\s*(?:\|(?P<opts>[^{}]*?))?\s*\}\}")
_STEP = re.compile(r"^(?P<name>\w+)(?:\((?P<args>[^)]*)\))?:(?P<key>\w+(?:\[-?\d+\])*(?:\.\w+(?:\[-?\d+\])*)*)$")
_KEY_PART = re.compile(r"^(?P<field>\w+)(?P<indices>(?:\[-?\d+\])*)$")
_RUN = re.compile(r"^(?P<name>\w+):(?P<path>\S+)$")
_CELL_MACRO = re.compile(r"\{\{\s*cell:(?P<body>[^{}]*?)\s*\}\}")
KINDS = ("step", "run", "cell")
# what is left of a macro none of the above took: "{{ kind:…}}" or "{{ …}}" (a formula's "{{2}}" is not)
_LEFTOVER = re.compile(r"\{\{(?:\s*(?P<kind>[A-Za-z_][\w-]*)\s*:|\s)[^\n]*?\}\}")


class ValueMacroError(LineError, BlockError):
    """A value macro that cannot be filled in, at its line of the page."""


def _stepper_args(text: str | None) -> dict:
    if not text:
        return {}
    call = ast.parse(f"f({text})", mode="eval").body
    return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}


@lru_cache(maxsize=256)
def _stepper_values(name: str, args_text: str | None) -> dict:
    return run_stepper(name, _stepper_args(args_text))["values"]


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


def _run_value(body: str, run_value: RunValue):
    # run:NAME@cuda:path reads the CUDA variant (NAME.cuda.json); plain run:NAME:path the CPU one
    variant = re.match(r"^(?P<name>\w+)@(?P<device>\w+):(?P<path>\S+)$", body)
    match = variant or _RUN.match(body)
    if not match:
        raise ValueMacroError(f"cannot read {body!r}; write run:NAME:path.to.value or run:NAME@cuda:path.to.value")
    device = match["device"] if variant else "cpu"
    return run_value(match["name"], device, match["path"])


def expand(markdown: str, run_value: RunValue) -> str:
    """Replace every ``step`` and ``run`` macro; errors name the line."""

    def replace(match: re.Match) -> str:
        line = markdown.count("\n", 0, match.start()) + 1
        spec, bangla = _options(match["opts"])
        try:
            body = match["body"].strip()
            value = _step_value(body) if match["kind"] == "step" else _run_value(body, run_value)
            return formatted(value, spec, bangla)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a build error with the line
            raise ValueMacroError(f"{match.group(0)}: {exc}", line) from exc

    return _MACRO.sub(replace, markdown)


def _options(text: str | None) -> tuple[str, bool]:
    """``| .3g | bn``: the format spec (or "") and whether to write Bangla digits."""
    opts = [part.strip() for part in (text or "").split("|") if part.strip()]
    specs = [part for part in opts if part != "bn"]
    return (specs[0] if specs else ""), "bn" in opts


# -- {{ cell:ID:SELECTOR | FORMAT | bn }}: what a cell of the page printed or computed --------------
def _cell_macros(markdown: str, fences, component_kinds):
    """(match, line, cell id, selector, options text) of every cell macro outside code."""
    text = outside_code(markdown, fences, component_kinds)
    for match in _CELL_MACRO.finditer(text):
        line = line_of(text, match.start())
        target, _, opts = match["body"].partition("|")
        cell_id, _, selector = target.partition(":")
        try:
            if not selector.strip():
                raise SelectorError("write {{ cell:ID:SELECTOR }} with number[k], line[k] or value(EXPR)")
            parsed = parse_selector(selector)
        except SelectorError as exc:
            raise ValueMacroError(f"{match.group(0)}: {exc}", line) from None
        yield match, line, cell_id.strip(), parsed, opts


def cell_requests(markdown: str, fences, component_kinds) -> list[tuple[str, str]]:
    """(cell id, expression) of every value(EXPR) the page's cell macros quote: the build
    evaluates them right after their cell runs. Malformed macros fail here, before any cell runs."""
    return [(cell_id, selector.expr) for _, _, cell_id, selector, _ in _cell_macros(markdown, fences, component_kinds)
            if selector.kind == "value"]


def expand_cells(markdown: str, fences, component_kinds, outputs: dict[str, dict]) -> str:
    """Fill in every cell macro from ``outputs`` (cell id -> build result); errors name the line
    and quote what the cell printed."""
    pieces, cursor = [], 0
    for match, line, cell_id, selector, opts in _cell_macros(markdown, fences, component_kinds):
        try:
            if cell_id not in outputs:
                raise SelectorError(f"there is no pycell with id {cell_id!r} on this page "
                                    f"(cells here: {', '.join(sorted(outputs)) or 'none'})")
            shown = _quoted(select(outputs[cell_id], selector, cell_id), selector, *_options(opts))
        except ValueError as exc:  # a selector that finds nothing, or a format spec Python rejects
            raise ValueMacroError(f"{match.group(0)}: {exc}", line) from None
        pieces += [markdown[cursor:match.start()], shown]
        cursor = match.end()
    return "".join(pieces) + markdown[cursor:]


def formatted(value, spec: str, bangla: bool) -> str:
    """A quoted number through the one formatter; a spec Python cannot apply is told in words."""
    try:
        return format_number(value, spec, bangla=bangla, prose=True)
    except (ValueError, TypeError):
        raise BlockError(f"the format {spec!r} cannot write the {type(value).__name__} {value!r} "
                         "(a format is written like .3f, .2e, .3g, , or .1%)") from None


def _quoted(value, selector, spec: str, bangla: bool) -> str:
    if is_number(value):
        return formatted(value, spec, bangla)
    if not isinstance(value, str):
        raise SelectorError(f"{selector} is {value!r}: state a truth value with a cell-claim block instead")
    if spec:
        raise SelectorError(f"{selector} is a text ({value!r}), so the format {spec!r} does not apply")
    if "\n" in value:
        raise SelectorError(f"{selector} is more than one line of text; quote one line with line[k]")
    text = html.escape(value, quote=False)  # a printed "<" stays a "<" in the prose
    return bn_digits(text) if bangla else text


def check_no_leftovers(markdown: str, fences, component_kinds) -> None:
    """Once every macro is filled in, a ``{{ … }}`` still in the prose is a misspelled kind or a
    malformed macro, which readers would see as raw braces: it fails the build at its line."""
    text = outside_code(markdown, fences, component_kinds)
    match = _LEFTOVER.search(text)
    if not match:
        return
    close = difflib.get_close_matches(match["kind"] or "", KINDS, n=1)
    hint = (f"did you mean {{{{ {close[0]}:… }}}}?" if close and close[0] != match["kind"]
            else "a macro is {{ step:… }}, {{ run:… }} or {{ cell:… }}, and its text may not hold |, { or }")
    raise ValueMacroError(f"{match.group(0)}: left in the page as written ({hint})", line_of(text, match.start()))
