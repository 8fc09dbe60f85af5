"""``predict`` blocks: "what will this cell print?", answered by the cell's real build-time output.

    ```predict
    id: opt-predict-bumpy
    cell: opt-bumpy          # the id of a pycell on the same page (it may come later on the page)
    question: "What does the loop below print on its last line?"
    ```

The answer is never typed: the plugin runs every cell of the page before rendering and hands
the outputs over (``Components.on_page_cells``), and the block shows exactly what that cell
printed and drew, inside a <details> (keyboard operable, works without JS).
"""

from __future__ import annotations

import re

from ..render import render_items
from ..strings import t
from .common import ComponentError, ID_PATTERN, attr, check_keys, component_id, load_yaml, md_block, nonempty_text, text


def parse(source: str) -> dict:
    data = load_yaml(source, "predict")
    check_keys(data, "predict", {"id", "cell", "question"}, set())
    cid = component_id(data, "predict")
    cell = str(data.get("cell", ""))
    if not ID_PATTERN.match(cell):
        raise ComponentError(f"predict '{cid}': cell must be the id of a pycell on this page (got {cell!r})")
    return {"id": cid, "cell": cell, "question": nonempty_text(data, "question", "predict")}


_SVG_ID = re.compile(r'\bid="([^"]+)"')


def _unique_svg_ids(html: str, prefix: str) -> str:
    """The figure also appears in the cell itself; give this copy its own element ids."""
    for old in set(_SVG_ID.findall(html)):
        new = f"{prefix}-{old}"
        html = (html.replace(f'id="{old}"', f'id="{new}"').replace(f"url(#{old})", f"url(#{new})")
                .replace(f'href="#{old}"', f'href="#{new}"'))
    return html


def render(parsed: dict, outputs: dict) -> str:
    """``outputs`` maps cell id to the build result ``{"items": [...], "result": {...}}``."""
    cid, cell = parsed["id"], parsed["cell"]
    entry = outputs.get(cell)
    if entry is None:  # on_page_cells reports this with the line; kept as a safety net
        raise ComponentError(f"predict '{cid}': there is no pycell with id '{cell}' on this page")
    body = render_items(entry["items"], entry["result"])
    if not body:
        body = f'<p class="pz-predict-empty">{text(t("cell.output.empty"))}</p>'
    return (
        f'<div class="pz-quiz pz-predict" data-component="predict" data-id="{attr(cid)}" data-cell="{attr(cell)}" '
        f'data-state="closed">'
        f'<p class="pz-quiz-kind">{text(t("predict.label"))}</p>'
        f'<div class="pz-question">{md_block(parsed["question"])}</div>'
        f'<details class="pz-answer" data-answer><summary data-action="solution">{text(t("predict.show"))}</summary>'
        f'<div class="pz-answer-body"><p class="pz-quiz-hint">{text(t("predict.note"))}</p>'
        f'<div class="pycell-output" data-predict-output>{_unique_svg_ids(body, cid)}</div></div></details></div>'
    )
