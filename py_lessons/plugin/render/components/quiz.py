"""``mcq`` and ``ordering`` blocks: self-check questions, checked in the page by plain JS.

    ```mcq
    id: lr-too-big
    question: What happens when ...?
    choices:
      - text: It diverges
        correct: true
        explain: (optional, shown after a right answer)
      - text: It converges faster
        explain: Why this is wrong (shown when the reader picks it)
    ```

    ```ordering
    id: train-loop
    question: Put the steps of one training step in order.
    items: [forward pass, loss, backward, optimizer step]   # the correct order
    explain: Why this order.
    ```
"""

from __future__ import annotations

import hashlib
import json

from ...base.errors import BlockError
from ...base.html import attr, md_block, md_inline, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, check_keys, nonempty_text, read_block
from .base import Component, NotebookPart, stable_permutation


def parse_mcq(source: str) -> dict:
    data = read_block(source, "mcq", {"id", "question", "choices"})
    cid = block_id(data, "mcq")
    question = nonempty_text(data, "question", "mcq")
    choices = data["choices"]
    if not isinstance(choices, list) or len(choices) < 2:
        raise BlockError(f"mcq '{cid}': choices must be a list of at least two entries")
    parsed = []
    for n, choice in enumerate(choices, start=1):
        if not isinstance(choice, dict):
            raise BlockError(f"mcq '{cid}': choice {n} must be a mapping with text (and correct/explain)")
        check_keys(choice, f"mcq '{cid}' choice {n}", {"text"}, {"correct", "explain"})
        correct = choice.get("correct", False)
        if not isinstance(correct, bool):
            raise BlockError(f"mcq '{cid}': choice {n}'s correct must be true or false")
        explain = choice.get("explain")
        if not correct and not (isinstance(explain, str) and explain.strip()):
            raise BlockError(f"mcq '{cid}': wrong choice {n} needs an explain (why it is wrong)")
        parsed.append({"text": nonempty_text(choice, "text", f"mcq '{cid}' choice {n}"),
                       "correct": correct, "explain": explain})
    right = [n for n, c in enumerate(parsed) if c["correct"]]
    if len(right) != 1:
        raise BlockError(f"mcq '{cid}': exactly one choice must have correct: true (found {len(right)})")
    return {"id": cid, "question": question, "choices": parsed, "answer": right[0]}


