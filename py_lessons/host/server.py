"""The host's HTTP server: a built site's files sent the way a production static host sends them,
on aiohttp (asynchronous: a connection costs a socket, not a thread).

aiohttp's FileResponse does the file work: the build's precompressed siblings (NAME.br, NAME.gz)
to clients that accept them, ETag and Last-Modified answered with 304, single byte ranges (206),
sendfile. This module adds what a course needs of a host:
* only files inside the site, whatever links lie in it (a link's target outside the site is 404);
* the cache policy and the isolation headers of policy.py on every answer;
* a folder's index.html, a redirect to a folder's slash, the site's own 404 page;
* an answer to every request: a request line or path too long is 414 or 400, a Range it cannot
  read is ignored (the whole file), a file it cannot open for lack of descriptors is 503 with
  Retry-After, never 404; no traceback from a client's bytes;
* descriptors kept for the files: the soft limit is raised to the hard one where allowed, and at
  the limit a new connection makes room by closing the oldest one that never sent a request
  (a slow client, not a learner's browser); a stalled download ends after STALL_S.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import math
import re
import signal
import threading
import time
from pathlib import Path
from stat import S_ISREG

from aiohttp import web
from aiohttp.web_runner import AppRunner
from aiohttp.web_server import Server

from .policy import ISOLATION_HEADERS, cache_control, content_type
from .summary import AccessSummary

CHUNK = 1 << 18          # bytes per sendfile call: the summary counts a cut-off download to within this
STALL_S = 60             # a download whose next chunk cannot go out for this long ends
IDLE_S = 15              # a connection that sends no (further) request for this long is closed
SILENT_S = 2             # a browser sends its request as it connects: one silent this long is a slow client
BUSY_WAIT_S = 10         # how long a request waits for a descriptor before it is told to retry (503)
MAX_PATH = 4096          # longer request targets get 414
RESERVED_FDS = 64        # descriptors kept for files being sent and the host's own
_RANGE = re.compile(r"bytes=(\d{0,18})-(\d{0,18})")   # one range, numbers a file's size can have
_ENCODINGS = {".br": "br", ".gz": "gzip"}               # aiohttp's order: brotli first
_CONDITIONS = {"range", "if-range", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since"}

log = logging.getLogger("py_lessons.host")


class _OutOfDescriptors(logging.Filter):
    """asyncio says "socket.accept() out of system resource" with a traceback each time it pauses
    accepting (a second) for lack of descriptors: one line instead, at most every 30 s."""

    def __init__(self):
        super().__init__()
        self._said = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        if time.monotonic() - self._said < 30:
            return False
        self._said = time.monotonic()
        record.msg, record.args, record.exc_info, record.exc_text = (
            "py_lessons.host: no file descriptor left: new connections wait a moment", (), None, None)
        return True


class _ClientMistakes(logging.Filter):
    """aiohttp logs a request it cannot read (a line too long, not HTTP) with a traceback: the
    client got its 400, the teacher's terminal gets nothing. Nor for a download the client ended (a
    closed tab, a lost signal: "Error handling request" for each), which the summary counts. Any
    other record, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        from aiohttp.http_exceptions import HttpProcessingError

        if record.exc_info and isinstance(record.exc_info[1], (HttpProcessingError, ConnectionResetError)):
            return False
        record.exc_info, record.exc_text = None, None
        return True


logging.getLogger("asyncio").addFilter(_OutOfDescriptors())
logging.getLogger("aiohttp.server").addFilter(_ClientMistakes())


