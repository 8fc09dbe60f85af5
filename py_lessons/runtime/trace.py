"""Step through a cell: its code runs under ``sys.settrace``, and each executed line of this cell's
own code (its functions, comprehensions and generators included; not NumPy's, not an earlier
cell's) is recorded as a step: the line, its frame (function name, depth, the calls around it) and
the variables that line changed, each summarised, never copied (an array by its shape, dtype,
range and a small corner). A step is recorded once its line has run, so a step says what the line
did ("line 4: w became 4.8").

Bounded: at most ``max_steps`` steps and ``max_bytes`` of recording; at the bound the recording
stops and the run goes on untraced to its end, as Run would, so the session's variables are what
a Run leaves (a cell stopped halfway would leave the next cells a broken session). A reader's
10⁶-step loop thus costs 2,000 traced steps and then its plain speed, and the page receives at
most a quarter of a megabyte. An endless loop is stopped by Stop, as in a Run.
"""

from __future__ import annotations

import json
import math
import reprlib
import sys
import types

from .execute import code_objects

MAX_STEPS = 2_000            # what a reader can step through by hand, and a loop of hundreds
MAX_BYTES = 256 * 1024       # the recording as JSON: what one message to the page carries at most
CORNER = 4                   # rows and columns of an array's corner (8 items of a 1-D array)
STACK_SHOWN = 6              # the innermost calls a step names; deeper recursion says how many more

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 60
_short.maxlist = _short.maxtuple = _short.maxset = _short.maxfrozenset = _short.maxdict = 4
_short.maxlevel = 2

_IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, range)


def _number(value: float):
    """A float JSON can carry: NaN and the infinities as their names."""
    value = float(value)
    return value if math.isfinite(value) else repr(value)


def _round(value: float):
    value = float(value)
    return float(f"{value:.4g}") if math.isfinite(value) else repr(value)


def _array(value, np) -> dict:
    summary = {"kind": "ndarray", "shape": list(value.shape), "dtype": str(value.dtype)}
    if value.dtype.kind in "biuf" and value.size:
        as_float = value.astype(np.float64, copy=False)
        finite = np.isfinite(as_float)
        summary["nan"] = int(np.isnan(as_float).sum())
        summary["inf"] = int(value.size - finite.sum() - summary["nan"])
        if finite.any():
            shown = as_float[finite]
            summary.update(min=_number(shown.min()), max=_number(shown.max()), mean=_number(shown.mean()))
        plane = value[(0,) * (value.ndim - 2)] if value.ndim > 2 else value
        corner = plane[:CORNER, :CORNER] if plane.ndim == 2 else plane[: 2 * CORNER]
        summary["corner"] = [[_round(x) for x in row] for row in corner.tolist()] if corner.ndim == 2 \
            else [_round(x) for x in np.atleast_1d(corner).tolist()]
    summary["text"] = f"array{tuple(value.shape)} {value.dtype}"
    if "min" in summary:
        summary["text"] += f" min={_round(summary['min'])} max={_round(summary['max'])}"
    return summary


