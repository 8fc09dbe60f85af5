"""gzip copies (``NAME.gz`` beside ``NAME``) of the built site's compressible files.

Pyodide's WebAssembly is 10 MB and shrinks to about 3 MB with gzip; the search index and the
editor shrink about 4-6x. A static host that serves precompressed siblings (nginx
``gzip_static on``, Caddy ``precompressed gzip``, our ``py_lessons.local_server``) then sends a
cheap phone on classroom Wi-Fi a fraction of the bytes, with no compression work per request.
Wheels and zips are already compressed and are left alone; the originals stay for hosts that
serve files as they are. The service worker lists only the originals (the browser decodes).
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".wasm", ".ttf", ".txt", ".ipynb", ".py"}
MIN_BYTES = 1024  # below this the header overhead eats the gain
MAX_RATIO = 0.9   # keep a copy only when it saves at least a tenth
# Files this big are the same in every build (Pyodide's WebAssembly and loader): their copies are
# kept in ``cache_dir`` by content, so a rebuild does not spend seconds compressing them again.
CACHED_FROM = 1_000_000


def _compressed(data: bytes, cache_dir: Path | None) -> bytes:
    if cache_dir is None or len(data) < CACHED_FROM:
        return gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: same bytes every build
    kept = cache_dir / f"{hashlib.sha256(data).hexdigest()}.gz"
    try:
        return kept.read_bytes()
    except OSError:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        kept.parent.mkdir(parents=True, exist_ok=True)
        part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
        part.write_bytes(packed)
        os.replace(part, kept)
        return packed


def precompress(site_dir: Path, cache_dir: Path | None = None) -> dict:
    """Write the .gz siblings; returns {"files", "bytes", "gzip_bytes"} of those written."""
    written = {"files": 0, "bytes": 0, "gzip_bytes": 0}
    for path in sorted(site_dir.rglob("*")):
        if path.suffix not in COMPRESSIBLE or not path.is_file():
            continue
        data = path.read_bytes()
        if len(data) < MIN_BYTES:
            continue
        packed = _compressed(data, cache_dir)
        sibling = path.with_name(path.name + ".gz")
        if len(packed) > MAX_RATIO * len(data):
            sibling.unlink(missing_ok=True)
            continue
        sibling.write_bytes(packed)
        written["files"] += 1
        written["bytes"] += len(data)
        written["gzip_bytes"] += len(packed)
    return written
