"""Entry points the JavaScript side calls: start-up settings and named namespaces.

A cell runs in a fresh namespace unless its page puts it in a named session; the namespaces of
sessions live here, so "reset the Python state" is one call.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import os
import sys

from . import checking, execute, figures, trace
from .content import CONTENT_PACKAGE
from .fonts import BANGLA_FONT_FAMILY, FONT_DIR, install_font_cache

# What the page's worker (assets/pathshala/python/worker.js) and the build's runner
# (plugin/execute/node/run_cells.mjs) call; nothing else of the runtime is theirs to use.
__all__ = ["FONT_DIR", "BANGLA_FONT_FAMILY", "configure", "install_font_cache", "set_line_reader",
           "content_imports", "modules_imported_by", "content_modules_named", "preimport", "reset", "run",
           "check", "call"]

MPL_CONFIG_DIR = "/tmp/matplotlib"

# DejaVu Sans has no Bengali glyphs. matplotlib falls back glyph by glyph only across the named
# families in font.family (not inside a generic family), so both are named: Bangla labels are
# then measured with real glyphs (no missing-glyph warnings) and the SVG names both families.
_MATPLOTLIBRC = f"""\
backend: {figures.BACKEND}
font.family: DejaVu Sans, {BANGLA_FONT_FAMILY}, sans-serif
svg.fonttype: none
"""

_sessions: dict[str, dict] = {}
# How input() reaches the reader in this Python (set once by the page's worker; the build has none).
_keyboard: dict = {"read_line": None, "unavailable": execute.INPUT_NO_READER}


def set_line_reader(read_line, unavailable: str = execute.INPUT_NO_READER, *, suspends: bool = False) -> None:
    """``read_line(prompt) -> str | None`` asks the reader for a line (None: the run was stopped),
    or None with the reason input() cannot (``execute.INPUT_*``). ``suspends``: ``read_line``
    returns a JavaScript promise of the line instead, which input() waits for by suspending
    Python's stack (WebAssembly JSPI, ``pyodide.ffi.run_sync``: the run must have been entered
    with ``callPromising``); so input() blocks without shared memory."""
    if suspends:
        from pyodide.ffi import run_sync  # Pyodide only: the build never suspends

        ask = read_line

        def read_line(prompt: str) -> str | None:
            line = run_sync(ask(prompt))
            return line if isinstance(line, str) else None  # null or undefined: the run was stopped
    _keyboard.update(read_line=read_line, unavailable=unavailable)


def configure() -> None:
    """Settings every Pyodide instance needs before any cell runs (matplotlib is not imported)."""
    os.makedirs(MPL_CONFIG_DIR, exist_ok=True)
    os.environ["MPLCONFIGDIR"] = MPL_CONFIG_DIR
    os.environ["MPLBACKEND"] = figures.BACKEND
    with open(os.path.join(MPL_CONFIG_DIR, "matplotlibrc"), "w", encoding="utf-8") as rc:
        rc.write(_MATPLOTLIBRC)


def _absolute_imports(codes: list[str]):
    """(module, names imported from it) for each absolute import of the code, without running it
    (``import a.b`` gives ("a.b", ()); code that does not parse imports nothing)."""
    for code in codes:
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                yield from ((alias.name, ()) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield node.module, tuple(alias.name for alias in node.names)


def modules_imported_by(codes: list[str]) -> list[str]:
    """Absolute module names the given code imports, in order."""
    return list(dict.fromkeys(module for module, _ in _absolute_imports(codes)))


def content_modules_named(codes: list[str]) -> list[str]:
    """The course's own modules (``py_lessons_content.NAME``, full names) the code imports, in
    both forms: ``import/from py_lessons_content.course ...`` and ``from py_lessons_content import course``."""
    names: list[str] = []
    for module, imported in _absolute_imports(codes):
        if module == CONTENT_PACKAGE:
            names.extend(f"{CONTENT_PACKAGE}.{name}" for name in imported if name != "*")
        elif module.startswith(CONTENT_PACKAGE + "."):
            names.append(module)
    return list(dict.fromkeys(names))


def content_imports(codes_json: str) -> str:
    """Import lines for what the course's own modules (``py_lessons_content.*``, e.g. course.py)
    that the given code names import inside their functions: the packages behind them (NumPy)
    must be loaded before the cell runs, and the code itself does not name them. The modules'
    files are read, not imported."""
    found: list[str] = []
    for name in content_modules_named(json.loads(codes_json)):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None or not spec.origin or not os.path.isfile(spec.origin):
            continue
        with open(spec.origin, encoding="utf-8") as source:
            found.extend(modules_imported_by([source.read()]))
    return "\n".join(f"import {name}" for name in dict.fromkeys(found)
                     if name.split(".")[0] not in sys.stdlib_module_names
                     and name.split(".")[0] not in ("py_lessons", CONTENT_PACKAGE, "__future__"))


def preimport(codes_json: str, packages_json: str) -> list[str]:
    """Import ahead of the first Run (while the page is idle) the modules that the cells import
    from the given top-level packages, e.g. ``numpy`` and ``matplotlib.pyplot``: importing NumPy
    alone takes most of a second inside Pyodide. Only these packages' modules are imported, never
    anything else a reader's edited code names; one that fails is left for its cell to report.
    Returns the names imported."""
    allowed = set(json.loads(packages_json))
    done = []
    for name in modules_imported_by([*json.loads(codes_json), content_imports(codes_json)]):
        if name.split(".")[0] not in allowed or name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the cell's own Run shows the real error
            continue
        done.append(name)
    return done


def reset() -> None:
    _sessions.clear()


def run(code: str, session: str | None, emit, figure_prefix: str = "fig", stdin_json: str = "[]",
        trace_json: str = "null") -> str:
    """Run a cell; ``emit`` gets each item as a JSON string; ``stdin_json``: lines input() reads
    before asking the reader (a JSON list); ``trace_json``: null, or ``{"maxSteps", "maxBytes"}``
    (either may be left out) to step through it: the run is the same, in the same session, and
    the result carries its steps (``trace.Recorder``). Returns the result as JSON."""
    if session:
        namespace = _sessions.setdefault(session, execute.new_namespace())
    else:
        namespace = execute.new_namespace()
    result = execute.run_cell(code, namespace, lambda item: emit(json.dumps(item)), figure_prefix=figure_prefix,
                              stdin=json.loads(stdin_json), read_line=_keyboard["read_line"],
                              input_unavailable=_keyboard["unavailable"], tracer=_tracer(trace_json))
    return json.dumps(result)


def _tracer(trace_json: str):
    """execute.run_cell's ``tracer`` for a request's ``trace`` (protocol.js), or None."""
    bounds = json.loads(trace_json)
    if bounds is None:
        return None

    def tracer(compiled, output_units):
        return trace.Recorder(compiled, output_units, max_steps=int(bounds.get("maxSteps", trace.MAX_STEPS)),
                              max_bytes=int(bounds.get("maxBytes", trace.MAX_BYTES)))
    return tracer


def check(code: str, checks: str, emit, figure_prefix: str = "exercise", trace_json: str = "null") -> str:
    """Check an exercise (``checking.check_exercise``); ``emit`` gets the reader's code's items
    as JSON strings; ``trace_json`` as for ``run``. Returns ``{"stage", "result"}`` as JSON."""
    outcome = checking.check_exercise(code, checks, lambda item: emit(json.dumps(item)), figure_prefix,
                                      tracer=_tracer(trace_json))
    return json.dumps(outcome)


def call(module: str, name: str, kwargs_json: str) -> str:
    """Call ``module.name(**kwargs)`` (a stepper's run, an explorable's render) for the page's
    worker and the build's runner alike. Returns ``{"ok": true, "value"}`` or ``{"ok": false,
    "error", "message"}`` as JSON; the value must be JSON-ready."""
    try:
        value = getattr(importlib.import_module(module), name)(**json.loads(kwargs_json))
        return json.dumps({"ok": True, "value": value})
    except Exception as exc:  # noqa: BLE001 - reported to the caller, who shows the message
        return json.dumps({"ok": False, "error": type(exc).__name__, "message": str(exc)})
