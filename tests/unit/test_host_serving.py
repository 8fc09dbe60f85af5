"""The classroom host (py_lessons.host) on a small made-up site: what it sends with each file
(types, gzip siblings, validators, ranges, cache policy, isolation headers), its access summary,
the addresses and QR code it prints for --lan (from a fake address list: nothing binds or sends
to a LAN address), and the command itself. Traffic to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import segno

from py_lessons.host import policy
from py_lessons.host.cli import INSECURE_NOTE, announcement
from py_lessons.host.lan import learner_addresses, local_addresses
from py_lessons.host.server import accepted_codings, make_server
from py_lessons.host.summary import AccessSummary, Snapshot, summary_line
from support.host import start_host, stop_host

ONE_YEAR_S = 365 * 24 * 60 * 60
ISOLATION = {"cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp",
             "cross-origin-resource-policy": "same-origin"}


@pytest.fixture()
def site(tmp_path):
    """A site as a build leaves one: pages with gzip siblings, scripts, a wheel, a 404 page."""
    root = tmp_path / "site"
    (root / "lesson").mkdir(parents=True)
    (root / "pyodide").mkdir()
    (root / "assets").mkdir()
    page = "<!doctype html><title>পাঠ</title>" + "<p>লেখা</p>" * 500
    for path, text in ((root / "index.html", page), (root / "lesson" / "index.html", page.replace("পাঠ", "দুই"))):
        path.write_text(text, encoding="utf-8")
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes()))
    (root / "404.html").write_text("<!doctype html><title>নেই</title>", encoding="utf-8")
    (root / "assets" / "bundle.a5f9d56c.min.js").write_text("export const a = 1;\n")
    (root / "sw.js").write_text("self.addEventListener('fetch', () => {});\n")
    (root / "pyodide" / "blob.wasm").write_bytes(bytes(range(256)) * 64)  # 16 KiB, every offset known
    (root / "pyodide" / "py_lessons-0.1.0-py3-none-any.whl").write_bytes(b"PK" + bytes(100))
    (root / "ten.bin").write_bytes(b"0123456789")
    (root / "empty.bin").write_bytes(b"")
    (tmp_path / "secret.txt").write_text("not part of the site")
    return root


@pytest.fixture()
def host(site):
    """(base URL, summary) of a host serving ``site`` in this process."""
    server = make_server(site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}", server.summary
    server.shutdown()
    server.server_close()


def get(where, path, headers=None, method="GET"):
    connection = http.client.HTTPConnection(where, timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


# -- what is sent -------------------------------------------------------------------------------

def test_gzip_siblings_go_to_clients_that_accept_gzip_and_the_file_to_others(host, site):
    where, _ = host
    page = (site / "lesson" / "index.html").read_bytes()
    status, headers, body = get(where, "/lesson/", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == page and int(headers["content-length"]) == len(body) < len(page)
    assert headers["content-type"] == "text/html; charset=utf-8" and headers["vary"] == "Accept-Encoding"
    for refused in ({}, {"Accept-Encoding": "br"}, {"Accept-Encoding": "gzip;q=0, br"}):
        status, headers, body = get(where, "/lesson/", refused)
        assert status == 200 and "content-encoding" not in headers and body == page


def test_a_brotli_sibling_goes_to_clients_that_accept_brotli_and_gzip_to_the_rest(host, site):
    import brotli

    where, _ = host
    page = (site / "index.html").read_bytes()
    (site / "index.html.br").write_bytes(brotli.compress(page, quality=11))  # as the build writes it
    status, headers, body = get(where, "/", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "br" and headers["vary"] == "Accept-Encoding"
    assert brotli.decompress(body) == page and int(headers["content-length"]) == len(body)
    status, headers, body = get(where, "/", {"Accept-Encoding": "gzip, deflate"})  # plain http on a LAN
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == page


def test_types_the_course_needs_and_isolation_headers_on_every_answer(host):
    where, _ = host
    assert get(where, "/pyodide/blob.wasm")[1]["content-type"] == "application/wasm"
    assert get(where, "/assets/bundle.a5f9d56c.min.js")[1]["content-type"] == "text/javascript; charset=utf-8"
    for path in ("/", "/sw.js", "/missing/", "/lesson"):
        headers = get(where, path)[1]
        assert {name: headers.get(name) for name in ISOLATION} == ISOLATION, path
        assert headers["x-content-type-options"] == "nosniff"


def test_folders_redirect_to_their_slash_and_unknown_paths_get_the_sites_404_page(host, site):
    where, _ = host
    status, headers, _ = get(where, "/lesson?from=nav")
    assert status == 301 and headers["location"] == "/lesson/?from=nav"
    status, _, body = get(where, "/no/such/page/")
    assert status == 404 and body == (site / "404.html").read_bytes()
    assert get(where, "/../secret.txt")[0] == 404  # nothing outside the site's folder


def test_validators_answer_304_without_a_body(host):
    where, _ = host
    _, headers, _ = get(where, "/lesson/", {"Accept-Encoding": "gzip"})
    etag, modified = headers["etag"], headers["last-modified"]
    status, again, body = get(where, "/lesson/", {"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 304 and body == b"" and again["etag"] == etag and again["cache-control"] == "no-cache"
    assert get(where, "/lesson/", {"Accept-Encoding": "gzip", "If-None-Match": f'"x", W/{etag}'})[0] == 304
    assert get(where, "/lesson/", {"Accept-Encoding": "gzip", "If-Modified-Since": modified})[0] == 304
    # the file itself is another representation than its gzip copy: another tag
    assert get(where, "/lesson/", {"If-None-Match": etag})[0] == 200
    # If-None-Match decides when both are sent
    assert get(where, "/lesson/", {"Accept-Encoding": "gzip", "If-None-Match": '"old"',
                                   "If-Modified-Since": modified})[0] == 200


def test_a_rebuilt_file_gets_a_new_etag(host, site):
    where, _ = host
    etag = get(where, "/sw.js")[1]["etag"]
    (site / "sw.js").write_text("self.addEventListener('install', () => {});\n")
    assert get(where, "/sw.js", {"If-None-Match": etag})[0] == 200


def test_byte_ranges(host, site):
    where, _ = host
    data = (site / "pyodide" / "blob.wasm").read_bytes()
    status, headers, body = get(where, "/pyodide/blob.wasm", {"Range": "bytes=1000-1099", "Accept-Encoding": "gzip"})
    assert status == 206 and body == data[1000:1100]
    assert headers["content-range"] == f"bytes 1000-1099/{len(data)}" and headers["content-length"] == "100"
    assert get(where, "/pyodide/blob.wasm", {"Range": "bytes=-10"})[2] == data[-10:]
    assert get(where, "/pyodide/blob.wasm", {"Range": "bytes=16000-"})[2] == data[16000:]
    status, headers, _ = get(where, "/pyodide/blob.wasm", {"Range": f"bytes={len(data)}-"})
    assert status == 416 and headers["content-range"] == f"bytes */{len(data)}"
    # several ranges, or an If-Range for other bytes: the whole file
    assert get(where, "/pyodide/blob.wasm", {"Range": "bytes=0-1,5-6"})[2] == data
    headers = get(where, "/pyodide/blob.wasm")[1]
    for same in (headers["etag"], headers["last-modified"]):
        assert get(where, "/pyodide/blob.wasm", {"Range": "bytes=0-9", "If-Range": same})[2] == data[:10]
    for other in ('"other"', "Thu, 01 Jan 2015 00:00:00 GMT"):
        assert get(where, "/pyodide/blob.wasm", {"Range": "bytes=0-9", "If-Range": other})[0:3:2] == (200, data)
    # HEAD: the headers of the answer, no body
    status, headers, body = get(where, "/pyodide/blob.wasm", method="HEAD")
    assert status == 200 and headers["content-length"] == str(len(data)) and body == b""


@pytest.mark.parametrize(("header", "expected"), [
    ("bytes=0-0", (0, 0)), ("bytes=2-", (2, 9)), ("bytes=5-100", (5, 9)),
    ("bytes=-3", (7, 9)), ("bytes=-30", (0, 9)), ("bytes = 1 - 2", (1, 2)),
    ("bytes=0-1,4-5", None), ("bytes=5-2", None), ("bytes=-", None), ("items=0-1", None),
    ("bytes=" + "9" * 5000 + "-", None),  # a number no file size has: the header is ignored, not a crash
])
def test_a_range_is_answered_or_ignored(host, header, expected):
    """One range of a 10-byte file: its bytes (206), or the whole file when the header is to be ignored."""
    status, headers, body = get(host[0], "/ten.bin", {"Range": header})
    if expected is None:
        assert (status, body) == (200, b"0123456789") and "content-range" not in headers
    else:
        first, last = expected
        assert (status, body) == (206, b"0123456789"[first:last + 1])
        assert headers["content-range"] == f"bytes {first}-{last}/10"


@pytest.mark.parametrize(("header", "name", "size"), [("bytes=10-", "ten.bin", 10), ("bytes=-0", "ten.bin", 10),
                                                      ("bytes=-5", "empty.bin", 0)])
def test_unsatisfiable_ranges(host, header, name, size):
    status, headers, _ = get(host[0], f"/{name}", {"Range": header})
    assert status == 416 and headers["content-range"] == f"bytes */{size}"


@pytest.mark.parametrize(("header", "expected"), [
    ("gzip, deflate, br", {"gzip", "br"}), ("br", {"br"}), ("", set()), ("gzip;q=0", set()),
    ("GZIP;q=0.5", {"gzip"}), ("*", {"gzip", "br"}), ("*;q=0, gzip", {"gzip"}), ("gzip;q=0, *", {"br"}),
    ("identity", set()),
])
def test_accepted_codings(header, expected):
    assert accepted_codings(header) == expected


# -- cache policy -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bundle.a5f9d56c.min.js", "main.57a0d79d.min.css", "search.a7633da7.min.js",
                                  "palette.fb2fffe2.min.css.map"])
def test_names_with_a_content_hash_are_kept_for_a_year(name):
    directives = policy.cache_control(name).split(", ")
    assert f"max-age={ONE_YEAR_S}" in directives and "immutable" in directives


@pytest.mark.parametrize("name", ["sw.js", "index.html", "site.js", "strings.js", "editor.js", "pyodide.asm.wasm",
                                  "pyodide-lock.json", "py_lessons-0.1.0-py3-none-any.whl",
                                  "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl", "noto-sans-bengali-400.woff2"])
def test_names_that_survive_a_rebuild_are_revalidated(name):
    assert policy.cache_control(name) == "no-cache"


def test_the_host_sends_the_cache_policy(host):
    where, _ = host
    assert get(where, "/assets/bundle.a5f9d56c.min.js")[1]["cache-control"] == policy.LONG_LIVED
    for path in ("/sw.js", "/pyodide/py_lessons-0.1.0-py3-none-any.whl", "/"):
        assert get(where, path)[1]["cache-control"] == "no-cache", path


# -- access summary -----------------------------------------------------------------------------

def test_learners_are_counted_by_address_not_by_connection():
    summary = AccessSummary()
    for address in ("10.0.0.5", "10.0.0.5", "10.0.0.5", "10.0.0.9"):  # a browser opens several
        summary.connected(address)
    assert summary.snapshot().connected == 2
    summary.disconnected("10.0.0.5")
    summary.disconnected("10.0.0.5")
    assert summary.snapshot().connected == 2
    summary.disconnected("10.0.0.5")
    assert (summary.snapshot().connected, summary.snapshot().seen) == (1, 2)


def test_summary_line():
    line = summary_line(Snapshot(connected=3, seen=40, requests=1520, bytes_sent=412_345_678, cut_off=2))
    assert line == "learners connected: 3 (40 since start) | 412.3 MB sent | 1,520 requests | downloads cut off: 2"


def _wait_for(condition, attempts=200):
    for _ in range(attempts):  # bounded: 200 looks, 10 s at most
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_summary_counts_bytes_sent_and_downloads_cut_off(host, site, caplog):
    where, summary = host
    big = site / "pyodide" / "big.wasm"
    big.write_bytes(bytes(range(256)) * (32 * 4096))  # 32 MiB: more than the sockets' buffers hold
    page_size = len((site / "index.html").read_bytes())
    assert len(get(where, "/")[2]) == page_size
    assert _wait_for(lambda: summary.snapshot().bytes_sent == page_size)

    # a client reads the start of the big file and resets its connection
    quitter = socket.create_connection(("127.0.0.1", int(where.split(":")[1])), timeout=30)
    quitter.sendall(b"GET /pyodide/big.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
    received = b""
    while len(received) < 100_000:
        received += quitter.recv(65536)
    quitter.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    quitter.close()
    # ... while another one gets all of it
    status, _, body = get(where, "/pyodide/big.wasm")
    assert status == 200 and body == big.read_bytes()
    assert _wait_for(lambda: summary.snapshot().cut_off == 1)
    assert caplog.records == []  # a closed tab is counted, not printed as an error on the teacher's terminal
    now = summary.snapshot()
    assert now.requests == 3 and page_size + len(body) <= now.bytes_sent < page_size + 2 * len(body)
    assert get(where, "/sw.js")[0] == 200  # and the host goes on


def test_a_client_gone_just_before_a_chunk_is_a_download_cut_off(host, monkeypatch, caplog):
    """The client's reset can reach the host after it looked at the connection and before asyncio's
    sendfile does, which then refuses with RuntimeError("Transport is closing") (the fresh-clone CI
    met it in the test above): still a download cut off, not a server error."""
    where, summary = host
    real_sendfile = asyncio.base_events.BaseEventLoop.sendfile

    async def reset_first(loop, transport, *args, **kwargs):
        transport.close()  # the reset, landed between the host's look and the call
        return await real_sendfile(loop, transport, *args, **kwargs)

    monkeypatch.setattr(asyncio.base_events.BaseEventLoop, "sendfile", reset_first)
    with pytest.raises((http.client.HTTPException, ConnectionError)):  # the client sees its download end
        get(where, "/pyodide/blob.wasm")
    assert _wait_for(lambda: summary.snapshot().cut_off == 1)
    assert caplog.records == []  # no "GET ...: RuntimeError", no "Error handling request"
    monkeypatch.undo()
    assert get(where, "/sw.js")[0] == 200  # and the host goes on


# -- --lan: addresses, URL and QR code, from a fake list of addresses ---------------------------

def test_learner_addresses_keep_what_other_devices_can_reach():
    found = ["127.0.0.1", "127.0.1.1", "8.8.8.8", "169.254.3.4", "0.0.0.0", "::1", "fe80::1", "224.0.0.1",
             "not an address", "192.168.137.1", "10.42.0.1", "192.168.137.1"]
    assert learner_addresses(found) == ["192.168.137.1", "10.42.0.1", "8.8.8.8"]


def test_this_machines_addresses_are_ipv4_addresses():
    assert all(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address) for address in local_addresses())


ANSI = re.compile(r"\x1b\[[0-9;]*m")
HALVES = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}


def _qr_modules(lines: list[str]) -> list[list[int]]:
    """The dark (1) and light (0) modules drawn by half-block lines, two rows per line."""
    rows = []
    for line in lines:
        cells = [HALVES[char] for char in ANSI.sub("", line)]
        rows += [[top for top, _ in cells], [bottom for _, bottom in cells]]
    return rows


def _finder_pattern(modules, top, left):
    return [row[left:left + 7] for row in modules[top:top + 7]] == [
        [1] * 7, [1, 0, 0, 0, 0, 0, 1], [1, 0, 1, 1, 1, 0, 1], [1, 0, 1, 1, 1, 0, 1], [1, 0, 1, 1, 1, 0, 1],
        [1, 0, 0, 0, 0, 0, 1], [1] * 7]


def test_the_lan_announcement_gives_the_url_a_qr_code_and_what_plain_http_lacks():
    text = announcement(Path("/srv/course"), 8123, ["192.168.137.1", "10.42.0.1"])
    assert "Learners type: http://192.168.137.1:8123/" in text and "http://10.42.0.1:8123/" in text
    assert INSECURE_NOTE in text and "http://127.0.0.1:8123/" in text.splitlines()[0]
    drawn = [line for line in text.splitlines() if line.startswith("\x1b[30;47m")]  # black on white
    assert drawn and all(line.endswith("\x1b[0m") for line in drawn)
    modules = _qr_modules(drawn)
    quiet = 4
    size = len(modules[0]) - 2 * quiet
    assert (size - 17) % 4 == 0 and size >= 21  # a QR code's sizes: 21, 25, 29, ...
    assert all(not any(row) for row in modules[:quiet] + modules[quiet + size:])
    assert all(not any(row[:quiet] + row[quiet + size:]) for row in modules)
    inner = [row[quiet:quiet + size] for row in modules[quiet:quiet + size]]
    assert _finder_pattern(inner, 0, 0) and _finder_pattern(inner, 0, size - 7) and _finder_pattern(inner, size - 7, 0)
    # and it is the code of the first URL (encoded by segno at error level M, as printed)
    assert inner == [list(row) for row in segno.make("http://192.168.137.1:8123/", error="m").matrix]


def test_without_lan_or_without_an_address_the_announcement_says_so():
    local = announcement(Path("/srv/course"), 8000, None)
    assert "--lan" in local and INSECURE_NOTE not in local and "\x1b[" not in local
    lost = announcement(Path("/srv/course"), 8000, [])
    assert "No network address found" in lost and INSECURE_NOTE in lost and "\x1b[" not in lost


# -- the command --------------------------------------------------------------------------------

def test_the_command_serves_until_ctrl_c_and_ends_with_the_summary(site):
    process, url = start_host(site)
    where = url.removeprefix("http://")
    assert get(where, "/")[0] == 200 and get(where, "/lesson/")[0] == 200
    printed = stop_host(process)
    assert process.returncode == 0
    assert re.search(r"learners connected: \d+ \(1 since start\) \| [\d.]+ MB sent \| 2 requests", printed), printed


def test_the_command_refuses_a_folder_that_is_not_a_built_site(tmp_path):
    done = subprocess.run([sys.executable, "-m", "py_lessons.host", str(tmp_path), "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "build the site first" in done.stderr
