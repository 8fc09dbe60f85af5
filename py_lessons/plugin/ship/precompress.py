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
from pathlib import Path

COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".wasm", ".ttf", ".txt", ".ipynb", ".py"}
MIN_BYTES = 1024  # below this the header overhead eats the gain
MAX_RATIO = 0.9   # keep a copy only when it saves at least a tenth


def precompress(site_dir: Path) -> dict:
    """Write the .gz siblings; returns {"files", "bytes", "gzip_bytes"} of those written."""
    written = {"files": 0, "bytes": 0, "gzip_bytes": 0}
    for path in sorted(site_dir.rglob("*")):
        if path.suffix not in COMPRESSIBLE or not path.is_file():
            continue
        data = path.read_bytes()
        if len(data) < MIN_BYTES:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: same bytes every build
        sibling = path.with_name(path.name + ".gz")
        if len(packed) > MAX_RATIO * len(data):
            sibling.unlink(missing_ok=True)
            continue
        sibling.write_bytes(packed)
        written["files"] += 1
        written["bytes"] += len(data)
        written["gzip_bytes"] += len(packed)
    return written
