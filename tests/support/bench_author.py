"""The course author's loop under `mkdocs serve`; prints JSON (seconds, never pass/fail).

    ./pathshala bench --author [--edits 5] [--plugin-from DIR]

A copy of the course (mkdocs.yml, site/, gpu_runs/results, and .cache as a link to this
checkout's, so cell results and the staged Pyodide are warm) is served by `mkdocs serve --strict`
as `./pathshala serve` runs it. Chromium (127.0.0.1 only) opens LESSON; each edit saves a new
value of the constant that cell CELL prints (a value never used before, so the cell really runs),
and author_save_to_reload_s runs from the save until the reloaded page shows the new code. The
first edit also starts Pyodide under Node.js (the first build found every cell in the cache).
rebuild_s: what `mkdocs serve` logged for each rebuild ("Documentation built in"); phases_s, per
edit, from the times serve's log lines arrived: save -> "Detected file changes" (its watcher polls),
-> "Reloading browsers" (the rebuild done), -> the page shows the new code (the browser's reload).
--plugin-from DIR: serve with the py_lessons (and gpu_runs) of another checkout, e.g. a git
worktree of HEAD, for a before/after on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from .local_server import CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
LESSON = "lessons/optimization"
CELL = "opt-try"
CONSTANT = re.compile(r"rates = \[[0-9.]+\]")  # the cell's first line of rates, printed by the cell
FIRST_BUILD_LIMIT_S = 900
RELOAD_LIMIT_S = 300
SETTLE_S = 3  # between edits: the reloaded page's own start-up (its Python worker) is not the next edit's
SHOWS_NEW_CODE = """([cell, value]) => !window.pathshalaBenchBefore
    && document.querySelector(`[data-cell-id="${cell}"] pre`)?.textContent.includes(value)"""


def copy_course(into: Path) -> Path:
    """The course's inputs in ``into`` (the cache shared, read and added to); returns its mkdocs.yml."""
    shutil.copy2(ROOT / "mkdocs.yml", into / "mkdocs.yml")
    shutil.copytree(ROOT / "site", into / "site")
    shutil.copytree(ROOT / "gpu_runs" / "results", into / "gpu_runs" / "results")
    (into / ".cache").symlink_to(ROOT / ".cache", target_is_directory=True)
    return into / "mkdocs.yml"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_served(url: str, serve: subprocess.Popen, log: ServeLog) -> None:
    deadline = time.monotonic() + FIRST_BUILD_LIMIT_S
    while time.monotonic() < deadline:
        if serve.poll() is not None:
            raise RuntimeError(f"mkdocs serve exited:\n{log.text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise TimeoutError(f"mkdocs serve did not serve {url} within {FIRST_BUILD_LIMIT_S} s")


class ServeLog:
    """`mkdocs serve`'s output, each line with the time it arrived."""

    def __init__(self, stream):
        self.lines: list[tuple[float, str]] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append((time.monotonic(), line))

    def text(self) -> str:
        return "".join(line for _, line in self.lines)

    def first_after(self, start: float, words: str) -> float | None:
        return next((at for at, line in self.lines if at >= start and words in line), None)

    def close(self) -> None:
        self._thread.join(timeout=30)


def _phases(log: ServeLog, start: float, shown: float) -> dict[str, float | None]:
    detected, reloaded = log.first_after(start, "Detected file changes"), log.first_after(start, "Reloading browsers")
    if detected is None or reloaded is None:
        return {}
    return {"watch": round(detected - start, 3), "rebuild": round(reloaded - detected, 3),
            "browser_reload": round(shown - reloaded, 3)}


def _save_new_value(lesson: Path, edit: int) -> str:
    value = f"0.05{time.time_ns() % 10**6:06d}{edit}"  # never seen by the cell cache
    text, count = CONSTANT.subn(f"rates = [{value}]", lesson.read_text(encoding="utf-8"), count=1)
    if count != 1:
        raise RuntimeError(f"{lesson}: the edited line ({CONSTANT.pattern}) is gone")
    lesson.write_text(text, encoding="utf-8")
    return value


def measure(edits: int, plugin_from: Path | None) -> dict:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="pathshala-author-"))
    config = copy_course(work)
    lesson = work / "site" / LESSON / "index.md"
    port = _free_port()
    url = f"http://127.0.0.1:{port}/{LESSON}/"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if plugin_from is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin_from), env.get("PYTHONPATH")]))
    load_before = os.getloadavg()
    serve = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{port}",
                              "-f", str(config)], cwd=work, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, encoding="utf-8")
    log = ServeLog(serve.stdout)
    seconds, phases = [], []
    try:
        _wait_until_served(url, serve, log)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url, wait_until="load")
            for edit in range(edits):
                time.sleep(SETTLE_S)
                page.evaluate("() => { window.pathshalaBenchBefore = true; }")
                start = time.monotonic()
                value = _save_new_value(lesson, edit)
                page.wait_for_function(SHOWS_NEW_CODE, arg=[CELL, value], polling=10, timeout=RELOAD_LIMIT_S * 1000)
                shown = time.monotonic()
                seconds.append(round(shown - start, 3))
                phases.append(_phases(log, start, shown))
            browser.close()
    finally:
        serve.send_signal(signal.SIGINT)  # as Ctrl+C: serve closes the plugin's Node runner and its temp site
        try:
            serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
        log.close()
        built = [float(s) for s in re.findall(r"Documentation built in ([0-9.]+) seconds", log.text())]
        shutil.rmtree(work, ignore_errors=True)
    return {"author_save_to_reload_s": seconds, "median": statistics.median(seconds),
            "median_after_first": statistics.median(seconds[1:]) if len(seconds) > 1 else None,
            "initial_build_s": built[0] if built else None, "rebuild_s": built[1:], "phases_s": phases,
            "page": f"{LESSON}/", "cell": CELL, "edits": edits,
            "plugin_from": str(plugin_from or ROOT), "cpu_count": os.cpu_count(),
            "load_average_before": load_before, "load_average_after": os.getloadavg()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5, help="edits to time (the median needs 3 or more)")
    parser.add_argument("--plugin-from", type=Path, help="a checkout whose py_lessons serves instead of this one")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.edits, args.plugin_from), indent=1))


if __name__ == "__main__":
    main()
