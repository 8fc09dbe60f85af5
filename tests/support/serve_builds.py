"""`mkdocs serve`'s builds without its server or watcher, in a child process of its own (MkDocs keeps
a serving plugin's instance for the whole process), so that a test can edit files between them.

The child does what `mkdocs serve` does on start and after each save: the plugins' on_startup with
command "serve" once, then for each line on stdin a fresh config and a build into the same site
folder; it answers each with a line, "built" or "failed". Its log goes to a file the test reads.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

SERVE_URL = "http://127.0.0.1:8000/"
TESTS = Path(__file__).resolve().parents[1]


class ServeBuilds:
    """The test's side: ``build()`` returns what the plugin logged during that build."""

    def __init__(self, config: Path, site_dir: Path, log: Path):
        self.log, self._read = log, 0
        self._child = subprocess.Popen(
            [sys.executable, "-m", "support.serve_builds", str(config), str(site_dir), str(log)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=config.parent,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
                 "NO_MKDOCS_2_WARNING": "1"})

    def build(self) -> str:
        self._child.stdin.write("build\n")
        self._child.stdin.flush()
        answer = self._child.stdout.readline().strip()
        text = self.log.read_text(encoding="utf-8")
        logged, self._read = text[self._read:], len(text)
        if answer != "built":
            raise AssertionError(f"the serve-mode build {answer or 'died'}:\n{logged[-3000:]}")
        return logged

    def wait_for(self, words: str, limit_s: float = 180) -> None:
        """Until the log has ``words`` (a line written between builds, by a background thread)."""
        deadline = time.monotonic() + limit_s
        while words not in self.log.read_text(encoding="utf-8"):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {words!r} in the serve log within {limit_s} s")
            time.sleep(0.2)

    def close(self) -> None:
        self._child.stdin.close()  # the child shuts the plugins down and exits
        self._child.wait(timeout=60)


def _serve(config_file: str, site_dir: str) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    def config():
        loaded = load_config(config_file=config_file, site_dir=site_dir)
        loaded.site_url = SERVE_URL
        return loaded

    first = config()
    first.plugins.on_startup(command="serve", dirty=False)
    try:
        for _ in sys.stdin:
            try:
                build(config(), serve_url=SERVE_URL)
            except Exception as exc:  # noqa: BLE001 - answered, like serve's log line, and the loop goes on
                logging.getLogger("serve_builds").error("build failed: %r", exc)
                print("failed", flush=True)
            else:
                print("built", flush=True)
    finally:
        first.plugins.on_shutdown()


if __name__ == "__main__":
    logging.basicConfig(filename=sys.argv[3], level=logging.INFO, format="%(name)s: %(message)s")
    _serve(sys.argv[1], sys.argv[2])
