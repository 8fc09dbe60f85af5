"""Run one code cell and report what it printed, drew or raised, as a list of output items.

The browser worker and the build-time runner both call :func:`run_cell`, so a page's embedded
output and the reader's own Run come from the same code on the same Pyodide.
"""

from __future__ import annotations

import builtins
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


# Why input() cannot wait for the keyboard here (InputNotAvailable.reason, which picks the Bangla
# explanation in explain.py): this Python started from the build's snapshot, which cannot suspend,
# and a fresh one (Restart) would (the page is not isolated, but the browser has JSPI); the page is
# not cross-origin isolated yet (a reload once the offline copy is ready makes it so); it never can
# be here (no service worker on this origin, no JSPI); or the run has no reader at all (the build:
# give the cell ``stdin="..."`` lines).
INPUT_RESTART, INPUT_RELOAD, INPUT_IMPOSSIBLE, INPUT_NO_READER = "restart", "reload", "impossible", "no-reader"
_INPUT_MESSAGES = {
    INPUT_RESTART: "input() can wait for the keyboard once Python is restarted",
    INPUT_RELOAD: "input() cannot wait for the keyboard until the page is opened again",
    INPUT_IMPOSSIBLE: "input() cannot wait for the keyboard on this address",
    INPUT_NO_READER: 'no line for input(): give the cell its lines with stdin="..."',
}

# Reads one line for input(prompt): returns the text, or None if the reader stopped the run.
LineReader = Callable[[str], "str | None"]


class InputNotAvailable(RuntimeError):
    """input() cannot wait for the keyboard in this run; ``reason`` is one of the INPUT_* values."""

    def __init__(self, reason: str):
        super().__init__(_INPUT_MESSAGES.get(reason, reason))
        self.reason = reason


def _line_source(lines: list[str] | None, read_line: LineReader | None, unavailable: str) -> LineReader:
    """Where input() gets its lines: given lines first (the build's ``stdin`` option), then the
    reader's keyboard (``read_line``), else it explains why it cannot."""
    pending = list(lines or [])

    def next_line(prompt: str) -> str | None:
        if pending:
            return pending.pop(0)
        if read_line is None:
            raise InputNotAvailable(unavailable) from None
        return read_line(prompt)

    return next_line


class _OutputBuffer:
    """Output of one run: batched (one message per print would swamp the page), in order across
    stdout and stderr, and cut off after a budget of characters."""

    def __init__(self, emit: Emit, limit: int):
        self._emit = emit
        self.left = limit
        self.units = 0  # characters kept, and 1 per figure: where a trace's step is in the output
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
        self.units += len(kept)
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


def code_objects(code) -> set:
    """A compiled cell and every function, class and comprehension body inside it."""
    found = {code}
    for const in code.co_consts:
        if hasattr(const, "co_consts"):
            found |= code_objects(const)
    return found


