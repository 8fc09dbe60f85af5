"""Drive the build-time Pyodide (``node/run_cells.mjs``) as one long-lived Node.js process.

It speaks the page worker's messages (``assets/python/protocol.js``) as JSON lines; a job's output
items come back inside its "done" message."""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import threading
from pathlib import Path

NODE_RUNNER = Path(__file__).parent / "node" / "run_cells.mjs"
# the front-end modules it shares with the reader's worker: with it, part of every cell's cache key
START_FILES = tuple(Path(__file__).parents[1] / "assets" / "python" / name for name in ("protocol.js", "start.js"))


class RunnerError(RuntimeError):
    """The Node.js Pyodide process failed, or a cell ran past its time limit."""


class PyodideRunner:
    def __init__(self, staged_dir: Path, start_timeout: float = 120.0):
        self.staged_dir = staged_dir
        self.start_timeout = start_timeout
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._ids = itertools.count(1)
        self._stderr_tail: list[str] = []

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            ["node", str(NODE_RUNNER), str(self.staged_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        self._lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._drain_stderr, args=(self._proc.stderr,), daemon=True).start()
        ready = self._read(self.start_timeout)
        if ready.get("type") != "ready":
            raise RunnerError(f"Pyodide under Node.js did not start: {ready}")

    @staticmethod
    def _pump(stream, lines: queue.Queue) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    def _drain_stderr(self, stream) -> None:
        for line in stream:
            self._stderr_tail = (self._stderr_tail + [line])[-40:]

    def _read(self, timeout: float) -> dict:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise RunnerError(f"no answer from Pyodide within {timeout:g} s") from None
        if line is None:
            self.close()
            raise RunnerError("Pyodide under Node.js exited:\n" + "".join(self._stderr_tail))
        return json.loads(line)

    def _request(self, message: dict, timeout: float) -> dict:
        if self._proc is None:
            self._start()
        message = {"id": next(self._ids), **message}
        self._proc.stdin.write(json.dumps(message) + "\n")
        self._proc.stdin.flush()
        answer = self._read(timeout)
        if answer.get("id") != message["id"]:
            raise RunnerError(f"answer out of order: {answer}")
        if answer.get("type") == "refused":  # protocol.js FROM_PYTHON.REFUSED: a bug on this side
            raise RunnerError(f"the build's Pyodide refused the message: {answer.get('reason')}")
        return answer

    def run(self, code: str, session: str | None, figure_prefix: str, timeout: float,
            stdin: list[str] | None = None, trace: dict | None = None) -> dict:
        """Run one cell (``stdin``: the lines its input() reads; ``trace``: step through it, see
        protocol.js); returns ``{"items": [...], "result": {...}, "seconds": Python's time}``."""
        answer = self._request({"type": "run", "code": code, "session": session, "figurePrefix": figure_prefix,
                                "stdin": list(stdin or []), "trace": trace}, timeout)
        return {"items": answer["items"], "result": answer["result"], "seconds": answer["seconds"]}

    def check(self, code: str, checks: str, timeout: float) -> dict:
        """Check an exercise (py_lessons.runtime.checking): ``{"stage", "result"}``."""
        return self._request({"type": "check", "code": code, "checks": checks, "figurePrefix": "exercise"},
                             timeout)["result"]

    def call(self, module: str, function: str, kwargs: dict, imports: str, timeout: float) -> dict:
        """``module.function(**kwargs)`` through py_lessons.runtime.session.call, as the page's
        worker calls it, once the packages ``imports`` (Python import lines) names are loaded:
        ``{"ok": True, "value"}`` or ``{"ok": False, "error", "message"}``."""
        return self._request({"type": "call", "module": module, "function": function, "kwargs": json.dumps(kwargs),
                              "imports": imports}, timeout)["result"]

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def reset(self) -> None:
        if self._proc is not None:
            self._request({"type": "reset"}, 30)

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None
