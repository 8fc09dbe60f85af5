"""``stepper`` blocks: a worked calculation from py_lessons.runtime.steppers, shown row by row.

    ```stepper
    id: clip-demo
    function: norm_clip
    inputs: {grad: [3, 4, 12], max_norm: 5}
    editable: true
    ```

The rows come from ``run_stepper`` at build time (CPython); an editable stepper re-runs the same
function in the reader's Pyodide. Unknown functions and bad inputs fail the build.

    ask: {row: 4, value: "w[2]"}

asks the reader, one row before ``row``, what that row's result will be: ``value`` names the
stepper's unrounded number the row shows (a key of its ``values``, with an index for a list). The
reader's number is right within 1 %; the first answer enters review (lib/first-answer.js), where
the card shows the rows before it and asks again. The build fails when the number named is not
the one the row shows (within 1 %): a question about the wrong row is never asked.
"""

from __future__ import annotations

import json
import re

from ....runtime import steppers
from ....runtime.numbers import bn_digits
from ...base.errors import BlockError
from ...base.html import attr, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, read_block
from ...page import stepper_calls
from ..deferred import TEMPLATE
from .base import Component, NotebookPart
from .quiz import revision

KIND = "stepper"


ASK_TOLERANCE = 0.01  # relative: the reader computes from rounded rows (stepper.js uses the same)
_VALUE_REF = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<index>\d+)\])?$")
_NUMBER = re.compile(r"[−-]?\d+(?:\.\d+)?(?:e[−-]?\d+)?")


def _row_number(result_text: str) -> float | None:
    """The first number a row's result shows (ASCII digits, the typographic minus), or None."""
    match = _NUMBER.search(result_text)
    return float(match[0].replace("−", "-")) if match else None


def _ask(cid: str, ask, result: dict) -> dict | None:
    """The checked ``ask`` option: {row, value (the unrounded number), shown (the row's result)}."""
    if ask is None:
        return None
    if not isinstance(ask, dict) or set(ask) != {"row", "value"}:
        raise BlockError(f"stepper '{cid}': ask must be {{row: N, value: NAME}} (a row number and a value's name)")
    steps, row = result["steps"], ask["row"]
    if not isinstance(row, int) or isinstance(row, bool) or not 2 <= row <= len(steps):
        raise BlockError(f"stepper '{cid}': ask's row must be a row from 2 to {len(steps)} (got {row!r})")
    ref = _VALUE_REF.match(str(ask["value"]))
    value = result["values"].get(ref["key"]) if ref else None
    if ref and ref["index"] is not None:
        value = value[int(ref["index"])] if isinstance(value, list) and int(ref["index"]) < len(value) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        known = ", ".join(sorted(result["values"])) or "none"
        raise BlockError(f"stepper '{cid}': ask's value {ask['value']!r} names no number of this stepper's values "
                         f"(its values: {known}; a list's item as NAME[i])")
    shown = steps[row - 1]["result"]
    on_row = _row_number(shown)
    if on_row is None or abs(on_row - value) > ASK_TOLERANCE * abs(value) + 1e-12:
        raise BlockError(f"stepper '{cid}': ask's value {ask['value']} is {value!r}, but row {row} shows {shown!r}: "
                         f"ask about the number that row shows")
    # the row's title names what it computes (not its value): the question says what is asked
    return {"row": row, "value": float(value), "shown": shown, "title": steps[row - 1]["title"]}


def parse(source: str) -> dict:
    data = read_block(source, KIND, {"id", "function"}, {"inputs", "editable", "caption", "ask"})
    cid = block_id(data, KIND)
    name = str(data["function"])
    inputs = data.get("inputs") or {}
    if not isinstance(inputs, dict):
        raise BlockError(f"stepper '{cid}': inputs must be a mapping of input name to value")
    try:
        result = stepper_calls.run_stepper(name, inputs)
    except BlockError as exc:
        raise BlockError(f"stepper '{cid}': {exc}") from None
    editable = data.get("editable", False)
    if not isinstance(editable, bool):
        raise BlockError(f"stepper '{cid}': editable must be true or false")
    return {"id": cid, "function": name, "result": result, "editable": editable,
            "caption": data.get("caption"), "spec": steppers.describe(name), "ask": _ask(cid, data.get("ask"), result)}


