"""The counts behind the host's one-line access summary: learners connected, MB sent. Updated
from every connection's thread, so each change holds a lock."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

from py_lessons.runtime.numbers import format_number


@dataclass(frozen=True)
class Snapshot:
    connected: int    # distinct addresses (devices) with an open connection now
    seen: int         # distinct addresses since the host started
    requests: int
    bytes_sent: int   # response bodies, as sent (gzip where sent so)
    cut_off: int      # downloads the client ended before their last byte (a closed tab, a lost signal)


class AccessSummary:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = Counter()  # address -> open connections (a browser opens several)
        self._seen: set[str] = set()
        self._requests = self._bytes = self._cut_off = 0

    def connected(self, address: str) -> None:
        with self._lock:
            self._open[address] += 1
            self._seen.add(address)

    def disconnected(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    def requested(self) -> None:
        with self._lock:
            self._requests += 1

    def sent(self, count: int) -> None:
        with self._lock:
            self._bytes += count

    def cut(self) -> None:
        with self._lock:
            self._cut_off += 1

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(len(self._open), len(self._seen), self._requests, self._bytes, self._cut_off)


def summary_line(now: Snapshot) -> str:
    """One line for the teacher's terminal."""
    return (f"learners connected: {now.connected} ({now.seen} since start) | "
            f"{format_number(now.bytes_sent / 1e6, ',.1f')} MB sent | {format_number(now.requests, ',')} requests | "
            f"downloads cut off: {now.cut_off}")
