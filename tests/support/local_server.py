"""Serve a built site on 127.0.0.1 and start Debian's Chromium: shared by the tests and the benchmark."""

from __future__ import annotations

import email.utils
import functools
import http.server
import os
import socket
import threading
from pathlib import Path

# Chromium as these machines run it headless: no sandbox as root, and none of its background
# connections (the network is closed; they would only be refused).
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """A static host as the course expects one: the types ES modules, WebAssembly and fonts need,
    and the build's compressed siblings (NAME.br, NAME.gz, py_lessons/plugin/ship/precompress.py) sent to
    browsers that accept them, brotli first, like nginx's brotli_static and gzip_static. No access log.
    HTTP/1.1 with keep-alive, as nginx, Caddy and py_lessons.host answer: the base class's HTTP/1.0 closes
    the connection after each file, and a page opening a new one for each of its ~30 files is
    not what a reader's browser does (Lighthouse's simulated phone link charges each new connection
    a round trip)."""

    protocol_version = "HTTP/1.1"

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".svg": "image/svg+xml", ".woff2": "font/woff2",
    }

    def send_head(self):
        self.server.requested.append(self.path)
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        offered = "" if self.server.as_is else self.headers.get("Accept-Encoding", "")
        coding = next((coding for coding, suffix in (("br", ".br"), ("gzip", ".gz"))
                       if coding in offered and os.path.isfile(path) and os.path.isfile(path + suffix)), None)
        if coding is None:
            return super().send_head()
        packed = path + (".br" if coding == "br" else ".gz")
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(http.HTTPStatus.NOT_MODIFIED)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
            except (TypeError, ValueError, OverflowError):
                pass
        body = open(packed, "rb")  # noqa: SIM115 - the base class copies and closes it
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return body

    def copyfile(self, source, outputfile):
        """The body, counted as it goes: a browser that cancels a download takes only part of it."""
        written = 0
        try:
            while chunk := source.read(64 * 1024):
                outputfile.write(chunk)
                written += len(chunk)
        finally:
            self.server.sent.append((self.path, written))

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """``requested``: every path asked for, in order (what a page still fetches from the host);
    ``sent``: (path, body bytes) of every file sent (what the visit cost, compressed as sent);
    ``as_is``: send every file as it is, never its compressed copy (a host without that feature)."""

    requested: list[str]
    sent: list[tuple[str, int]]
    as_is = False

    def __init__(self, *args, **kwargs):
        self._lock = threading.Lock()
        self._open = set()  # connections being kept alive
        super().__init__(*args, **kwargs)

    def handle_error(self, request, client_address):
        pass  # a browser context closed mid-download (e.g. background caching) is not news

    # Kept-alive connections outlive shutdown(): server_close() ends them too, so a test that stops
    # the host ("the classroom server is gone") gets no more answers on a connection already open.
    def get_request(self):
        connection, address = super().get_request()
        with self._lock:
            self._open.add(connection)
        return connection, address

    def shutdown_request(self, request):
        with self._lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def server_close(self):
        super().server_close()
        with self._lock:
            still_open, self._open = list(self._open), set()
        for connection in still_open:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # the browser closed it first


def serve(folder: Path) -> tuple[QuietServer, str]:
    """Serve ``folder`` on a free loopback port in a daemon thread; returns (server, base URL)."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(StaticHandler, directory=str(folder)))
    server.requested = []
    server.sent = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
