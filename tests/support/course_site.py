"""The course built once per test run, into the run's own temporary folder, shared by the pytest
workers of the run (pytest-xdist): the first to get the lock builds it, the others wait for it.

The build starts in the background as soon as the run knows it has browser tests (it takes
minutes on a fresh clone, every cell running), as the command an author types, in a process of
its own; the tests that need no built course (run first: conftest.py) go on meanwhile."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
from pathlib import Path

from .site import ROOT, build_site

BUILT = "course-site.built"


class CourseSite:
    def __init__(self, shared: Path):
        self.shared = shared
        self.site_dir = shared / "course-site"
        self._background: threading.Thread | None = None
        self._process: subprocess.Popen | None = None

    def _lock(self):
        self.shared.mkdir(parents=True, exist_ok=True)
        return open(self.shared / "course-site.lock", "a")  # noqa: SIM115 - held for the build

    def start_in_background(self) -> None:
        def build():
            with self._lock() as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return  # another worker of this run is building it
                if (self.shared / BUILT).is_file():
                    return
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(self.site_dir)],
                    cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                    env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
                _, log = self._process.communicate()
                if self._process.returncode == 0:
                    (self.shared / BUILT).write_text("built\n")
                else:  # the fixture builds it again in the test process and shows why it fails
                    (self.shared / "course-site.failed").write_text(log[-4000:])

        self._background = threading.Thread(target=build, daemon=True)
        self._background.start()

    def get(self) -> Path:
        """The built course (waiting for the background build, or building it now)."""
        if self._background is not None:
            self._background.join()
        with self._lock() as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (self.shared / BUILT).is_file():
                done = build_site(self.site_dir)
                assert done.returncode == 0, done.stderr[-4000:]
                (self.shared / BUILT).write_text("built\n")
        return self.site_dir

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
