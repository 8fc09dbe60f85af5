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

from ..strings import t
from .common import ComponentError, attr, check_keys, component_id, load_yaml, md_block, nonempty_text, render_hints, text

KINDS = ("exercise", "thinking")


def parse(source: str) -> dict:
    data = load_yaml(source, "reveal")
    check_keys(data, "reveal", {"id", "question", "answer"}, {"kind", "hints"})
    cid = component_id(data, "reveal")
    kind = data.get("kind", "exercise")
    if kind not in KINDS:
        raise ComponentError(f"reveal '{cid}': kind must be one of {', '.join(KINDS)} (got {kind!r})")
    hints = data.get("hints") or []
    if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
        raise ComponentError(f"reveal '{cid}': hints must be a list of texts")
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
