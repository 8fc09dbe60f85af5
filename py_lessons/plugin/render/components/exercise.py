"""``exercise`` blocks: code the reader writes, checked by hidden checks in Pyodide.

    ```exercise
    id: opt-ex-lr
    prompt: "Set the learning rate to 0.1."      # markdown
    starter: |                                   # shown in an editor; blanks like ___ are fine
      lr = ___
    checks: |                                    # hidden; run after the reader's code, same namespace
      assert abs(lr - 0.1) < 1e-9, "শেখার হার ঠিক হয়নি"
    solution: |
      lr = 0.1
    hints: ["...", "..."]                        # optional, opened one after another
    attempts: 3                                  # optional (default 3): solution offered after this many failures
    ```

At build time the plugin runs ``solution`` then ``checks`` in one fresh namespace of the build's
Pyodide and fails the build unless they pass, and fails it too if the starter already passes
(:meth:`Exercise.check`). In the page the editor is an ordinary runnable cell (same
CodeMirror, Run, Reset, saved edits) marked ``data-cell-kind="exercise"``; the check button, hints
and solution are driven by ``assets/pathshala/components/exercise.js``.
"""

from __future__ import annotations

from html import escape

from ...base.errors import BlockError
from ...base.html import attr, md_block, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, nonempty_text, read_block
from ..cell_html import render_cell
from .base import Component, NotebookPart, render_hints

DEFAULT_ATTEMPTS = 3


def _code(data: dict, key: str, cid: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BlockError(f"exercise '{cid}': {key} must be Python code (use `{key}: |` and indent the lines)")
    return value.rstrip("\n")


def parse(source: str) -> dict:
    data = read_block(source, "exercise", {"id", "prompt", "starter", "checks", "solution"}, {"hints", "attempts"})
    cid = block_id(data, "exercise")
    hints = data.get("hints") or []
    if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
        raise BlockError(f"exercise '{cid}': hints must be a list of texts")
    attempts = data.get("attempts", DEFAULT_ATTEMPTS)
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise BlockError(f"exercise '{cid}': attempts must be a whole number of at least 1 (got {attempts!r})")
    return {"id": cid, "prompt": nonempty_text(data, "prompt", "exercise"),
            "starter": _code(data, "starter", cid), "checks": _code(data, "checks", cid),
            "solution": _code(data, "solution", cid), "hints": hints, "attempts": attempts}


def editor_id(cid: str) -> str:
    """The data-cell-id of the exercise's editor (the reader's edits are saved under it)."""
    return f"{cid}-code"


def verify(parsed: dict, run_checks) -> None:
    """``run_checks(code, checks)`` -> {"stage": "code"|"checks", "result": {...}} in the build's Pyodide.
    Raises BlockError unless the solution passes and the starter does not."""
    cid = parsed["id"]
    solved = run_checks(parsed["solution"], parsed["checks"])
    if not (solved["stage"] == "checks" and solved["result"]["ok"]):
        result = solved["result"]
        where = "the solution itself" if solved["stage"] == "code" else "the checks, run after the solution,"
        raise BlockError(f"exercise '{cid}': {where} raised {result['error']}: {result['message']}\n"
                         f"{result.get('traceback', '')}")
    started = run_checks(parsed["starter"], parsed["checks"])
    if started["stage"] == "checks" and started["result"]["ok"]:
        raise BlockError(f"exercise '{cid}': the starter code already passes the checks, "
                             "so there is nothing to do (make the checks stricter or leave a blank)")


def render(parsed: dict) -> str:
    cid = parsed["id"]
    editor = render_cell(editor_id(cid), parsed["starter"], [], {"ok": True}, session=None, raises=None,
                         timeout=None, kind="exercise")
    hints = render_hints(parsed["hints"])
    return (
        f'<div class="pz-quiz pz-exercise" data-component="exercise" data-id="{attr(cid)}" data-state="idle" '
        f'data-max-attempts="{parsed["attempts"]}" data-attempts="0" data-checks="{attr(parsed["checks"])}">'
        f'<p class="pz-quiz-kind">{text(t("exercise.label"))}</p>'
        f'<div class="pz-question">{md_block(parsed["prompt"])}</div>'
        f'{editor}'
        f'<div class="pz-actions">'
        f'<button type="button" class="pz-button" data-action="check">{text(t("exercise.check"))}</button></div>'
        f'<div class="pz-feedback" role="status" aria-live="polite" data-feedback id="{attr(cid)}-feedback"></div>'
        f'{hints}'
        f'<details class="pz-answer" data-solution><summary data-action="solution">{text(t("exercise.solution.show"))}</summary>'
        # a bare <pre>: the theme adds its small copy button to every pre > code, too small to tap
        f'<div class="pz-answer-body"><pre class="pz-solution-code" data-solution-code>{escape(parsed["solution"], quote=False)}</pre>'
        f'</div></details></div>'
    )


class Exercise(Component):
    kind = "exercise"
    script = "exercise.js"
    read = staticmethod(parse)
    html = staticmethod(render)

    def check(self, parsed, page, python):
        verify(parsed, lambda code, checks: python.check_exercise(page, code, checks))

    def notebook(self, parsed):
        # the code cell is tagged like a cell meant to fail: a starter's blanks (___) stop Jupyter's Run all
        return NotebookPart(f"**{t('exercise.label')}**\n\n{parsed['prompt'].strip()}\n\n{t('download.exercise')}",
                            code=parsed["starter"], cell_id=editor_id(parsed["id"]))