def failing_line(exc: BaseException, compiled=None, filename: str = CELL_FILENAME) -> int | None:
    """The line of this cell's code (``compiled``) where ``exc`` happened: the innermost frame that
    runs it (a call into NumPy fails at the cell line that called it; a function defined by an
    earlier cell of the session is not this cell's line), or the line a SyntaxError points at.
    None when the cell's code is not involved."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno
    if compiled is None:
        return None
    own = code_objects(compiled)
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in own:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _cell_traceback(exc: BaseException, filename: str = CELL_FILENAME) -> str:
    """The traceback as Python prints it, without the frames of this runner (before the cell, and
    input()'s own frames inside it)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    report = traceback.TracebackException(type(exc), exc, tb)
    # this module's frames by its code's own file name: __file__ is the .pyc in a bytecode wheel
    own_file = _cell_traceback.__code__.co_filename
    report.stack = traceback.StackSummary.from_list([frame for frame in report.stack if frame.filename != own_file])
    return "".join(report.format())


def new_namespace() -> dict:
    """A fresh module-like namespace, as a script run with ``python file.py`` would see."""
    return {"__name__": "__main__", "__builtins__": __builtins__}


def run_cell(code: str, namespace: dict | None, emit: Emit, *, figure_prefix: str = "fig",
             max_output_chars: int = MAX_OUTPUT_CHARS, filename: str = CELL_FILENAME,
             stdin: list[str] | None = None, read_line: LineReader | None = None,
             input_unavailable: str = INPUT_NO_READER, tracer=None) -> dict:
    """Execute ``code`` in ``namespace``; call ``emit`` with each output item as it happens.

    Items: ``{"type": "stdout"|"stderr", "text"}``, ``{"type": "figure", "svg"}``.
    Returns ``{"ok": True}`` or ``{"ok": False, "error": name, "message": str(exc), "traceback": text,
    "line": N}`` (``line``: the failing line of ``code``, if any), plus ``"truncated": True`` when
    output beyond ``max_output_chars`` was dropped and ``"exit_code"`` when the cell called
    ``sys.exit()``. ``input()`` reads the ``stdin`` lines first, then asks ``read_line(prompt)``
    (None: the reader stopped the run); with neither it raises InputNotAvailable(``input_unavailable``).
    The prompt and the line are echoed to stdout, as a terminal shows them. ``tracer``: a
    ``tracer(compiled, output_units)`` that returns what runs the code instead of ``exec``
    (``trace.Recorder``: step through the cell); its report is the result's ``"trace"``.
    """
    if namespace is None:
        namespace = new_namespace()
    output = _OutputBuffer(emit, max_output_chars)
    next_line = _line_source(stdin, read_line, input_unavailable)

    def cell_input(prompt="") -> str:
        prompt = str(prompt)
        if prompt:
            output.write("stdout", prompt)
        output.flush()  # the prompt must be on the page before the reader is asked
        line = next_line(prompt)
        if line is None:
            raise KeyboardInterrupt
        output.write("stdout", line + "\n")
        return line

    def emit_figure(item: dict) -> None:
        output.flush()  # text printed before plt.show() must appear before the figure
        output.units += 1
        emit(item)

    figures.begin_cell(emit_figure, figure_prefix)
    stdout, stderr = _Stream("stdout", output), _Stream("stderr", output)
    result: dict = {"ok": True}
    original_input = builtins.input
    builtins.input = cell_input  # modules the cell calls read through it too
    compiled, input_reason, recorder = None, "", None
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                compiled = compile(code, filename, "exec")
                if tracer is None:
                    exec(compiled, namespace)
                else:
                    recorder = tracer(compiled, lambda: output.units)
                    recorder.run(compiled, namespace)
                figures.flush_open_figures()
            except SystemExit as exc:
                # sys.exit() ends a script; in a cell it just ends the run (a non-zero code is an error).
                figures.flush_open_figures()
                code_value = exc.code
                if code_value not in (None, 0):
                    result = {"ok": False, "error": "SystemExit", "message": str(code_value),
                              "traceback": _cell_traceback(exc, filename), "line": failing_line(exc, compiled, filename)}
                result["exit_code"] = 0 if code_value is None else code_value
            finally:
                output.flush()
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt from Stop is reported too
        figures.discard_open_figures()
        result = {"ok": False, "error": type(exc).__name__, "message": str(exc),
                  "traceback": _cell_traceback(exc, filename), "line": failing_line(exc, compiled, filename)}
        if isinstance(exc, InputNotAvailable):
            input_reason = exc.reason
    finally:
        builtins.input = original_input
        figures.end_cell()
    if output.truncated:
        result["truncated"] = True
    if recorder is not None:
        result["trace"] = recorder.report()
    if not result["ok"]:
        if result.get("line") is None:
            result.pop("line", None)
        result["explain"] = explanation_key(result["error"], result["message"], input_reason)
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
