// Python's start-up from a memory snapshot on later visits (used by worker.js).
// Starting Pyodide means initialising CPython inside WebAssembly: about 2 s on a slow machine, on
// every page load. So after the first normal start the worker takes Pyodide's memory snapshot
// (makeMemorySnapshot, made in this very browser, right after start-up and a few standard-library
// imports, before any package is loaded) and, once the worker is idle, stores it gzip-compressed
// in Cache Storage (about 5 MB); later visits restore it instead (a few tenths of a second).
// Pyodide refuses a snapshot of another build; one that fails to restore is deleted and Python
// starts the normal way. Without Cache Storage (a page served over plain http from another
// machine is not a secure context) every start is a normal one.
// Pyodide calls the two options experimental (leading underscore): they are pinned with Pyodide.
const CACHE = "pathshala-python-snapshot";
const usable = () => "caches" in globalThis && "CompressionStream" in globalThis;
const prefix = (base) => new URL("python-snapshot.bin", base).href;
const keyFor = (base, build) => `${prefix(base)}?build=${encodeURIComponent(build)}`;

// Pyodide 0.27's snapshot layout: a header that starts with this magic number and gives the
// offset of the WebAssembly heap, then the heap in whole 64 KiB pages. Pyodide checks the rest
// (its build id); what fails this check must never reach loadPyodide, where a wrong memory size
// makes start-up hang instead of fail.
const MAGIC = 0x706e7300;
const WASM_PAGE = 65536;

function wellFormed(bytes) {
  if (bytes.byteLength < 16 * WASM_PAGE) return false;
  const [magic, heapAt] = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  return magic === MAGIC && heapAt >= 48 && heapAt < WASM_PAGE && (bytes.byteLength - heapAt) % WASM_PAGE === 0;
}

/** This site's snapshot of `build`: bytes, "none" or "unusable". */
async function read(base, build) {
  try {
    const hit = await (await caches.open(CACHE)).match(keyFor(base, build));
    if (!hit) return "none";
    const bytes = new Uint8Array(await new Response(hit.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    return wellFormed(bytes) ? bytes : "unusable";
  } catch {
    return "unusable"; // not gzip, or storage failed to read
  }
}

/** Delete this site's snapshots (all builds). */
async function drop(base) {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) if (request.url.startsWith(prefix(base))) await cache.delete(request);
  } catch { /* nothing stored, nothing to delete */ }
}

async function save(base, build, bytes) {
  try {
    await drop(base); // an older build's snapshot would never be used again
    const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    await (await caches.open(CACHE)).put(keyFor(base, build), new Response(packed));
    performance.mark("pathshala:snapshot-saved");
  } catch { /* storage full or denied: the next visit starts Python the normal way */ }
}

// Standard-library modules imported before the snapshot is taken, so that later visits do not
// import them again (about half a second here): what Pyodide's package loader imports to install
// the first wheel (importlib.metadata, email, tarfile, csv, datetime) and what py_lessons.runtime
// uses. Pure Python or built into Pyodide's core: nothing here lives outside the snapshot.
const PRELOAD = `
import importlib
for name in ("importlib.metadata", "importlib.util", "email.message", "email.utils", "tarfile",
             "csv", "datetime", "calendar", "base64", "json", "ast", "traceback", "contextlib"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
`;

/** loadPyodide(options), from this site's snapshot of build `build` when there is one. */
export async function startPython(loadPyodide, options, base, build) {
  if (!usable()) return loadPyodide(options);
  const snapshot = await read(base, build);
  if (snapshot instanceof Uint8Array) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      performance.mark("pathshala:snapshot-restored");
      return py;
    } catch { /* e.g. another Pyodide build's snapshot: dropped below */ }
  }
  if (snapshot !== "none") {
    performance.mark("pathshala:snapshot-rejected");
    await drop(base);
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  py.runPython(PRELOAD);
  const bytes = py.makeMemorySnapshot(); // now, before any package or JS object touches Python
  pendingSave = () => save(base, build, bytes);
  return py;
}

// Compressing 20 MB takes a good fraction of a second of this worker's time: it waits until the
// worker has been idle for a while (saveSnapshotWhenIdle), never delaying the reader's first Run.
let pendingSave = null;
let idleTimer = null;
const IDLE_MS = 2000;

/** Call after each piece of work; the snapshot is saved once no work came for IDLE_MS. */
export function saveSnapshotWhenIdle() {
  if (!pendingSave) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const saveNow = pendingSave;
    pendingSave = null;
    saveNow?.();
  }, IDLE_MS);
}
