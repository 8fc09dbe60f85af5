"""Run one code cell and report what it printed, drew or raised, as a list of output items.

The browser worker and the build-time runner both call :func:`run_cell`, so a page's embedded
output and the reader's own Run come from the same code on the same Pyodide.
"""

from __future__ import annotations

import contextlib
import io
import time
import traceback
from typing import Callable

from . import figures
from .explain import explanation_key

CELL_FILENAME = "<cell>"
MAX_OUTPUT_CHARS = 100_000   # per run: a print loop must not flood the page
FLUSH_CHARS = 8_192          # batch small writes: one message per print would swamp the page
FLUSH_SECONDS = 0.05

Emit = Callable[[dict], None]


class InputNotAvailable(RuntimeError):
    """input() cannot wait for the keyboard inside a page's worker (or at build time)."""


def _no_input(prompt=""):
    raise InputNotAvailable("input() is not available here: put the value in the code instead")


class _OutputBuffer:
    """Output of one run: batched (one message per print would swamp the page), in order across
    stdout and stderr, and cut off after a budget of characters."""

    def __init__(self, emit: Emit, limit: int):
        self._emit = emit
        self.left = limit
        self.truncated = False
        self._stream: str | None = None
        self._pending: list[str] = []
        self._pending_chars = 0
        self._last_flush = time.monotonic()

    def write(self, stream: str, text: str) -> None:
        if self.left <= 0:
            self.truncated = True
            return
        kept = text[: self.left]
        self.left -= len(kept)
        self.truncated = self.truncated or len(kept) < len(text)
        if stream != self._stream:
            self.flush()
            self._stream = stream
        self._pending.append(kept)
        self._pending_chars += len(kept)
        if self._pending_chars >= FLUSH_CHARS or time.monotonic() - self._last_flush >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self._emit({"type": self._stream, "text": "".join(self._pending)})
            self._pending, self._pending_chars = [], 0
        self._last_flush = time.monotonic()


class _Stream(io.TextIOBase):
    """sys.stdout / sys.stderr during a run."""

    def __init__(self, name: str, buffer: _OutputBuffer):
        self._name = name
        self._buffer = buffer

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self._buffer.write(self._name, text)
        return len(text)

    def flush(self) -> None:
        pass  # the buffer decides when to send; it is flushed when the run ends


def _cell_traceback(exc: BaseException, filename: str = CELL_FILENAME) -> str:
    """The traceback as Python prints it, without the frames of this runner."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def new_namespace() -> dict:
    """A fresh module-like namespace, as a script run with ``python file.py`` would see."""
    return {"__name__": "__main__", "__builtins__": __builtins__, "input": _no_input}


def run_cell(code: str, namespace: dict | None, emit: Emit, *, figure_prefix: str = "fig",
             max_output_chars: int = MAX_OUTPUT_CHARS, filename: str = CELL_FILENAME) -> dict:
    """Execute ``code`` in ``namespace``; call ``emit`` with each output item as it happens.

    Items: ``{"type": "stdout"|"stderr", "text"}``, ``{"type": "figure", "svg"}``.
    Returns ``{"ok": True}`` or ``{"ok": False, "error": name, "message": str(exc), "traceback": text}``,
    plus ``"truncated": True`` when output beyond ``max_output_chars`` was dropped and
    ``"exit_code"`` when the cell called ``sys.exit()``.
    """
    if namespace is None:
        namespace = new_namespace()
    output = _OutputBuffer(emit, max_output_chars)

    def emit_figure(item: dict) -> None:
        output.flush()  # text printed before plt.show() must appear before the figure
        emit(item)

    figures.begin_cell(emit_figure, figure_prefix)
    stdout, stderr = _Stream("stdout", output), _Stream("stderr", output)
    result: dict = {"ok": True}
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                exec(compile(code, filename, "exec"), namespace)
                figures.flush_open_figures()
            except SystemExit as exc:
                # sys.exit() ends a script; in a cell it just ends the run (a non-zero code is an error).
                figures.flush_open_figures()
                code_value = exc.code
                if code_value not in (None, 0):
                    result = {"ok": False, "error": "SystemExit", "message": str(code_value),
                              "traceback": _cell_traceback(exc, filename)}
                result["exit_code"] = 0 if code_value is None else code_value
            finally:
                output.flush()
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt from Stop is reported too
        figures.discard_open_figures()
        result = {"ok": False, "error": type(exc).__name__, "message": str(exc), "traceback": _cell_traceback(exc, filename)}
    finally:
        figures.end_cell()
    if output.truncated:
        result["truncated"] = True
    if not result["ok"]:
        result["explain"] = explanation_key(result["error"], result["message"])
    return result


def merge_items(items: list[dict]) -> list[dict]:
    """Join consecutive text items of the same stream, so output compares by content, not chunking."""
    merged: list[dict] = []
    for item in items:
        if merged and item["type"] in ("stdout", "stderr") and merged[-1]["type"] == item["type"]:
            merged[-1] = {**merged[-1], "text": merged[-1]["text"] + item["text"]}
        else:
            merged.append(dict(item))
    return merged
