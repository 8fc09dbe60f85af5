"""Compressed copies (``NAME.br`` and ``NAME.gz`` beside ``NAME``) of the built site's compressible files.

Pyodide's WebAssembly is 10 MB and shrinks to about 3 MB with gzip, 2.2 MB with brotli; the search
index and the editor shrink about 4-6x. A static host that serves precompressed siblings (nginx
``gzip_static on`` + ``brotli_static on``, Caddy ``precompressed br gzip``, our ``py_lessons.host``)
then sends a cheap phone on classroom Wi-Fi a fraction of the bytes, with no compression work per
request. Brotli where the browser offers it (HTTPS, localhost), gzip where it does not (a plain-http
LAN address): ``.br`` is written only where it is smaller than the ``.gz``. Wheels and zips are
already compressed and are left alone, but for their stored twins (stored_twins.py), made to be
compressed whole; the originals stay for hosts that serve files as they are. The service worker
lists only the originals (the browser decodes).
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import brotli

from .stored_twins import is_twin

# .bin: Python's start-up snapshot (25 MB as taken; 5.0 MB gzip, 3.3 MB brotli)
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".wasm", ".ttf", ".txt", ".ipynb", ".py", ".bin"}
MIN_BYTES = 1024  # below this the header overhead eats the gain
MAX_RATIO = 0.9   # keep a copy only when it saves at least a tenth
# Files this big are the same in every build (Pyodide's WebAssembly and loader): their copies are
# kept in ``cache_dir`` by content, so a rebuild does not spend seconds (brotli 11: a minute) again.
CACHED_FROM = 1_000_000
CODINGS = {  # suffix -> how; mtime 0: the same bytes every build
    ".gz": lambda data: gzip.compress(data, compresslevel=9, mtime=0),
    ".br": lambda data: brotli.compress(data, quality=11),
}


def _compressed(data: bytes, suffix: str, cache_dir: Path | None) -> bytes:
    compress = CODINGS[suffix]
    if cache_dir is None or len(data) < CACHED_FROM:
        return compress(data)
    kept = cache_dir / f"{hashlib.sha256(data).hexdigest()}{suffix}"
    try:
        return kept.read_bytes()
    except OSError:
        packed = compress(data)
        kept.parent.mkdir(parents=True, exist_ok=True)
        part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
        part.write_bytes(packed)
        os.replace(part, kept)
        return packed


def precompress(site_dir: Path, cache_dir: Path | None = None) -> dict:
    """Write the .gz and .br siblings; returns {"files", "bytes", "gzip_bytes", "br_files",
    "br_bytes"} of those written (br_bytes: the files' smallest copies, brotli or gzip)."""
    written = {"files": 0, "bytes": 0, "gzip_bytes": 0, "br_files": 0, "br_bytes": 0}
    for path in sorted(site_dir.rglob("*")):
        if not (path.suffix in COMPRESSIBLE or is_twin(path)) or not path.is_file():
            continue
        data = path.read_bytes()
        if len(data) < MIN_BYTES:
            continue
        gz, br = path.with_name(path.name + ".gz"), path.with_name(path.name + ".br")
        packed = _compressed(data, ".gz", cache_dir)
        if len(packed) > MAX_RATIO * len(data):
            gz.unlink(missing_ok=True)
            br.unlink(missing_ok=True)
            continue
        gz.write_bytes(packed)
        smaller = _compressed(data, ".br", cache_dir)
        if len(smaller) < len(packed):
            br.write_bytes(smaller)
            written["br_files"] += 1
        else:
            br.unlink(missing_ok=True)
        written["files"] += 1
        written["bytes"] += len(data)
        written["gzip_bytes"] += len(packed)
        written["br_bytes"] += min(len(packed), len(smaller))
    return written