def input_text(value) -> str:
    """An input value as the reader types it: lists comma-separated, no exponent surprises."""
    if isinstance(value, (list, tuple)):
        return ", ".join(input_text(v) for v in value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


# A word the browser could break inside: more than one character, one of them neither a letter, a
# digit nor a number's own "." or "," (e.g. "(2·w", "−0.5])[0]", "w*"). "x", "=", "0.25," cannot be.
_BREAKABLE = re.compile(r"^(?=.*[^\w.,\s])\S{2,}$")


def _unbroken_words(value: str) -> str:
    """A calculation's text with each word kept whole on its line: the browser breaks it only at its
    spaces. Only words it could break inside get a span (an element each: a phone lays them all
    out); stepper.js writes recomputed rows the same way."""
    return "".join(f'<span class="pz-word">{text(part)}</span>' if _BREAKABLE.match(part) else text(part)
                   for part in re.split(r"(\s+)", value))


def render_rows(steps: list[dict], shown: int) -> str:
    """The rows, those after the first ``shown`` hidden and inert (render/deferred.py's template:
    a phone keeps no elements for them until the reader steps on; printing shows them all)."""
    rows = []
    for number, step in enumerate(steps, start=1):
        rows.append(
            f'<tr class="pz-step" data-row="{number}"{" hidden" if number > shown else ""}>'
            f'<th scope="row" class="pz-step-no">{bn_digits(number)}</th>'
            f'<td class="pz-step-what"><span class="pz-step-title">{text(step["title"])}</span>'
            f'<span class="pz-step-note">{text(step["note"])}</span></td>'
            f'<td class="pz-step-calc"><code>{_unbroken_words(step["calculation"])}</code></td>'
            f'<td class="pz-step-result"><code>{_unbroken_words(step["result"])}</code></td></tr>'
        )
    later = "".join(rows[shown:])
    return "".join(rows[:shown]) + (TEMPLATE.format(later) if later else "")


def render_form(parsed: dict) -> str:
    cid = parsed["id"]
    values = parsed["result"]["inputs"]
    fields = []
    for spec in parsed["spec"]:
        field_id = f"{cid}-in-{spec['name']}"
        fields.append(
            f'<div class="pz-field"><label for="{attr(field_id)}">{text(spec["label"])}</label>'
            f'<input id="{attr(field_id)}" name="{attr(spec["name"])}" data-kind="{attr(spec["kind"])}" '
            f'type="text" inputmode="decimal" autocomplete="off" spellcheck="false" '
            f'value="{attr(input_text(values[spec["name"]]))}"></div>'
        )
    return (
        f'<form class="pz-stepper-inputs" data-inputs>'
        f'<p class="pz-stepper-hint">{text(t("stepper.edit.hint"))}</p>{"".join(fields)}'
        f'<div class="pz-actions"><button type="submit" class="pz-button" data-action="recompute">'
        f'{text(t("stepper.recompute"))}</button>'
        f'<button type="button" class="pz-button" data-action="reset">{text(t("stepper.reset"))}</button></div>'
        f'</form>'
    )


def render_ask(parsed: dict) -> str:
    """The question before the asked row: the reader's number, checked in the page (stepper.js)."""
    ask, cid = parsed["ask"], parsed["id"]
    if not ask:
        return ""
    field_id = f"{cid}-ask"
    return (
        f'<div class="pz-stepper-ask" data-ask data-ask-row="{ask["row"]}" '
        f'data-ask-value="{ask["value"]!r}" data-ask-shown="{attr(ask["shown"])}" hidden>'
        f'<label for="{attr(field_id)}">{text(t("stepper.ask", n=bn_digits(ask["row"]), title=ask["title"]))}</label>'
        f'<div class="pz-stepper-ask-line"><input id="{attr(field_id)}" type="text" inputmode="decimal" autocomplete="off" '
        f'spellcheck="false" data-ask-input>'
        f'<button type="button" class="pz-button" data-action="ask-check">{text(t("stepper.ask.check"))}</button></div>'
        f'<p class="pz-feedback" role="status" aria-live="polite" data-ask-feedback></p></div>'
    )


def render(parsed: dict, *, reviewing: bool = False) -> str:
    """``reviewing``: the review page's card, at the row before the question (no way on, no inputs)."""
    result = parsed["result"]
    steps = result["steps"]
    total = len(steps)
    cid = parsed["id"]
    caption = parsed["caption"] or result["title"]
    editable = parsed["editable"]
    initial = json.dumps({k: input_text(v) for k, v in result["inputs"].items()}, ensure_ascii=False)
    question = f' data-revision="{revision(parsed)}"' if parsed["ask"] else ""  # it enters review
    return (
        f'<div class="pz-stepper" data-component="stepper" data-id="{attr(cid)}" '
        # written at its first step, as stepper.js starts it: the script then moves nothing on the page
        f'data-function="{attr(parsed["function"])}" data-step="1" data-total="{total}" '
        f'data-state="{"complete" if total == 1 else "partial"}"{" data-editable" if editable else ""} '
        f'data-initial="{attr(initial)}"{question}{" data-reviewing" if reviewing else ""} '
        f'aria-labelledby="{attr(cid)}-caption">'
        f'<p class="pz-stepper-caption" id="{attr(cid)}-caption">{text(caption)}</p>'
        f'<div class="pz-scroll" tabindex="0" role="region" aria-labelledby="{attr(cid)}-caption"><table class="pz-stepper-table">'
        f'<thead><tr><th scope="col">{text(t("stepper.col.step"))}</th><th scope="col">{text(t("stepper.col.what"))}</th>'
        f'<th scope="col">{text(t("stepper.col.calc"))}</th><th scope="col">{text(t("stepper.col.result"))}</th></tr></thead>'
        f'<tbody data-rows>{render_rows(steps, shown=parsed["ask"]["row"] - 1 if reviewing else 1)}</tbody></table></div>'
        f'{render_ask(parsed)}'
        f'<div class="pz-stepper-nav" data-nav>'
        f'<button type="button" class="pz-button" data-action="prev" aria-disabled="true">{text(t("stepper.prev"))}</button>'
        f'<span class="pz-stepper-position" data-position>{text(t("stepper.position", n=1, total=total))}</span>'
        f'<button type="button" class="pz-button" data-action="next" aria-disabled="{str(total == 1).lower()}">{text(t("stepper.next"))}</button>'
        f'<button type="button" class="pz-button" data-action="all">{text(t("stepper.all"))}</button></div>'
        # the worked example first, then the reader's own values: on a phone the inputs filled the
        # first screen before any row of the calculation showed
        f'{render_form(parsed) if editable and not reviewing else ""}'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p>'
        f'</div>'
    )


def notebook_table(parsed: dict) -> str:
    """The build's rows (the same numbers the page shows first) as a Markdown table."""
    def cell(value) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    header = [t("stepper.col.step"), t("stepper.col.what"), t("stepper.col.calc"), t("stepper.col.result")]
    rows = [f"| {' | '.join(header)} |", "|" + "---|" * len(header)]
    for number, step in enumerate(parsed["result"]["steps"], start=1):
        what = f"{cell(step['title'])}: {cell(step['note'])}" if step.get("note") else cell(step["title"])
        rows.append(f"| {bn_digits(number)} | {what} | `{cell(step['calculation'])}` | `{cell(step['result'])}` |")
    caption = f"**{parsed['caption'].strip()}**\n\n" if parsed.get("caption") else ""
    editable = f"\n\n{t('download.stepper.editable')}" if parsed.get("editable") else ""
    return caption + "\n".join(rows) + editable


class Stepper(Component):
    kind = KIND
    script = "stepper.js"
    read = staticmethod(parse)
    html = staticmethod(render)

    def notebook(self, parsed):
        return NotebookPart(notebook_table(parsed))
