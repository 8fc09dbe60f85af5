"""The build's Python: the staged Pyodide under Node.js (runner.py) running a page's cells, the
exercises' checks and the explorables' figures, each result cached by what decides it (cache.py).

A cell's key is its code, the code of the earlier cells of its session, and the runtime's key:
the staged Pyodide (``StagedPyodide.cells_key``: core, wheels, runtime), the runner and the
modules it shares with the reader's worker, and the course modules the code imports (so a new
lesson's steppers.py does not re-run every other lesson's cells). Every failure is a LessonError
that names the page and line.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from ...runtime.execute import merge_items
from ..base.errors import LessonError
from ..page.cells import CellSpec
from ..page.model import PageModel
from ..page.selectors import has_values, read_value, value_code
from .cache import CellCache, call_key, cell_key
from .course_modules import imported_sources
from .runner import NODE_RUNNER, START_FILES, PyodideRunner, RunnerError

log = logging.getLogger("mkdocs.plugins.py_lessons")


@dataclass
class Counts:
    cells_run: int = 0
    cells_cached: int = 0
    figures_drawn: int = 0
    figures_cached: int = 0


def runner_key(staged_key: str) -> str:
    """The runtime part of every cache key: what the staged Pyodide runs, and how it is driven."""
    digest = hashlib.sha256(staged_key.encode())
    for path in (NODE_RUNNER, *START_FILES):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


# A started runner outlives the engine that started it, for the next engine of this process on the
# same staged Pyodide (a rebuild under `serve` with new settings, builds run in one process):
# starting Pyodide under Node.js is seconds. One is kept; the process's end stops it.
_spare: dict[Path, PyodideRunner] = {}


def _park(runner: PyodideRunner) -> None:
    for other in _spare.values():
        other.close()
    _spare.clear()
    if runner.running:
        _spare[runner.staged_dir] = runner


@atexit.register
def _close_spare() -> None:
    for runner in _spare.values():
        runner.close()
    _spare.clear()


class BuildPython:
    def __init__(self, staged_dir: Path, staged_key: str, modules: dict[str, Path], cache_dir: Path,
                 timeout: float):
        self.staged_dir = staged_dir
        self.key = runner_key(staged_key)
        self.modules = modules
        self.cache = CellCache(cache_dir)
        self.timeout = timeout
        self.counts = Counts()
        self._runner: PyodideRunner | None = None
        self._warming: threading.Thread | None = None  # serving: the runner starting in the background

    def _runner_now(self) -> PyodideRunner:
        if self._warming is not None:
            self._warming.join()
            self._warming = None
        if self._runner is None:
            self._runner = _spare.pop(self.staged_dir, None) or PyodideRunner(self.staged_dir)
        return self._runner

    def _cells_key(self, texts: list[str]) -> str:
        """The runtime key, plus the course modules (``course.py``) the code imports."""
        imported = imported_sources(texts, self.modules)
        return f"{self.key}+{imported}" if imported else self.key

    # -- cells ------------------------------------------------------------------------------
    def run_cells(self, page: PageModel, requests: dict[str, list[str]]) -> dict[int, dict]:
        """Results per cell index; a session's cells all re-run together when any one changed, or
        when the prose asks for a value (``requests``: cell id -> expressions) not yet cached."""
        results: dict[int, dict] = {}
        groups: dict[str | None, list[CellSpec]] = {}
        for spec in page.cells:
            groups.setdefault(spec.session, []).append(spec)
        for session, members in groups.items():
            units = [[spec] for spec in members] if session is None else [members]
            for unit in units:
                keys, history = [], []
                for spec in unit:
                    history.append(spec.run_identity)
                    keys.append(cell_key(spec.run_identity, history[:-1], self._cells_key(history)))
                cached = [self.cache.get(key) for key in keys]
                wanted = [requests.get(spec.cell_id, []) for spec in unit]
                if all(has_values(entry, exprs) for entry, exprs in zip(cached, wanted)):
                    self.counts.cells_cached += len(unit)
                    fresh = cached
                else:
                    fresh = self._execute(page, unit, session, wanted)
                    for key, entry in zip(keys, fresh):
                        self.cache.put(key, entry)
                for spec, entry in zip(unit, fresh):
                    check_outcome(page, spec, entry)
                    results[spec.index] = entry
        return results

    def _execute(self, page: PageModel, unit: list[CellSpec], session: str | None,
                 wanted: list[list[str]]) -> list[dict]:
        """Run ``unit``'s cells; after each, evaluate the expressions ``wanted`` of it in its namespace."""
        runner = self._runner_now()
        session_key = f"{page.src}::{session}" if session else None
        out = []
        try:
            runner.reset()
            for spec, exprs in zip(unit, wanted):
                # a cell without a session keeps a namespace of its own when the prose asks for a value
                key = session_key or (f"{page.src}::#{spec.cell_id}" if exprs else None)
                timeout = spec.timeout or self.timeout
                answer = runner.run(spec.code, key, spec.cell_id, timeout, stdin=spec.stdin)
                entry = {"items": merge_items(answer["items"]), "result": answer["result"]}
                if exprs:
                    entry["values"] = {expr: read_value(runner.run(value_code(expr), key, f"{spec.cell_id}-value",
                                                                   timeout)) for expr in exprs}
                out.append(entry)
                self.counts.cells_run += 1
        except RunnerError as exc:
            spec = unit[len(out)]
            raise LessonError(f"{page.where(spec.line)}: cell '{spec.cell_id}' could not run: {exc}") from exc
        return out

    # -- what components ask (render/components/base.py: BuildPython) ------------------------
    def check_exercise(self, page: PageModel, code: str, checks: str) -> dict:
        """py_lessons.runtime.checking in the build's Pyodide, as the reader's Check runs it; cached."""
        key = cell_key(checks, ["# exercise code", code], self._cells_key([code, checks]))
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        try:
            outcome = self._runner_now().check(code, checks, self.timeout)
        except RunnerError as exc:
            raise LessonError(f"{page.src}: an exercise's code could not run: {exc}") from exc
        self.cache.put(key, outcome)
        return outcome

    def call(self, page: PageModel, module: str, function: str, kwargs: dict, imports: str,
             content_sha: str) -> dict:
        """py_lessons.runtime.session.call in the build's Pyodide (an explorable's figure), as the
        reader's worker calls it; a successful answer is cached."""
        key = call_key(module, function, kwargs, content_sha, self.key)
        cached = self.cache.get(key)
        if cached is not None:
            self.counts.figures_cached += 1
            return cached
        try:
            answer = self._runner_now().call(module, function, kwargs, imports, self.timeout)
        except RunnerError as exc:
            raise LessonError(f"{page.src}: {module}.{function} could not run: {exc}") from exc
        self.counts.figures_drawn += 1
        if answer["ok"]:
            self.cache.put(key, answer)
        return answer

    # -- the process ----------------------------------------------------------------------
    def warm_up(self) -> None:
        """Serving: start Pyodide under Node.js in the background once the site is written, so that
        the author's first edit of a cell does not wait for it."""
        if self._runner is not None or self._warming is not None:
            return
        if self.staged_dir in _spare:
            self._runner = _spare.pop(self.staged_dir)
            return

        def start(runner: PyodideRunner) -> None:
            try:
                runner.run("pass", None, "warm-up", self.timeout)
            except (RunnerError, OSError):
                runner.close()  # the first cell that runs starts it again, and reports why it fails
                return
            self._runner = runner
            log.info("py_lessons: serving: Pyodide under Node.js is started for the next edited cell")

        self._warming = threading.Thread(target=start, args=(PyodideRunner(self.staged_dir),), daemon=True)
        self._warming.start()

    def close(self) -> None:
        """This engine is done: its runner is kept for the next one (see _spare)."""
        if self._warming is not None:
            self._warming.join()
            self._warming = None
        if self._runner is not None:
            _park(self._runner)
            self._runner = None


def check_outcome(page: PageModel, spec: CellSpec, entry: dict) -> None:
    """A cell must finish as its options say: without an error, or with the one it ``raises``."""
    result = entry["result"]
    where = f"{page.where(spec.line)}: cell '{spec.cell_id}'"
    if result["ok"] and spec.raises:
        raise LessonError(f"{where} is marked raises=\"{spec.raises}\" but finished without an error")
    if not result["ok"]:
        if spec.raises is None:
            raise LessonError(f"{where} raised {result['error']} (mark it raises=\"{result['error']}\" "
                              f"if that is the lesson):\n{result['traceback']}")
        if spec.raises not in ("any", result["error"]):
            raise LessonError(f"{where} should raise {spec.raises} but raised {result['error']}:\n"
                              f"{result['traceback']}")
