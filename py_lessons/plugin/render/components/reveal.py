"""``reveal`` blocks: an exercise or a thinking question whose answer stays hidden until asked.

    ```reveal
    id: think-1
    kind: thinking        # or: exercise
    question: ...
    hints: [optional, progressive, hints]
    answer: ...
    ```

Built on <details>/<summary>, so it opens and closes with the keyboard even without JS.
"""

from __future__ import annotations

from html import escape

from ...base.errors import BlockError
from ...base.html import attr, md_block, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, nonempty_text, read_block
from .base import Component, NotebookPart, render_hints

KINDS = ("exercise", "thinking")


def parse(source: str) -> dict:
    data = read_block(source, "reveal", {"id", "question", "answer"}, {"kind", "hints"})
    cid = block_id(data, "reveal")
    kind = data.get("kind", "exercise")
    if kind not in KINDS:
        raise BlockError(f"reveal '{cid}': kind must be one of {', '.join(KINDS)} (got {kind!r})")
    hints = data.get("hints") or []
    if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
        raise BlockError(f"reveal '{cid}': hints must be a list of texts")
    return {"id": cid, "kind": kind, "question": nonempty_text(data, "question", "reveal"),
            "answer": nonempty_text(data, "answer", "reveal"), "hints": hints}


def render(parsed: dict) -> str:
    cid = parsed["id"]
    hints = render_hints(parsed["hints"])
    return (
        f'<div class="pz-reveal" data-component="reveal" data-id="{attr(cid)}" data-kind="{parsed["kind"]}" data-state="closed">'
        f'<p class="pz-quiz-kind">{text(t("reveal.kind." + parsed["kind"]))}</p>'
        f'<div class="pz-question">{md_block(parsed["question"])}</div>{hints}'
        f'<details class="pz-answer" data-answer><summary data-action="solution">{text(t("reveal.show"))}</summary>'
        f'<div class="pz-answer-body">{md_block(parsed["answer"])}</div></details></div>'
    )


class Reveal(Component):
    kind = "reveal"
    script = "reveal.js"
    read = staticmethod(parse)
    html = staticmethod(render)

    def notebook(self, parsed):
        return NotebookPart(f"**{t('reveal.kind.' + parsed['kind'])}:** {parsed['question'].strip()}\n\n"
                            f"<details><summary>{escape(t('reveal.show'))}</summary>\n\n{parsed['answer'].strip()}"
                            f"\n\n</details>")