def raise_descriptor_limit() -> int:
    """The soft limit of open files raised to the hard one where the system allows; the limit now."""
    try:
        import resource
    except ImportError:  # not POSIX
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 10240)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def accepted_codings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header allows (named, or "*", with a quality above 0)."""
    qualities = {}
    for part in header.split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        quality = next((param[2:] for param in params if param.lower().startswith("q=")), "1")
        try:
            qualities[coding.lower()] = float(quality)
        except ValueError:
            qualities[coding.lower()] = 0.0
    return {coding for coding in ("br", "gzip") if qualities.get(coding, qualities.get("*", 0.0)) > 0}


def site_file(site: Path, url_path: str) -> Path | None:
    """The file or folder under ``site`` a URL path names, by its real path: None when it does not
    exist or lies outside the site (a link out of it, "..")."""
    parts = [part for part in url_path.split("/") if part not in ("", ".")]
    if any(part == ".." or "\0" in part for part in parts):
        return None
    try:
        real = site.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a name too long, a link loop
        return None
    return real if real == site or real.is_relative_to(site) else None


class HostBusy(Exception):
    """No descriptor to open the file with (not an OSError: aiohttp would answer 404)."""


class SiteFile(web.FileResponse):
    """A file of the site: siblings only for the codings the client accepts, none for a range; the
    summary counts what is sent; a stalled send ends."""

    def __init__(self, path: Path, summary: AccessSummary, codings: set[str], headers: dict):
        super().__init__(path, chunk_size=CHUNK, headers=headers)
        self._summary, self._codings = summary, codings

    async def prepare(self, request):
        if self.prepared:  # the handler sent it already (so that no descriptor left can be a 503)
            return self._payload_writer
        return await super().prepare(request)

    def _get_file_path_stat_encoding(self, accept_encoding: str):
        for suffix, coding in _ENCODINGS.items():
            if coding in self._codings:
                sibling = self._path.with_name(self._path.name + suffix)
                try:
                    stat = sibling.lstat()  # a link is not a sibling
                except OSError:
                    continue
                if S_ISREG(stat.st_mode):
                    return sibling, stat, coding
        stat = self._path.stat()
        return (self._path if S_ISREG(stat.st_mode) else None), stat, None

    def _make_response(self, request, accept_encoding):
        try:
            return super()._make_response(request, accept_encoding)
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE):
                raise HostBusy from exc
            raise

    async def _sendfile(self, request, fobj, offset: int, count: int):
        writer = await web.StreamResponse.prepare(self, request)
        loop, transport = asyncio.get_running_loop(), request.transport
        try:
            while count:
                if transport is None or transport.is_closing():
                    raise ConnectionResetError("the client went away")
                sent = await asyncio.wait_for(loop.sendfile(transport, fobj, offset, min(count, CHUNK)), STALL_S)
                if not sent:  # the file shrank under us (a rebuild): the client sees a short body
                    raise ConnectionAbortedError("file ended early")
                self._summary.sent(sent)
                offset += sent
                count -= sent
        except NotImplementedError:  # a transport without sendfile (TLS in front): aiohttp's own copy
            await self._sendfile_fallback(writer, fobj, offset, count)
            self._summary.sent(count)
        except (ConnectionError, asyncio.TimeoutError, OSError):
            self._cut_off(transport)
        except RuntimeError:
            # asyncio's sendfile refuses a transport already closing: the client's reset arrived
            # after the check above (the fresh-clone CI met it); any other RuntimeError is a bug
            if transport is not None and not transport.is_closing():
                raise
            self._cut_off(transport)
        await web.StreamResponse.write_eof(self)
        return writer

    def _cut_off(self, transport):
        self._summary.cut()
        if transport is not None:
            transport.close()
        raise ConnectionResetError("download cut off") from None


def _site_headers(name: str, extra: dict | None = None) -> dict:
    headers = {"Cache-Control": cache_control(name), "X-Content-Type-Options": "nosniff", **dict(ISOLATION_HEADERS)}
    return {**headers, **(extra or {})}


def make_app(site_dir: Path, summary: AccessSummary) -> web.Application:
    site = Path(site_dir).resolve()
    not_found_page = site / "404.html"

    def plain(status: int, text: str = "", extra: dict | None = None) -> web.Response:
        return web.Response(status=status, text=text, headers=_site_headers("", extra))

    async def send(request: web.Request, path: Path, status: int = 200) -> web.StreamResponse:
        headers = _site_headers(path.name, {"Content-Type": content_type(path.name)})
        if any(path.with_name(path.name + suffix).is_file() for suffix in _ENCODINGS):
            headers["Vary"] = "Accept-Encoding"
        ranged = _range_wanted(request, path) if status == 200 else None
        if ranged == "unsatisfiable":
            return plain(416, extra={"Content-Range": f"bytes */{path.stat().st_size}"})
        dropped = {"range"} if status == 200 else _CONDITIONS  # the 404 page is sent whole, always
        if ranged:  # as aiohttp reads it
            request = request.clone(headers={**request.headers, "Range": request.headers["Range"].replace(" ", "")})
        elif dropped & {name.lower() for name in request.headers}:
            request = request.clone(headers={k: v for k, v in request.headers.items() if k.lower() not in dropped})
        codings = set() if ranged else accepted_codings(request.headers.get("Accept-Encoding", ""))
        waited = 0.0
        while True:  # no descriptor left: other downloads end and free theirs; wait for one a while
            response = SiteFile(path, summary, codings, headers)
            response.set_status(status)
            try:
                await response.prepare(request)
                return response
            except HostBusy:
                if waited >= BUSY_WAIT_S:
                    return plain(503, "busy: try again in a moment\n", {"Retry-After": "2"})
                await asyncio.sleep(0.05)
                waited += 0.05

    async def handle(request: web.Request) -> web.StreamResponse:
        summary.requested()
        if len(request.raw_path) > MAX_PATH:
            return plain(414)
        found = site_file(site, request.path)
        if found is not None and found.is_dir():
            if not request.path.endswith("/"):
                query = f"?{request.query_string}" if request.query_string else ""
                return plain(301, extra={"Location": f"{request.raw_path.split('?')[0]}/{query}"})
            found = site_file(site, request.path + "index.html")
        if found is None or not found.is_file():
            return await send(request, not_found_page, 404) if not_found_page.is_file() else plain(404, "not found\n")
        return await send(request, found)

    async def guarded(request: web.Request) -> web.StreamResponse:
        try:
            return await handle(request)
        except ConnectionResetError:
            raise
        except Exception as exc:  # noqa: BLE001 - a client's bytes must never print a traceback
            log.warning("py_lessons.host: %s %s: %s", request.method, request.path[:80], type(exc).__name__)
            return plain(500)

    async def other_method(request: web.Request) -> web.Response:
        return plain(405, extra={"Allow": "GET, HEAD"})

    app = web.Application()
    app.router.add_get("/{tail:.*}", guarded)   # HEAD too: aiohttp answers it without the body
    app.router.add_route("*", "/{tail:.*}", other_method)
    return app


def _range_wanted(request: web.Request, path: Path) -> bool | str:
    """Whether to answer the Range header: one range aiohttp can read (else the whole file, as RFC
    9110 allows), and an If-Range that names these very bytes (the same strong ETag, or the date);
    "unsatisfiable" for a suffix of no bytes, or any suffix of an empty file."""
    header = request.headers.get("Range")
    if header is None:
        return False
    match = _RANGE.fullmatch(header.replace(" ", ""))
    if not match or match.group(1) == match.group(2) == "" or (
            match.group(1) and match.group(2) and int(match.group(2)) < int(match.group(1))):
        return False
    stat = path.stat()
    if match.group(1) == "" and (int(match.group(2)) == 0 or stat.st_size == 0):
        return "unsatisfiable"
    condition = request.headers.get("If-Range", "").strip()
    if not condition:
        return True
    if condition.startswith(('"', "W/")):
        return condition == f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'  # aiohttp's strong ETag of the file
    return condition == time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(math.ceil(stat.st_mtime)))


class _Connections(Server):
    """aiohttp's server, counting learners by address and keeping descriptors for the files."""

    def __init__(self, *args, summary: AccessSummary, limit: int, **kwargs):
        super().__init__(*args, **kwargs)
        self._summary, self._limit = summary, limit
        self._opened: dict[object, tuple[float, str]] = {}  # handler -> (when, address)
        self._closing: set[object] = set()                   # closed by _make_room, not yet gone

    def connection_made(self, handler, transport) -> None:
        super().connection_made(handler, transport)
        address = (transport.get_extra_info("peername") or ("?",))[0]
        self._opened[handler] = (time.monotonic(), address)
        self._summary.connected(address)
        if len(self._opened) - len(self._closing) > self._limit:
            self._make_room()
            if not getattr(self, "_sweeping", False):  # at the limit, new connections may not even be
                self._sweeping = True                    # accepted: look again each second
                asyncio.get_running_loop().call_later(1, self._sweep)

    def _sweep(self) -> None:
        while len(self._opened) - len(self._closing) > self._limit and self._make_room():
            pass
        if len(self._opened) - len(self._closing) > self._limit:
            asyncio.get_running_loop().call_later(1, self._sweep)
        else:
            self._sweeping = False

    def connection_lost(self, handler, exc) -> None:
        super().connection_lost(handler, exc)
        opened = self._opened.pop(handler, None)
        self._closing.discard(handler)
        if opened is not None:
            self._summary.disconnected(opened[1])

    def _make_room(self) -> bool:
        """Close the oldest connection that has not sent a whole request in SILENT_S (a slow
        client's: a browser sends its request as it connects); with none, everyone stays, and a
        file that finds no descriptor is a 503."""
        now = time.monotonic()
        silent = [(when, handler) for handler, (when, _) in self._opened.items()
                  if now - when > SILENT_S and handler not in self._closing and handler._request_count == 0]
        if not silent:
            return False
        victim = min(silent, key=lambda pair: pair[0])[1]
        self._closing.add(victim)
        victim.force_close()
        return True


