"""``predict`` blocks: "what will this cell print?", answered by the cell's real build-time output.

    ```predict
    id: opt-predict-bumpy
    cell: opt-bumpy          # the id of a pycell on the same page (it may come later on the page)
    question: "What does the loop below print on its last line?"
    ```

The answer is never typed: the plugin runs every cell of the page before rendering, and the block
shows exactly what that cell printed and drew, inside a <details> (keyboard operable, works
without JS). Having looked, the reader says whether the prediction matched: that verdict is the
question's answer for review (components/predict.js), and the review page asks it again with the
cell's code beside it (built.py), on the same schedule as the course's other questions.
"""

from __future__ import annotations

import re

from ...base.errors import BlockError
from ...base.html import attr, md_block, text
from ...base.strings import t
from ...base.yaml_blocks import ID_PATTERN, block_id, nonempty_text, read_block
from ..cell_html import render_items
from .base import Component, NotebookPart
from .quiz import revision


def parse(source: str) -> dict:
    data = read_block(source, "predict", {"id", "cell", "question"})
    cid = block_id(data, "predict")
    cell = str(data.get("cell", ""))
    if not ID_PATTERN.match(cell):
        raise BlockError(f"predict '{cid}': cell must be the id of a pycell on this page (got {cell!r})")
    return {"id": cid, "cell": cell, "question": nonempty_text(data, "question", "predict")}


_SVG_ID = re.compile(r'\bid="([^"]+)"')


def _unique_svg_ids(html: str, prefix: str) -> str:
    """The figure also appears in the cell itself; give this copy its own element ids."""
    for old in set(_SVG_ID.findall(html)):
        new = f"{prefix}-{old}"
        html = (html.replace(f'id="{old}"', f'id="{new}"').replace(f"url(#{old})", f"url(#{new})")
                .replace(f'href="#{old}"', f'href="#{new}"'))
    return html


def shown(parsed: dict, outputs: dict, codes: dict[str, str]) -> dict:
    """What the reader is asked about and shown: the cell's code and its build output (HTML).
    Kept in the block as parsed, so its content revision (quiz.revision) covers them and the
    review page (built.py) can ask the question away from its cell."""
    cid, cell = parsed["id"], parsed["cell"]
    entry = outputs.get(cell)
    if entry is None:  # Predict.check reports this first
        raise BlockError(f"predict '{cid}': there is no pycell with id '{cell}' on this page")
    body = render_items(entry["items"], entry["result"])
    if not body:
        body = f'<p class="pz-predict-empty">{text(t("cell.output.empty"))}</p>'
    return {"code": codes.get(cell, ""), "output": _unique_svg_ids(body, cid)}


def render(parsed: dict, *, with_code: bool = False) -> str:
    """The question, the build's output behind "show", and the reader's own verdict (it enters
    review). ``with_code``: show the cell's code too (the review page, where the cell is not)."""
    cid, cell = parsed["id"], parsed["cell"]
    code = (f'<p class="pz-quiz-hint">{text(t("predict.code"))}</p>'
            f'<pre class="pz-predict-code"><code>{text(parsed["shown"]["code"])}</code></pre>') if with_code else ""
    return (
        f'<div class="pz-quiz pz-predict" data-component="predict" data-id="{attr(cid)}" data-cell="{attr(cell)}" '
        f'data-revision="{revision(parsed)}" data-state="closed">'
        f'<p class="pz-quiz-kind">{text(t("predict.label"))}</p>'
        f'<div class="pz-question" id="{attr(cid)}-question">{md_block(parsed["question"])}</div>{code}'
        f'<details class="pz-answer" data-answer><summary data-action="solution">{text(t("predict.show"))}</summary>'
        f'<div class="pz-answer-body"><p class="pz-quiz-hint">{text(t("predict.note"))}</p>'
        f'<div class="pycell-output" data-predict-output>{parsed["shown"]["output"]}</div>'
        f'<div class="pz-predict-grade" data-predict-grade><p id="{attr(cid)}-grade">{text(t("predict.grade.ask"))}</p>'
        f'<div class="pz-actions" role="group" aria-labelledby="{attr(cid)}-grade">'
        f'<button type="button" class="pz-button" data-action="predict-grade" data-grade="right">{text(t("predict.grade.right"))}</button>'
        f'<button type="button" class="pz-button" data-action="predict-grade" data-grade="wrong">{text(t("predict.grade.wrong"))}</button></div>'
        f'<p class="pz-status" role="status" aria-live="polite" data-grade-status></p></div>'
        f'</div></details></div>'
    )


class Predict(Component):
    kind = "predict"
    script = "predict.js"
    read = staticmethod(parse)

    def check(self, parsed, page, python):
        outputs = page.outputs_by_cell_id()
        if parsed["cell"] not in outputs:
            known = ", ".join(sorted(outputs)) or "none"
            raise BlockError(f"predict '{parsed['id']}': there is no pycell with id '{parsed['cell']}' on this page "
                         f"(cells here: {known})")

    def render(self, parsed, page):
        parsed["shown"] = shown(parsed, page.outputs_by_cell_id(), {spec.cell_id: spec.code for spec in page.cells})
        return render(parsed)

    def notebook(self, parsed):
        return NotebookPart(f"**{t('predict.label')}** {parsed['question'].strip()}")
