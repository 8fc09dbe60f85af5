"""The benchmark's bare Pyodide floor pages (support/bench_floor.py): every ratio_to_floor divides by
them, so each must load the official Pyodide release the site is built from (the site's core files
and their brotli and gzip copies, the official wheels, not the site's bytecode ones) and really print its output."""

from __future__ import annotations

import json
import math
import shutil
import zipfile

import numpy as np
import pytest
from support.bench_floor import FLOOR_DIR, floor_output, write_floor_pages
from support.local_server import serve

pytestmark = pytest.mark.browser


@pytest.fixture()
def floor_host(built_site):
    """The built site with the floor pages written into it, served: (server, URL, name -> path).
    The pages are removed afterwards: other tests read every page of the built site."""
    paths = write_floor_pages(built_site)
    server, url = serve(built_site)
    yield server, url, paths
    server.shutdown()
    server.server_close()
    shutil.rmtree(built_site / FLOOR_DIR)


def _open_floor(browser, url, path):
    """Open a floor page in a fresh context; (printed text, its figure's SVG attributes or None,
    content-encoding of every response by URL)."""
    context = browser.new_context(service_workers="block")
    encodings = {}
    context.on("response", lambda response: encodings.setdefault(response.url, response.headers.get("content-encoding")))
    page = context.new_page()
    page.goto(url + path)
    printed = floor_output(page)
    svg = page.locator("#floor-figure svg")
    figure = {"width": svg.get_attribute("width"), "height": svg.get_attribute("height")} if svg.count() else None
    context.close()
    return printed, figure, encodings


def test_numpy_floor_loads_the_official_pyodide_and_prints(browser, floor_host, built_site):
    server, url, paths = floor_host
    printed, figure, encodings = _open_floor(browser, url, paths["numpy"])
    marks = [72, 85, 64, 90, 58]
    assert printed == f"{sum(marks) / len(marks)!r} {max(marks)} {min(marks)} {math.exp(1.0)!r}"
    assert figure is None
    floor = f"/{FLOOR_DIR}/pyodide/"
    # the site's own core files, sent as their compressed copies (brotli: Chromium offers it to
    # 127.0.0.1), as the site's are ...
    assert encodings[url + floor + "pyodide.asm.wasm"] == "br"
    assert (built_site / FLOOR_DIR / "pyodide" / "pyodide.asm.wasm").read_bytes() == \
        (built_site / "pyodide" / "pyodide.asm.wasm").read_bytes()
    # ... and the official NumPy wheel (Python source, as released), nothing of the site's runtime
    wheels = [path for path in server.requested if path.startswith(floor + "numpy-")]
    assert len(wheels) == 1
    with zipfile.ZipFile(built_site / wheels[0].lstrip("/")) as wheel:
        assert "numpy/__init__.py" in wheel.namelist()
    official = json.loads((built_site / FLOOR_DIR / "pyodide" / "pyodide-lock.json").read_text())
    assert wheels[0].endswith(official["packages"]["numpy"]["file_name"])
    assert not any(path.startswith("/pyodide/") or "py_lessons-" in path or path.startswith("/assets/pathshala/")
                   for path in server.requested)


def test_plot_floor_draws_its_figure_and_prints(browser, floor_host):
    server, url, paths = floor_host
    printed, figure, _ = _open_floor(browser, url, paths["plot"])
    assert printed == f"min loss: {(np.linspace(-3, 3, 61) ** 2).min()}"
    assert figure == {"width": f"{5 * 72}pt", "height": f"{3 * 72}pt"}  # figsize (5, 3) inches at 72 pt each
    assert any(path.startswith(f"/{FLOOR_DIR}/pyodide/matplotlib-") for path in server.requested)
