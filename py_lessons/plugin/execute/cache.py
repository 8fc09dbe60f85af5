"""Cell results (and explorables' figures) cached on disk by a hash of everything that can change
them.

Key = code + the code of the earlier cells of its session + the staged runtime's key (Pyodide
files, wheels, our runtime wheel, the runner). A rebuild re-runs only cells whose key changed.
A figure's key is its call + its content module's source + the same runtime key.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

FORMAT = 1


def cell_key(code: str, session_history: list[str], runtime_key: str) -> str:
    payload = json.dumps({"format": FORMAT, "code": code, "before": session_history, "runtime": runtime_key})
    return hashlib.sha256(payload.encode()).hexdigest()


def call_key(module: str, function: str, kwargs: dict, content_sha: str, runtime_key: str) -> str:
    """A call's result (an explorable's figure): the call, the author's module it runs (its
    source's sha256) and the staged runtime's key."""
    payload = json.dumps({"format": FORMAT, "call": [module, function, kwargs], "content": content_sha,
                          "runtime": runtime_key}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


class CellCache:
    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # a missing or damaged entry just means "run it again"

    def put(self, key: str, value: dict) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
