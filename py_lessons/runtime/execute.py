"""Run one code cell and report what it printed, drew or raised, as a list of output items.

The browser worker and the build-time runner both call :func:`run_cell`, so a page's embedded
output and the reader's own Run come from the same code on the same Pyodide.
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from typing import Callable

from . import figures

CELL_FILENAME = "<cell>"

Emit = Callable[[dict], None]


class _StreamToEmit(io.TextIOBase):
    """A text stream that forwards every write as an output item of one kind (stdout/stderr)."""

    def __init__(self, stream: str, emit: Emit):
        self._stream = stream
        self._emit = emit

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self._emit({"type": self._stream, "text": text})
        return len(text)


def _cell_traceback(exc: BaseException) -> str:
    """The traceback as Python prints it, without the frames of this runner."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != CELL_FILENAME:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def new_namespace() -> dict:
    """A fresh module-like namespace, as a script run with ``python file.py`` would see."""
    return {"__name__": "__main__", "__builtins__": __builtins__}


def run_cell(code: str, namespace: dict | None, emit: Emit, *, figure_prefix: str = "fig") -> dict:
    """Execute ``code`` in ``namespace``; call ``emit`` with each output item as it happens.

    Items: ``{"type": "stdout"|"stderr", "text"}``, ``{"type": "figure", "svg"}``.
    Returns ``{"ok": True}`` or ``{"ok": False, "error": name, "traceback": text}``.
    """
    if namespace is None:
        namespace = new_namespace()
    figures.begin_cell(emit, figure_prefix)
    stdout = _StreamToEmit("stdout", emit)
    stderr = _StreamToEmit("stderr", emit)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                compiled = compile(code, CELL_FILENAME, "exec")
                exec(compiled, namespace)
                figures.flush_open_figures()
            finally:
                sys.stdout.flush()
    except BaseException as exc:  # noqa: BLE001 - a reader's SystemExit/KeyboardInterrupt is reported too
        figures.discard_open_figures()
        return {"ok": False, "error": type(exc).__name__, "traceback": _cell_traceback(exc)}
    finally:
        figures.end_cell()
    return {"ok": True}


def merge_items(items: list[dict]) -> list[dict]:
    """Join consecutive text items of the same stream, so output compares by content, not chunking."""
    merged: list[dict] = []
    for item in items:
        if merged and item["type"] in ("stdout", "stderr") and merged[-1]["type"] == item["type"]:
            merged[-1] = {**merged[-1], "text": merged[-1]["text"] + item["text"]}
        else:
            merged.append(dict(item))
    return merged
