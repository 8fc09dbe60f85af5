"""Stop's interrupt reaches the Python a reader's page runs: the built site's Pyodide in a worker
thread, given the interrupt buffer as worker.js gives it (python/interrupt.js), takes every SIGINT
written into it from another thread while a busy loop runs. With the bare shared buffer CPython's
read-then-clear lost some (49 and 67 of 2,000 under Node here); the page then waited for a run that
went on and replaced Python (the fresh-clone CI's Stop failures)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

PYTHON_ASSETS = Path(__file__).parents[2] / "py_lessons" / "plugin" / "assets" / "python"
SIGNALS = 1000

# The main thread writes SIGINT into the shared buffer, as python-worker.js's Stop does, once the
# loop is running again (a few ms later, at a random moment); Python counts each KeyboardInterrupt
# it takes. A signal not taken within 5 s is lost (taken ones take milliseconds); the first lost
# one ends the probe.
PROBE = """\
import { Worker, isMainThread, workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { interruptView } from "./interrupt.js";
import { SIGINT } from "./protocol.js";

const LOOPING = 1, TAKEN = 0;
if (isMainThread) {
  const [pyodideDir, signals] = process.argv.slice(2);
  const interrupt = new Int32Array(new SharedArrayBuffer(4));
  const counts = new Int32Array(new SharedArrayBuffer(8)); // [KeyboardInterrupts taken, in the loop]
  const worker = new Worker(new URL(import.meta.url), { workerData: { pyodideDir, interrupt, counts } });
  worker.on("error", (error) => { console.log(JSON.stringify({ error: String(error) })); process.exit(1); });
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  let lost = 0;
  for (let i = 0; i < Number(signals) && !lost; i++) {
    while (Atomics.load(counts, LOOPING) === 0) await sleep(1);
    await sleep(1 + Math.random() * 4);
    const taken = Atomics.load(counts, TAKEN);
    Atomics.store(interrupt, 0, SIGINT);
    const asked = performance.now();
    while (Atomics.load(counts, TAKEN) === taken && performance.now() - asked < 5_000) await sleep(1);
    if (Atomics.load(counts, TAKEN) === taken) lost++;
  }
  console.log(JSON.stringify({ lost, taken: Atomics.load(counts, TAKEN) }));
  process.exit(0);
} else {
  const { pyodideDir, interrupt, counts } = workerData;
  const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
  pyodide.setInterruptBuffer(interruptView(interrupt));
  pyodide.globals.set("counts", counts);
  pyodide.runPython(`
import js
while True:
    try:
        js.Atomics.store(counts, ${LOOPING}, 1)
        while True:
            pass
    except KeyboardInterrupt:
        js.Atomics.store(counts, ${LOOPING}, 0)
        js.Atomics.add(counts, ${TAKEN}, 1)
`);
}
"""


def test_every_stop_written_while_python_loops_is_taken(built_site, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed (the plugin's build runs on it)")
    for name in ("interrupt.js", "protocol.js"):  # the view the worker gives Pyodide, and what Stop writes
        shutil.copyfile(PYTHON_ASSETS / name, tmp_path / name)
    (tmp_path / "probe.js").write_text(PROBE, encoding="utf-8")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "probe.js"), str(built_site / "pyodide"), str(SIGNALS)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == {"lost": 0, "taken": SIGNALS}
