"""The bare Pyodide floor the benchmark measures the site against (tests/support/bench.py).

Written by the benchmark into the built site it serves, never shipped by the site build: a page
that starts a worker, which loads the official Pyodide release this site is built from (the same
core files and their brotli and gzip copies as the site's, the official lock and the official wheels, as
shipped, so none of the site's own start-up work such as bytecode wheels helps it), loads the
packages, runs a few lines of Python and posts what they printed. No service worker, no
snapshot, no runtime wheel, no editor: what any page that runs NumPy with Pyodide must spend.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.ship.staging import CORE_FILES, dependency_closure, resolve_source, sha256_of
from pyodide_lock import PyodideLockSpec

FLOOR_DIR = "_floor"
WORKER_NAME = "floor-worker.js"

# name -> (packages, Python code). Each prints one line; "plot" also returns a figure as SVG.
FLOORS = {
    "numpy": (["numpy"], (
        "import numpy as np\n"
        "marks = np.array([72, 85, 64, 90, 58])\n"
        "print(marks.mean(), marks.max(), marks.min(), np.exp(1.0))\n")),
    "plot": (["numpy", "matplotlib"], (
        "import io\n"
        "import matplotlib\n"
        "matplotlib.use('agg')\n"  # a worker has no DOM for Pyodide's default backend
        "import matplotlib.pyplot as plt\n"
        "import numpy as np\n"
        "x = np.linspace(-3, 3, 61)\n"
        "plt.figure(figsize=(5, 3))\n"
        "plt.plot(x, x**2, label='loss = w^2')\n"
        "plt.xlabel('w')\n"
        "plt.legend()\n"
        "svg = io.StringIO()\n"
        "plt.savefig(svg, format='svg')\n"
        "plt.close('all')\n"
        "print('min loss:', (x**2).min())\n"
        "svg.getvalue()\n")),
}

# The worker answers one message {packages, code} with {ok, printed, svg} or {ok: false, error}.
_WORKER = """\
const base = new URL("pyodide/", import.meta.url);

onmessage = async ({ data }) => {
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", base).href);
    const printed = [];
    const pyodide = await loadPyodide({ indexURL: base.href, stdout: (line) => printed.push(line) });
    await pyodide.loadPackage(data.packages, { messageCallback: () => {} });
    const result = await pyodide.runPythonAsync(data.code);
    postMessage({ ok: true, printed: printed.join("\\n"), svg: typeof result === "string" ? result : "" });
  } catch (error) {
    postMessage({ ok: false, error: String(error) });
  }
};
"""

# data-state: loading -> done | error; the printed text in <pre>, the figure (if any) after it.
_PAGE = """\
<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Pyodide floor: {name}</title></head>
<body>
<main><h1>Pyodide floor: {name}</h1><pre id="floor-output" data-state="loading"></pre><figure id="floor-figure"></figure></main>
<script type="module">
const output = document.getElementById("floor-output");
const worker = new Worker("{worker}", {{ type: "module" }});
worker.onmessage = ({{ data }}) => {{
  output.textContent = data.ok ? data.printed : data.error;
  if (data.svg) document.getElementById("floor-figure").innerHTML = data.svg;
  output.dataset.state = data.ok ? "done" : "error";
}};
worker.onerror = (event) => {{ output.textContent = event.message; output.dataset.state = "error"; }};
worker.postMessage({job});
</script>
</body>
</html>
"""


def _write_official_pyodide(site: Path, target: Path) -> None:
    """The official release: the site's core files (+ their brotli and gzip copies, so the floor is
    served as well as the site is), the official lock and the
    official wheels of every floor's packages (each checked against that lock)."""
    staged = site / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in CORE_FILES:
        for path in (staged / name, staged / f"{name}.br", staged / f"{name}.gz"):
            if path.is_file():
                shutil.copyfile(path, target / path.name)
    source = resolve_source(None, dependencies.node_modules() / "pyodide", dependencies.wheel_carrier)
    shutil.copyfile(source.lock_path, target / "pyodide-lock.json")
    lock = PyodideLockSpec.from_json(source.lock_path)
    for name in dependency_closure(lock, sorted({p for packages, _ in FLOORS.values() for p in packages})):
        spec = lock.packages[name]
        data = source.read_wheel(spec.file_name)
        if sha256_of(data) != spec.sha256:
            raise RuntimeError(f"{spec.file_name} differs from the official lock")
        (target / spec.file_name).write_bytes(data)


def write_floor_pages(site: Path) -> dict[str, str]:
    """Write the floor pages, their worker and the official Pyodide into the built ``site``;
    returns name -> URL path."""
    folder = site / FLOOR_DIR
    folder.mkdir(exist_ok=True)
    _write_official_pyodide(site, folder / "pyodide")
    (folder / WORKER_NAME).write_text(_WORKER, encoding="utf-8")
    paths = {}
    for name, (packages, code) in FLOORS.items():
        job = json.dumps({"packages": packages, "code": code})
        (folder / f"{name}.html").write_text(_PAGE.format(name=name, worker=WORKER_NAME, job=job), encoding="utf-8")
        paths[name] = f"/{FLOOR_DIR}/{name}.html"
    return paths


def floor_output(page) -> str:
    """Wait until the open floor page shows its output; returns what Python printed.
    Raises if the worker reported an error (a floor that failed measures nothing)."""
    output = page.wait_for_selector('#floor-output:is([data-state="done"], [data-state="error"])',
                                    state="attached", timeout=180_000)  # an empty <pre> is not "visible"
    text = output.text_content()
    if output.get_attribute("data-state") != "done":
        raise RuntimeError(f"the floor page failed: {text}")
    return text


def time_floor(page, url: str, path: str) -> float:
    """Seconds from opening the floor page to its output, timed like the site's demo cell."""
    began = time.perf_counter()
    page.goto(url + path, wait_until="load")
    floor_output(page)
    return time.perf_counter() - began
