"""Serve a built site on 127.0.0.1 and start Debian's Chromium: shared by the tests and the benchmark."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

# Chromium as these machines run it headless: no sandbox as root, and none of its background
# connections (the network is closed; they would only be refused).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """The types a static host must send for ES modules, WebAssembly and fonts; no access log."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".svg": "image/svg+xml", ".woff2": "font/woff2",
    }

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a browser context closed mid-download (e.g. background caching) is not news


def serve(folder: Path) -> tuple[QuietServer, str]:
    """Serve ``folder`` on a free loopback port in a daemon thread; returns (server, base URL)."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(StaticHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
