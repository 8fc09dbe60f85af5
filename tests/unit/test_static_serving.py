"""The built site's brotli and gzip siblings and the local server that sends them (like nginx
brotli_static and gzip_static)."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import urllib.error
import urllib.request
import zipfile

import brotli
import pytest

from support.local_server import serve
from py_lessons.plugin.ship.stored_twins import runtime_member


def test_every_large_text_file_has_a_gzip_copy_with_the_same_content(built_site):
    wasm = built_site / "pyodide" / "pyodide.asm.wasm"
    for path in (wasm, built_site / "search" / "search_index.json", built_site / "assets/vendor/editor.js",
                 built_site / "lessons/optimization/index.html", built_site / "sw.js"):
        packed = path.with_name(path.name + ".gz")
        assert packed.is_file(), f"{path.name} has no gzip copy"
        assert gzip.decompress(packed.read_bytes()) == path.read_bytes()
    assert wasm.with_name(wasm.name + ".gz").stat().st_size < wasm.stat().st_size / 2
    # wheels are zip files already: a gzip copy would only waste space (their stored twins are
    # made to be compressed whole)
    assert {path.parent.name for path in built_site.rglob("*.whl.gz")} == {"stored"}


def test_a_brotli_copy_is_written_where_it_is_smaller_than_the_gzip_one(built_site):
    wasm = built_site / "pyodide" / "pyodide.asm.wasm"
    copies = list(built_site.rglob("*.br"))
    assert len(copies) > 50
    for packed in copies:
        original = packed.with_name(packed.name.removesuffix(".br"))
        assert brotli.decompress(packed.read_bytes()) == original.read_bytes(), packed
        assert packed.stat().st_size < original.with_name(original.name + ".gz").stat().st_size, packed
    # the biggest file a first visit fetches: brotli saves a fifth on top of gzip
    assert wasm.with_name(wasm.name + ".br").stat().st_size < 0.85 * wasm.with_name(wasm.name + ".gz").stat().st_size
    assert {path.parent.name for path in built_site.rglob("*.whl.br")} == {"stored"}


def test_each_pyodide_wheel_and_the_standard_library_have_a_stored_twin_that_compresses_better(built_site):
    pyodide = built_site / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    stored_lock = json.loads((pyodide / "pyodide-lock.stored.json").read_text())["packages"]
    assert stored_lock.keys() == lock.keys()
    course_wheels = {"py-lessons", "py-lessons-content"}  # small, made per course: no twin
    for name, spec in lock.items():
        twin = stored_lock[name]
        if name in course_wheels:
            assert twin == spec
            continue
        assert twin["file_name"] == "stored/" + spec["file_name"]
        assert twin["sha256"] == hashlib.sha256((pyodide / twin["file_name"]).read_bytes()).hexdigest()
        assert {key: value for key, value in twin.items() if key not in {"file_name", "sha256"}} == \
            {key: value for key, value in spec.items() if key not in {"file_name", "sha256"}}
    twins = sorted((pyodide / "stored").glob("*.whl")) + [pyodide / "stored" / "python_stdlib.zip"]
    assert len(twins) == len(lock) - len(course_wheels) + 1
    for twin in twins:
        original = pyodide / twin.name
        with zipfile.ZipFile(original) as built, zipfile.ZipFile(twin) as stored:
            kept = [info.filename for info in built.infolist() if runtime_member(info.filename)]
            assert [info.filename for info in stored.infolist()] == kept
            assert not any(name.endswith((".h", ".pyi")) for name in stored.namelist())
            assert all(stored.read(info) == built.read(info.filename) for info in stored.infolist())
            assert {info.compress_type for info in stored.infolist()} == {zipfile.ZIP_STORED}
    # what a host that compresses sends of the two a first run needs: a third less than the files as built
    for name in (next(pyodide.glob("numpy-*.whl")).name, "python_stdlib.zip"):
        sent = (pyodide / "stored" / (name + ".br")).stat().st_size
        assert sent < 0.7 * (pyodide / name).stat().st_size, name


def _get(url, headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
        return answer.status, dict(answer.headers), answer.read()


def test_server_sends_brotli_or_gzip_only_to_browsers_that_accept_it(built_site):
    server, url = serve(built_site)
    try:
        original = (built_site / "pyodide" / "pyodide.asm.wasm").read_bytes()
        status, headers, body = _get(url + "/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip, deflate, br"})
        assert status == 200 and headers["Content-Encoding"] == "br" and "Accept-Encoding" in headers["Vary"]
        assert int(headers["Content-Length"]) == len(body) and brotli.decompress(body) == original

        # a plain-http LAN address: Chromium offers no brotli there, and gets the gzip copy as before
        status, headers, body = _get(url + "/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip, deflate"})
        wasm_modified = headers["Last-Modified"]
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert headers["Content-Type"] == "application/wasm" and "Accept-Encoding" in headers["Vary"]
        assert int(headers["Content-Length"]) == len(body) < len(original)
        assert gzip.decompress(body) == original

        status, headers, body = _get(url + "/pyodide/pyodide.asm.wasm", {})
        assert "Content-Encoding" not in headers and body == original

        # a directory address gets its index.html, compressed too
        status, headers, body = _get(url + "/lessons/optimization/", {"Accept-Encoding": "gzip"})
        assert headers["Content-Type"].startswith("text/html")
        assert gzip.decompress(body) == (built_site / "lessons/optimization/index.html").read_bytes()

        # revalidation of a cached copy answers 304 without a body
        request = urllib.request.Request(url + "/pyodide/pyodide.asm.wasm", headers={
            "Accept-Encoding": "gzip", "If-Modified-Since": wasm_modified})
        with pytest.raises(urllib.error.HTTPError) as answer:  # urllib raises on a 304
            urllib.request.urlopen(request)
        assert answer.value.code == 304
    finally:
        server.shutdown()
        server.server_close()


def test_server_keeps_a_connection_alive_across_files_and_ends_it_when_closed(built_site):
    """Like nginx or py_lessons.host, one connection carries many files (a page fetches ~30); once the
    test stops the host, a connection the browser kept open gets no more answers."""
    server, url = serve(built_site)
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=10)
    try:
        for path in ("/lessons/optimization/", "/pyodide/pyodide-lock.json", "/pyodide/pyodide.asm.wasm"):
            connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
            answer = connection.getresponse()
            answer.read()
            assert (answer.status, answer.version, answer.will_close) == (200, 11, False), path
        # a 304 has no body: the next file still comes on the same connection
        connection.request("GET", "/lessons/optimization/", headers={"Accept-Encoding": "gzip"})
        answer = connection.getresponse()
        answer.read()
        connection.request("GET", "/lessons/optimization/", headers={
            "Accept-Encoding": "gzip", "If-Modified-Since": answer.headers["Last-Modified"]})
        answer = connection.getresponse()
        assert (answer.status, answer.read()) == (304, b"")
        connection.request("GET", "/pyodide/pyodide-lock.json")
        answer = connection.getresponse()
        assert answer.read() == (built_site / "pyodide/pyodide-lock.json").read_bytes()
        opened = connection.sock
        server.shutdown()
        server.server_close()
        opened.sendall(b"GET /pyodide/pyodide-lock.json HTTP/1.1\r\nHost: x\r\n\r\n")
        assert opened.recv(1024) == b""  # closed by the host, not answered
    finally:
        connection.close()
        server.shutdown()
        server.server_close()