class _Runner(AppRunner):
    def __init__(self, app, summary, limit):
        super().__init__(app, access_log=None, keepalive_timeout=IDLE_S, handle_signals=False)
        self._summary, self._limit = summary, limit

    async def _make_server(self) -> Server:
        """AppRunner's own steps, with the server above in place of aiohttp's."""
        loop = asyncio.get_running_loop()
        self._app._set_loop(loop)
        self._app.on_startup.freeze()
        await self._app.startup()
        self._app.freeze()
        return _Connections(self._app._handle, request_factory=self._app._make_request, loop=loop,
                            summary=self._summary, limit=self._limit, **self._kwargs)


class SiteServer:
    """The host: ``serve_forever()`` runs it in the calling thread until ``shutdown()``."""

    def __init__(self, address: tuple[str, int], site_dir: Path, summary: AccessSummary | None = None):
        self.summary = summary or AccessSummary()
        limit = max(16, raise_descriptor_limit() - RESERVED_FDS)
        self._loop = asyncio.new_event_loop()
        self._runner = _Runner(make_app(site_dir, self.summary), self.summary, limit)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, address[0], address[1], backlog=512, reuse_address=True)
        self._loop.run_until_complete(site.start())  # bound and listening now: the port can be printed
        self.server_address = tuple(self._runner.addresses[0][:2])
        self._stopped = threading.Event()

    def serve_forever(self, until_interrupted: bool = False) -> None:
        """``until_interrupted`` (the command, in its main thread): Ctrl+C or SIGTERM ends it and it
        returns, without a KeyboardInterrupt landing in the middle of a download."""
        asyncio.set_event_loop(self._loop)
        if until_interrupted and hasattr(self._loop, "add_signal_handler"):
            for name in ("SIGINT", "SIGTERM"):
                try:
                    self._loop.add_signal_handler(getattr(signal, name), self._loop.stop)
                except (NotImplementedError, RuntimeError, AttributeError):  # Windows: KeyboardInterrupt
                    pass
        try:
            self._loop.run_forever()
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """From another thread (or a signal handler): stop serve_forever."""
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._stopped.wait(30)

    def server_close(self) -> None:
        if not self._loop.is_closed():
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()


def make_server(site_dir: Path, host: str = "127.0.0.1", port: int = 0,
                summary: AccessSummary | None = None) -> SiteServer:
    """A server for ``site_dir`` bound to (host, port); port 0 picks a free one. Call
    serve_forever() on it (in a thread, or as the program)."""
    return SiteServer((host, port), Path(site_dir), summary)
