"""The built site's gzip siblings and the local server that sends them (like nginx gzip_static)."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request

import pytest

from support.local_server import serve


def test_every_large_text_file_has_a_gzip_copy_with_the_same_content(built_site):
    wasm = built_site / "pyodide" / "pyodide.asm.wasm"
    for path in (wasm, built_site / "search" / "search_index.json", built_site / "assets/vendor/editor.js",
                 built_site / "lessons/optimization/index.html", built_site / "sw.js"):
        packed = path.with_name(path.name + ".gz")
        assert packed.is_file(), f"{path.name} has no gzip copy"
        assert gzip.decompress(packed.read_bytes()) == path.read_bytes()
    assert wasm.with_name(wasm.name + ".gz").stat().st_size < wasm.stat().st_size / 2
    # wheels are zip files already: a gzip copy would only waste space
    assert not list(built_site.rglob("*.whl.gz"))


def _get(url, headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
        return answer.status, dict(answer.headers), answer.read()


def test_server_sends_gzip_only_to_browsers_that_accept_it(built_site):
    server, url = serve(built_site)
    try:
        original = (built_site / "pyodide" / "pyodide.asm.wasm").read_bytes()
        status, headers, body = _get(url + "/pyodide/pyodide.asm.wasm", {"Accept-Encoding": "gzip, br"})
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
