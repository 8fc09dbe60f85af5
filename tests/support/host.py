"""The classroom host (py_lessons.host) as the tests and the load script run it: its own process,
on 127.0.0.1 and a free port, exactly as `./pathshala host` starts it (never with --lan)."""

from __future__ import annotations

import http.client
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from .site import ROOT

_URL = re.compile(r"at (http://127\.0\.0\.1:\d+)/")


def start_host(site: Path, *args: str, checkout: Path = ROOT, nofile: str | None = None) -> tuple[subprocess.Popen, str]:
    """Start the host on ``site``; returns (process, base URL) once it listens. ``checkout``: the
    project whose py_lessons.host runs (another worktree, to measure an older host); ``nofile``:
    run it under ``prlimit --nofile=SOFT:HARD``."""
    command = [sys.executable, "-u", "-m", "py_lessons.host", str(site), "--port", "0", *args]
    if nofile:
        command = [shutil.which("prlimit"), f"--nofile={nofile}", "--", *command]
    process = subprocess.Popen(command, cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = process.stdout.readline()  # printed once the socket listens
    found = _URL.search(first)
    if not found:
        process.kill()
        raise RuntimeError(f"the host did not start: {first}{process.stdout.read()}")
    return process, found.group(1)


def stop_host(process: subprocess.Popen) -> str:
    """Ctrl+C for the host; returns what it printed after its first line."""
    process.send_signal(signal.SIGINT)
    try:
        printed, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        printed, _ = process.communicate()
    return printed


def get(base: str, path: str, headers: dict | None = None, timeout: float = 60) -> tuple[int, dict, bytes]:
    """One GET to the host at ``base`` (http://127.0.0.1:PORT): status, headers (lower-case), body."""
    connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=timeout)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()
