"""What the tests and the benchmark read from a page's Python worker (site/assets/pathshala/python/worker.js):
the workers as the page starts them, and the performance marks they set (pathshala:start, ...)."""

from __future__ import annotations

WORKER_SCRIPT = "/pathshala/python/worker.js"


def python_workers(page) -> list:
    """The Python workers the page starts, collected as they start (the theme's search worker aside)."""
    workers = []
    page.on("worker", lambda worker: workers.append(worker) if worker.url.endswith(WORKER_SCRIPT) else None)
    return workers


def worker_marks(worker) -> list[str]:
    return worker.evaluate("() => performance.getEntriesByType('mark').map((m) => m.name)")


def wait_for_mark(page, worker, mark: str, seconds: float = 30) -> bool:
    """Poll until the worker has set ``mark`` (some are set in the background, e.g. once a
    snapshot is saved); False if it has not after ``seconds``."""
    for _ in range(max(1, round(seconds * 5))):
        if mark in worker_marks(worker):
            return True
        page.wait_for_timeout(200)
    return mark in worker_marks(worker)
