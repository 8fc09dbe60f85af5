"""What the host sends with each file of a built site: its type, how long a browser may keep it,
and the headers that make every page cross-origin isolated. Rules only, no I/O."""

from __future__ import annotations

import mimetypes
import re

# Cross-origin isolation from the first load (the site's service worker adds the same headers,
# but only from the second load on): SharedArrayBuffer, so input() waits for the reader and Stop
# interrupts Python without losing its variables. Every file of the site is same-origin.
ISOLATION_HEADERS = (
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)

# The course's file types, fixed here rather than read from the machine's /etc/mime.types (which
# differs between laptops): ES modules must be JavaScript, WebAssembly must be application/wasm
# for streaming compilation, and text says its charset.
TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".map": "application/json", ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm", ".whl": "application/zip", ".zip": "application/zip",
    ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
    ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf",
    ".xml": "application/xml", ".txt": "text/plain; charset=utf-8", ".yml": "text/yaml; charset=utf-8",
    ".py": "text/x-python; charset=utf-8", ".ipynb": "application/x-ipynb+json",
    ".gz": "application/gzip",
}

# A browser may keep a file without asking again only if its name changes whenever its bytes do.
# That holds for names that carry a content hash (the theme's bundle.a5f9d56c.min.js). It holds
# for nothing else of a built course, not even wheels whose names carry a version: the course's
# runtime wheel (py_lessons-0.1.0-py3-none-any.whl) is rebuilt under the same name by every
# build, and a Pyodide release may rebuild numpy-2.0.2-...whl under the same name as the last.
# Everything else (pages, sw.js, site.js, Pyodide, wheels) is revalidated on every use: a revisit
# costs one 304 per file and no bytes, and a rebuilt course is never mixed with stale parts (over
# plain http there is no service worker to notice a new build).
LONG_LIVED = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_CONTENT_HASH = re.compile(r"[.-][0-9a-f]{8,}\.")


def cache_control(name: str) -> str:
    """Cache-Control for the file called ``name`` (its last path segment)."""
    return LONG_LIVED if _CONTENT_HASH.search(name) else REVALIDATE


def content_type(name: str) -> str:
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    return TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