def revision(parsed: dict) -> str:
    """The question's content revision: a digest of everything the reader sees and is checked
    against (question, choices or items, the answer, explanations). A review (lib/review.js)
    scheduled for another revision is retired, never asked with an answer that has changed."""
    canonical = json.dumps(parsed, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def _feedback(cid: str) -> str:
    return (f'<div class="pz-feedback" role="status" aria-live="polite" data-feedback id="{attr(cid)}-feedback"></div>')


def render_mcq(parsed: dict) -> str:
    cid = parsed["id"]
    choices = []
    explains = []
    for n, choice in enumerate(parsed["choices"]):
        choices.append(
            # aria-label: a choice that is only a formula has no text name once KaTeX has drawn it
            f'<label class="pz-choice"><input type="radio" name="{attr(cid)}-choice" value="{n}" '
            f'aria-label="{attr(choice["text"].replace("$", ""))}">'
            f'<span>{md_inline(choice["text"])}</span></label>'
        )
        if choice["explain"]:
            explains.append(f'<div class="pz-explain" data-explain-for="{n}" hidden>{md_block(choice["explain"])}</div>')
    return (
        f'<div class="pz-quiz pz-mcq" data-component="mcq" data-id="{attr(cid)}" data-state="unanswered" '
        f'data-answer="{parsed["answer"]}" data-revision="{revision(parsed)}">'
        f'<p class="pz-quiz-kind">{text(t("quiz.mcq.label"))}</p>'
        f'<div class="pz-question" id="{attr(cid)}-question">{md_block(parsed["question"])}</div>'
        f'<div class="pz-choices" role="radiogroup" aria-labelledby="{attr(cid)}-question">{"".join(choices)}</div>'
        f'<div class="pz-actions">'
        f'<button type="button" class="pz-button" data-action="check">{text(t("quiz.check"))}</button>'
        f'<button type="button" class="pz-button" data-action="retry" hidden>{text(t("quiz.retry"))}</button></div>'
        f'{_feedback(cid)}{"".join(explains)}</div>'
    )


def parse_ordering(source: str) -> dict:
    data = read_block(source, "ordering", {"id", "question", "items"}, {"explain"})
    cid = block_id(data, "ordering")
    question = nonempty_text(data, "question", "ordering")
    items = data["items"]
    if not isinstance(items, list) or len(items) < 2:
        raise BlockError(f"ordering '{cid}': items must list at least two steps, in the correct order")
    items = [str(item) for item in items]
    if len(set(items)) != len(items):
        raise BlockError(f"ordering '{cid}': two items have the same text, so the order is ambiguous")
    return {"id": cid, "question": question, "items": items, "explain": data.get("explain")}


def render_ordering(parsed: dict) -> str:
    cid = parsed["id"]
    rows = []
    for index in stable_permutation(cid, len(parsed["items"])):
        label = parsed["items"][index]
        plain = text(label)
        rows.append(
            f'<li class="pz-order-item" data-item="{index}"><span class="pz-order-text">{md_inline(label)}</span>'
            f'<span class="pz-order-buttons">'
            f'<button type="button" class="pz-button pz-icon" data-action="up" aria-label="{attr(t("order.up", item=plain))}">▲</button>'
            f'<button type="button" class="pz-button pz-icon" data-action="down" aria-label="{attr(t("order.down", item=plain))}">▼</button>'
            f'</span></li>'
        )
    explain = (f'<div class="pz-explain" data-explain-for="all" hidden>{md_block(parsed["explain"])}</div>'
               if parsed["explain"] else "")
    return (
        f'<div class="pz-quiz pz-ordering" data-component="ordering" data-id="{attr(cid)}" data-state="unanswered" '
        f'data-revision="{revision(parsed)}">'
        f'<p class="pz-quiz-kind">{text(t("quiz.ordering.label"))}</p>'
        f'<div class="pz-question" id="{attr(cid)}-question">{md_block(parsed["question"])}'
        f'<p class="pz-quiz-hint">{text(t("order.hint"))}</p></div>'
        f'<ol class="pz-order" aria-labelledby="{attr(cid)}-question">{"".join(rows)}</ol>'
        f'<div class="pz-actions">'
        f'<button type="button" class="pz-button" data-action="check">{text(t("quiz.check"))}</button>'
        f'<button type="button" class="pz-button" data-action="retry" hidden>{text(t("quiz.retry"))}</button></div>'
        f'{_feedback(cid)}{explain}</div>'
    )


class Mcq(Component):
    kind = "mcq"
    script = "quiz.js"
    read = staticmethod(parse_mcq)
    html = staticmethod(render_mcq)
    question = True

    def notebook(self, parsed):
        choices = "\n".join(f"- {choice['text'].strip()}" for choice in parsed["choices"])
        return NotebookPart(f"**{t('quiz.mcq.label')}**\n\n{parsed['question'].strip()}\n\n{choices}\n\n"
                            f"{t('download.quiz')}")


class Ordering(Component):
    kind = "ordering"
    script = "quiz.js"
    read = staticmethod(parse_ordering)
    html = staticmethod(render_ordering)
    question = True

    def notebook(self, parsed):  # shuffled as on the page: the order is the question
        items = "\n".join(f"- {parsed['items'][i]}" for i in stable_permutation(parsed["id"], len(parsed["items"])))
        return NotebookPart(f"**{t('quiz.ordering.label')}**\n\n{parsed['question'].strip()}\n\n{items}\n\n"
                            f"{t('download.quiz')}")