def summarise(value) -> dict:
    """What a step shows of a value: ``kind`` and a short ``text`` always; ``len`` for sized
    containers; an array's ``shape``, ``dtype``, ``min``/``max``/``mean`` over its finite entries,
    ``nan``/``inf`` counts and ``corner``. Bounded whatever the value's size."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return _array(value, np)
    if np is not None and isinstance(value, np.generic):
        return {"kind": f"numpy.{type(value).__name__}", "text": _short.repr(value.item())}
    if type(value).__module__.startswith("matplotlib"):
        return {"kind": "matplotlib", "text": f"matplotlib {type(value).__name__}"}
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type)):
        return {"kind": "function" if not isinstance(value, type) else "class", "text": f"{value.__name__}"}
    summary = {"kind": type(value).__name__, "text": _short.repr(value)}
    if isinstance(value, (str, list, tuple, dict, set, frozenset, bytes, range)):
        summary["len"] = len(value)
    return summary


KEYED_ITEMS = 10_000          # containers and arrays up to this size are compared whole, not by summary

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR


def _content(value):
    """What tells a change that the summary may not show (``a[500] += 1``, a list's fifth item):
    a list's, tuple's or dict's scalar items themselves, an array's bytes; None when that is too
    big or not plain data (then the summary decides)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return hash(value.tobytes()) if value.size <= KEYED_ITEMS and value.dtype.kind in "biufc" else None
    if isinstance(value, (list, tuple)) and len(value) <= KEYED_ITEMS:
        return tuple(value) if all(isinstance(item, _IMMUTABLE) for item in value) else None
    if isinstance(value, dict) and len(value) <= KEYED_ITEMS:
        items = tuple(value.items())
        return items if all(isinstance(k, _IMMUTABLE) and isinstance(v, _IMMUTABLE) for k, v in items) else None
    return None


def _shown(name: str, value) -> bool:
    """Whether a variable is the reader's: not a dunder, not an imported module, not `_` (a
    throwaway, also the loop variable of a comprehension Python 3.12 runs inline)."""
    return name != "_" and not (name.startswith("__") and name.endswith("__")) and not isinstance(value, types.ModuleType)


class _Frame:
    __slots__ = ("id", "name", "depth", "line", "seen")

    def __init__(self, frame_id: int, name: str, depth: int):
        self.id, self.name, self.depth = frame_id, name, depth
        self.line = None
        self.seen: dict[str, tuple] = {}  # name -> (id of the value, its summary, its _content)


class Recorder:
    """The steps of one traced run of ``compiled`` (a cell's code object). ``output_units()`` says
    how much output the run has written so far (characters, and 1 per figure)."""

    def __init__(self, compiled, output_units, *, max_steps: int = MAX_STEPS, max_bytes: int = MAX_BYTES):
        self.own = code_objects(compiled)
        self.output_units = output_units
        self.max_steps, self.max_bytes = max_steps, max_bytes
        self.steps: list[dict] = []
        self.bytes = 0
        self.limited = False
        self.frames: dict = {}  # frame -> _Frame (generator frames come back)

    def run(self, compiled, namespace: dict) -> None:
        previous = sys.gettrace()
        sys.settrace(self._call)
        try:
            exec(compiled, namespace)
        finally:
            sys.settrace(previous)
            self.frames.clear()  # they hold the reader's locals

    def report(self) -> dict:
        return {"steps": self.steps, "limited": self.limited, "max_steps": self.max_steps,
                "max_bytes": self.max_bytes}

    def _call(self, frame, event, arg):
        if self.limited or event != "call" or frame.f_code not in self.own:
            return None
        if frame not in self.frames:
            depth, outer = 0, frame.f_back
            while outer is not None:
                depth += outer in self.frames
                outer = outer.f_back
            name = frame.f_code.co_name
            self.frames[frame] = _Frame(len(self.frames), "" if name == "<module>" else name, depth)
        return self._local

    def _local(self, frame, event, arg):
        state = self.frames.get(frame)
        if state is None or self.limited:
            frame.f_trace = None  # past the bound, this frame runs on untraced
            return None
        if event == "line":
            if state.line is not None:
                self._record(frame, state)
            state.line = frame.f_lineno
        elif event == "exception" and state.line is not None:
            error, value, _ = arg
            self._record(frame, state, exception=f"{error.__name__}: {value}"[:200])
            state.line = None
        elif event == "return" and state.line is not None:
            if frame.f_code.co_flags & _GENERATOR_FLAGS:
                self._record(frame, state, yielded=arg)
            else:
                self._record(frame, state, returned=arg)
            state.line = None
        return self._local

    def _changes(self, frame, state) -> tuple[dict, list]:
        changed, now = {}, {}
        for name, value in list(frame.f_locals.items()):
            if not _shown(name, value):
                continue
            now[name] = True
            before = state.seen.get(name)
            if before is not None and before[0] == id(value) and isinstance(value, _IMMUTABLE):
                continue
            summary, content = summarise(value), _content(value)
            if before is not None and before[1] == summary and before[2] == content:
                continue
            changed[name] = summary
            state.seen[name] = (id(value), summary, content)
        gone = [name for name in state.seen if name not in now]
        for name in gone:
            del state.seen[name]
        return changed, gone

    def _stack(self, frame) -> list:
        calls, outer = [], frame.f_back
        while outer is not None:
            if outer in self.frames:
                calls.append([self.frames[outer].name, outer.f_lineno])
            outer = outer.f_back
        calls.reverse()
        return calls[-STACK_SHOWN:] if len(calls) <= STACK_SHOWN else [["…", len(calls) - STACK_SHOWN], *calls[-STACK_SHOWN:]]

    def _record(self, frame, state, *, exception: str | None = None, returned=None, yielded=None) -> None:
        if len(self.steps) >= self.max_steps:
            self._stop()
            return
        changed, gone = self._changes(frame, state)
        step = {"line": state.line, "frame": state.id, "fn": state.name, "depth": state.depth,
                "changed": changed, "out": self.output_units()}
        if gone:
            step["gone"] = gone
        if state.depth:
            step["stack"] = self._stack(frame)
        if exception is not None:
            step["exception"] = exception
        elif returned is not None and state.name:
            step["returned"] = summarise(returned)
        elif yielded is not None:  # a generator handing out its next value (its end returns None)
            step["yielded"] = summarise(yielded)
        size = len(json.dumps(step, ensure_ascii=False).encode("utf-8")) + 1
        if self.bytes + size > self.max_bytes:
            self._stop()
            return
        self.bytes += size
        self.steps.append(step)

    def _stop(self) -> None:
        """The bound: no more steps; every frame, new or running, goes on untraced."""
        self.limited = True
        sys.settrace(None)
        for traced in self.frames:
            traced.f_trace = None
