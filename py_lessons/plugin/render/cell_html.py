"""HTML for a runnable cell: code, controls and the output produced at build time.

The data-* attributes are stable hooks that the front end and the browser tests rely on.
``data-output`` holds only what the program printed or drew; labels and status live outside it.
"""

from __future__ import annotations

from html import escape

from ..base.strings import t


def _pre(stream: str, text: str) -> str:
    # The HTML parser drops one newline right after <pre>; double it so the text survives intact.
    body = escape(text, quote=False)
    if body.startswith("\n"):
        body = "\n" + body
    # tabindex: a line wider than the box scrolls inside it, so the keyboard must reach it too
    return f'<pre class="pycell-stream pycell-{stream}" data-stream="{stream}" tabindex="0">{body}</pre>'


def render_items(items: list[dict], result: dict) -> str:
    parts = []
    for item in items:
        if item["type"] in ("stdout", "stderr"):
            parts.append(_pre(item["type"], item["text"]))
        elif item["type"] == "figure":
            svg = item["svg"].replace("<svg ", f'<svg aria-label="{escape(t("cell.figure"))}" ', 1)
            parts.append(f'<div class="pycell-figure" data-figure>{svg}</div>')
    if not result.get("ok", True):
        parts.append(_pre("traceback", result["traceback"]))
    return "".join(parts)


def render_notes(result: dict, runs_href: str) -> str:
    """Notes under the output (never inside it): a friendly explanation, a truncation notice.
    ``runs_href``: the page of real runs, linked from the "no torch here" note."""
    notes = []
    if result.get("truncated"):
        notes.append(f'<p class="pycell-note" data-note="truncated">{escape(t("cell.output.truncated"))}</p>')
    key = result.get("explain")
    if key:
        link = ""
        if key == "explain.ModuleNotFoundError.torch":
            link = f' <a href="{escape(runs_href)}">{escape(t("explain.runs.link"))}</a>'
        notes.append(f'<p class="pycell-note pycell-explain" data-note="explain" data-explain="{escape(key)}">'
                     f'<strong>{escape(t("explain.title"))}</strong> {escape(t(key))}{link}</p>')
    return "".join(notes)


def render_cell(cell_id: str, code: str, items: list[dict], result: dict, *, session: str | None,
                raises: str | None, timeout: float | None, runs_href: str = "", kind: str | None = None,
                awaits_prediction: bool = False) -> str:
    """``kind`` marks cells that are part of a component (``exercise``: the reader's editor, with
    no build output of its own). ``awaits_prediction``: a predict block asks about this cell, so
    once the page's scripts run its output is blurred until the reader opens the predict's answer,
    runs the cell or asks to see it (components/predict.js); the layout does not move."""
    attrs = [f'data-cell-id="{escape(cell_id)}"', 'data-state="idle"']
    if awaits_prediction:
        attrs.append("data-awaiting-prediction")
    if kind:
        attrs.append(f'data-cell-kind="{escape(kind)}"')
    if session:
        attrs.append(f'data-session="{escape(session)}"')
    if raises:
        attrs.append(f'data-raises="{escape(raises)}"')
    if timeout:
        attrs.append(f'data-timeout="{timeout:g}"')
    return (
        f'<div class="pycell" {" ".join(attrs)}>'
        f'<div class="pycell-toolbar"><span class="pycell-label">{escape(t("cell.label"))}</span>'
        f'<button type="button" class="pycell-button" data-action="run" title="{escape(t("cell.run.hint"))}">{escape(t("cell.run"))}</button>'
        f'<button type="button" class="pycell-button" data-action="stop" disabled>{escape(t("cell.stop"))}</button>'
        # the cell's other actions: in the row on a wide screen, behind "more" on a phone
        # (assets/cells/more-menu.js; share and "show the original" join them in the page)
        f'<button type="button" class="pycell-button pycell-more-button" data-more-button popovertarget="pz-more-{escape(cell_id)}" '
        f'aria-haspopup="true">{escape(t("cell.more"))}</button>'
        f'<div class="pycell-more" id="pz-more-{escape(cell_id)}" popover data-more-menu>'
        # step through the code line by line, watching its variables (cells/trace-view.js)
        f'<button type="button" class="pycell-button" data-action="trace">{escape(t("cell.trace"))}</button>'
        f'<button type="button" class="pycell-button" data-action="reset">{escape(t("cell.reset"))}</button></div>'
        f"</div>"
        f'<div class="pycell-editor" data-editor aria-label="{escape(t("cell.editor"))}">'
        # a bare <pre>, not the theme's <pre><code>: the theme's script mounts every pre > code at
        # load (a copy button a cell hides, an id, a size observer, a forced layout each); tabindex:
        # keyboard readers can reach and scroll the code; focusing it loads the editor
        f'<pre class="pycell-code" tabindex="0">{escape(code, quote=False)}</pre></div>'
        f'<div class="pycell-status" role="status" aria-live="polite" data-status></div>'
        f'<div class="pycell-output-label">{escape(t("cell.output"))} '
        f'<span data-output-origin>{"" if kind == "exercise" else escape(t("cell.output.build"))}</span>'
        + (f'<span class="pycell-veil" data-veil>{escape(t("predict.veiled"))} '
           f'<button type="button" class="pycell-button" data-action="unveil">{escape(t("predict.unveil"))}</button></span>'
           if awaits_prediction else "")
        + '</div>'
        f'<div class="pycell-output" data-output data-search-exclude>{render_items(items, result)}</div>'
        f'<div class="pycell-notes" data-notes>{render_notes(result, runs_href)}</div>'
        f"</div>"
    )
