"""The host's HTTP server: a built site's files sent the way a production static host sends them.

Standard library only (http.server, one thread per connection; forty learners open a few hundred
connections at most). Per file: the build's gzip sibling (NAME.gz) to clients that accept gzip,
ETag and Last-Modified answered with 304, single byte ranges (206), the cache policy and the
isolation headers of policy.py. Bodies go out with sendfile in chunks: no file is read into
Python's memory, and a client that goes away mid-download ends only its own connection.
"""

from __future__ import annotations

import email.utils
import functools
import http.server
import os
import re
import sys
import urllib.parse
from http import HTTPStatus
from pathlib import Path

from .policy import ISOLATION_HEADERS, cache_control, content_type
from .summary import AccessSummary

CHUNK = 1 << 18  # bytes per sendfile call: the summary counts a cut-off download to within this
_BYTES = re.compile(r"bytes=(\d*)-(\d*)")


class RangeNotSatisfiable(Exception):
    pass


def byte_range(header: str, size: int) -> tuple[int, int] | None:
    """(first, last) byte of a Range header's single range, clipped to ``size``; None when the
    header is to be ignored (not bytes, several ranges, malformed: the whole file is sent).
    Raises RangeNotSatisfiable when the range starts past the end."""
    match = _BYTES.fullmatch(header.strip().replace(" ", ""))
    if not match or match.group(1) == match.group(2) == "":
        return None
    first, last = match.groups()
    if first == "":  # bytes=-N: the last N bytes
        if int(last) == 0 or size == 0:
            raise RangeNotSatisfiable
        return max(size - int(last), 0), size - 1
    if last and int(last) < int(first):
        return None
    if int(first) >= size:
        raise RangeNotSatisfiable
    return int(first), min(int(last), size - 1) if last else size - 1


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip: named, or "*", with a quality above 0."""
    qualities = {}
    for part in accept_encoding.split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        quality = next((param[2:] for param in params if param.lower().startswith("q=")), "1")
        try:
            qualities[coding.lower()] = float(quality)
        except ValueError:
            qualities[coding.lower()] = 0.0
    return qualities.get("gzip", qualities.get("*", 0.0)) > 0


def _etag_matches(header: str, etag: str, *, weak: bool) -> bool:
    """RFC 9110 entity-tag comparison against one header value (a list, or "*")."""
    if header.strip() == "*":
        return True
    for tag in (part.strip() for part in header.split(",")):
        if weak:
            tag = tag.removeprefix("W/")
        if tag == etag:
            return True
    return False


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page's files come over a few reused connections
    timeout = 60  # an idle keep-alive connection, or a client that stopped reading, frees its thread
    server: SiteServer

    def setup(self):
        super().setup()
        self.server.summary.connected(self.client_address[0])

    def finish(self):
        try:
            super().finish()
        finally:
            self.server.summary.disconnected(self.client_address[0])

    def do_GET(self):
        self._answer(with_body=True)

    def do_HEAD(self):
        self._answer(with_body=False)

    def end_headers(self):
        for name, value in ISOLATION_HEADERS:
            self.send_header(name, value)
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def version_string(self):
        return "pathshala-host"

    def log_message(self, *args):
        pass  # no access log: the summary line counts instead

    def _answer(self, with_body: bool) -> None:
        self.server.summary.requested()
        url = urllib.parse.urlsplit(self.path)
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url.path.endswith("/"):
                self._redirect(url._replace(path=url.path + "/").geturl())
                return
            path = path / "index.html"
        if not path.is_file():
            self._not_found(with_body)
            return
        self._send_file(path, HTTPStatus.OK, with_body)

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _not_found(self, with_body: bool) -> None:
        page = Path(self.directory) / "404.html"  # the site's own, if its generator wrote one
        if page.is_file():
            self._send_file(page, HTTPStatus.NOT_FOUND, with_body)
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def _send_file(self, path: Path, status: HTTPStatus, with_body: bool) -> None:
        packed = path.with_name(path.name + ".gz")
        has_packed = packed.is_file()
        # a byte range is served from the file itself: its offsets mean the same to every client
        gzipped = (has_packed and "Range" not in self.headers
                   and accepts_gzip(self.headers.get("Accept-Encoding", "")))
        try:
            body = open(packed if gzipped else path, "rb")  # noqa: SIM115 - closed below
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        with body:
            stat = os.fstat(body.fileno())
            modified = path.stat().st_mtime if gzipped else stat.st_mtime
            etag = f'"{stat.st_size:x}-{stat.st_mtime_ns:x}{"-gz" if gzipped else ""}"'
            last_modified = self.date_time_string(modified)
            headers = [("ETag", etag), ("Last-Modified", last_modified),
                       ("Cache-Control", cache_control(path.name)), ("Accept-Ranges", "bytes")]
            if has_packed:
                headers.append(("Vary", "Accept-Encoding"))
            if status == HTTPStatus.OK and self._not_modified(etag, modified):
                self._send_headers(HTTPStatus.NOT_MODIFIED, headers)
                return
            try:
                span = self._wanted_span(etag, last_modified, stat.st_size) if status == HTTPStatus.OK else None
            except RangeNotSatisfiable:
                self._send_headers(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                                   [*headers, ("Content-Range", f"bytes */{stat.st_size}"), ("Content-Length", "0")])
                return
            first, last = span or (0, stat.st_size - 1)
            if span:
                status = HTTPStatus.PARTIAL_CONTENT
                headers.append(("Content-Range", f"bytes {first}-{last}/{stat.st_size}"))
            headers += [("Content-Type", content_type(path.name)), ("Content-Length", str(last - first + 1))]
            if gzipped:
                headers.append(("Content-Encoding", "gzip"))
            self._send_headers(status, headers)
            if with_body:
                self._stream(body, first, last - first + 1)

    def _send_headers(self, status: HTTPStatus, headers: list[tuple[str, str]]) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def _not_modified(self, etag: str, modified: float) -> bool:
        """If-None-Match decides when present; else If-Modified-Since (RFC 9110, 13.2.2)."""
        if "If-None-Match" in self.headers:
            return _etag_matches(self.headers["If-None-Match"], etag, weak=True)
        since = self.headers.get("If-Modified-Since")
        if not since:
            return False
        try:
            return int(modified) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, OverflowError):
            return False

    def _wanted_span(self, etag: str, last_modified: str, size: int) -> tuple[int, int] | None:
        """The byte range asked for, if any; raises RangeNotSatisfiable. With If-Range, only a
        resumption of the same bytes (the same strong ETag, or the exact date) gets a range."""
        if "Range" not in self.headers:
            return None
        condition = self.headers.get("If-Range", "").strip()
        if condition.startswith(('"', "W/")) and not _etag_matches(condition, etag, weak=False):
            return None
        if condition and not condition.startswith(('"', "W/")) and condition != last_modified:
            return None
        return byte_range(self.headers["Range"], size)

    def _stream(self, body, offset: int, count: int) -> None:
        try:
            while count:
                sent = self.connection.sendfile(body, offset, min(count, CHUNK))
                if not sent:  # the file shrank under us (a rebuild): the client sees a short body
                    raise ConnectionAbortedError("file ended early")
                self.server.summary.sent(sent)
                offset += sent
                count -= sent
        except (ConnectionError, TimeoutError):
            self.server.summary.cut()
            self.close_connection = True


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 512  # a classroom connecting at once must not overflow the listen backlog

    def __init__(self, address: tuple[str, int], site_dir: Path, summary: AccessSummary | None = None):
        self.summary = summary or AccessSummary()
        super().__init__(address, functools.partial(SiteHandler, directory=str(site_dir)))

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):  # a client gone: not news
            super().handle_error(request, client_address)


def make_server(site_dir: Path, host: str = "127.0.0.1", port: int = 0,
                summary: AccessSummary | None = None) -> SiteServer:
    """A server for ``site_dir`` bound to (host, port); port 0 picks a free one. Call
    serve_forever() on it (in a thread, or as the program)."""
    return SiteServer((host, port), Path(site_dir), summary)
