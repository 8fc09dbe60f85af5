"""``stepper`` blocks: a worked calculation from py_lessons.runtime.steppers, shown row by row.

    ```stepper
    id: clip-demo
    function: norm_clip
    inputs: {grad: [3, 4, 12], max_norm: 5}
    editable: true
    ```

The rows come from ``run_stepper`` at build time (CPython); an editable stepper re-runs the same
function in the reader's Pyodide. Unknown functions and bad inputs fail the build.
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

KIND = "stepper"


def parse(source: str) -> dict:
    data = read_block(source, KIND, {"id", "function"}, {"inputs", "editable", "caption"})
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
            "caption": data.get("caption"), "spec": steppers.describe(name)}


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


def render(parsed: dict) -> str:
    result = parsed["result"]
    steps = result["steps"]
    total = len(steps)
    cid = parsed["id"]
    caption = parsed["caption"] or result["title"]
    editable = parsed["editable"]
    initial = json.dumps({k: input_text(v) for k, v in result["inputs"].items()}, ensure_ascii=False)
    return (
        f'<div class="pz-stepper" data-component="stepper" data-id="{attr(cid)}" '
        # written at its first step, as stepper.js starts it: the script then moves nothing on the page
        f'data-function="{attr(parsed["function"])}" data-step="1" data-total="{total}" '
        f'data-state="{"complete" if total == 1 else "partial"}"{" data-editable" if editable else ""} '
        f'data-initial="{attr(initial)}" aria-labelledby="{attr(cid)}-caption">'
        f'<p class="pz-stepper-caption" id="{attr(cid)}-caption">{text(caption)}</p>'
        f'<div class="pz-scroll" tabindex="0" role="region" aria-labelledby="{attr(cid)}-caption"><table class="pz-stepper-table">'
        f'<thead><tr><th scope="col">{text(t("stepper.col.step"))}</th><th scope="col">{text(t("stepper.col.what"))}</th>'
        f'<th scope="col">{text(t("stepper.col.calc"))}</th><th scope="col">{text(t("stepper.col.result"))}</th></tr></thead>'
        f'<tbody data-rows>{render_rows(steps, shown=1)}</tbody></table></div>'
        f'<div class="pz-stepper-nav" data-nav>'
        f'<button type="button" class="pz-button" data-action="prev" aria-disabled="true">{text(t("stepper.prev"))}</button>'
        f'<span class="pz-stepper-position" data-position>{text(t("stepper.position", n=1, total=total))}</span>'
        f'<button type="button" class="pz-button" data-action="next" aria-disabled="{str(total == 1).lower()}">{text(t("stepper.next"))}</button>'
        f'<button type="button" class="pz-button" data-action="all">{text(t("stepper.all"))}</button></div>'
        # the worked example first, then the reader's own values: on a phone the inputs filled the
        # first screen before any row of the calculation showed
        f'{render_form(parsed) if editable else ""}'
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
