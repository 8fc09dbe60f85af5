// Python's start-up from the memory snapshot the build ships (used by worker.js).
// Starting Pyodide means initialising CPython inside WebAssembly: one to two seconds, on every
// page load. The build takes Pyodide's memory snapshot instead (ship/node/make_snapshot.mjs: the same
// staged files, right after start-up and the standard-library imports of PRELOAD, before any
// package) and ships it beside Pyodide (about 3.3 MB as a host sends it; the service worker keeps
// it like every other file); the reader's worker restores it (a few tenths of a second).
// A snapshot that fails the layout check below or that Pyodide refuses (another build's, a
// spoiled download) is not used: Python starts the normal way, and the page works as before.
// Pyodide calls the snapshot options experimental (leading underscore): they are pinned with it.

// Standard-library modules imported before the snapshot is taken, so that no start imports them
// again (about half a second): what Pyodide's package loader imports to install the first wheel
// (importlib.metadata, email, tarfile, csv, datetime, and the codec of zip members' names) and what
// py_lessons.runtime uses. Pure Python
// or built into Pyodide's core: nothing here lives outside the snapshot.
export const PRELOAD = `
import importlib
for name in ("importlib.metadata", "importlib.util", "email.message", "email.utils", "tarfile",
             "csv", "datetime", "calendar", "base64", "json", "ast", "traceback", "contextlib",
             "encodings.cp437"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
`;

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

/** The shipped snapshot's bytes, or null (missing, not gzip, failing the layout check). It is
 * shipped as taken (25 MB) beside its brotli and gzip copies: a host that serves those (nginx's
 * brotli_static/gzip_static, Caddy's precompressed, py_lessons.host) sends 3.3 MB (brotli) or 5 MB
 * (gzip) and the browser decodes it (DecompressionStream knows no brotli). A response that arrives
 * without a Content-Encoding comes from a host that sends files as they are: it is cancelled at
 * once, and the gzip copy is fetched and decoded here instead. */
async function read(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return null;
    if (compressed(response)) return checked(new Uint8Array(await response.arrayBuffer()));
    await response.body?.cancel();
    const packed = await fetch(`${url}.gz`);
    if (!packed.ok) return null;
    return checked(new Uint8Array(await new Response(packed.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()));
  } catch {
    return null;
  }
}

const checked = (bytes) => (wellFormed(bytes) ? bytes : null);
/** Whether the host sent one of the build's compressed copies (the browser decoded it). */
export const compressed = (response) => !["", "identity"].includes(response.headers.get("content-encoding") ?? "");

// The snapshot holds the standard library's zip directory as it was when taken (zipimport's
// offsets into the original python_stdlib.zip). Started on the zip's stored twin
// (ship/stored_twins.py: the same files at other offsets), every zip importer is given that zip's
// directory, read once (about 16 ms; one importer per package re-reading it would take 200 ms),
// before anything else is imported.
const REREAD_STDLIB = `
import sys, zipimport
def _reread():
    read = {}
    for importer in list(sys.path_importer_cache.values()):
        if isinstance(importer, zipimport.zipimporter):
            if importer.archive not in read:
                read[importer.archive] = zipimport._zip_directory_cache[importer.archive] = zipimport._read_directory(importer.archive)
            importer._files = read[importer.archive]
_reread()
del _reread
`;

/** loadPyodide(options), restored from the snapshot at `url` (null: the build shipped none);
 * options.stdLibURL: the standard library's stored twin (else Pyodide's own zip). `arrived()` is
 * called once the snapshot's download has ended (at once where there is none). */
export async function startPython(loadPyodide, options, url, arrived = () => {}) {
  if (!url || !("DecompressionStream" in globalThis)) {
    arrived();
    return loadPyodide(options);
  }
  // fetched while pyodide.asm.js and the WebAssembly load, not before them
  const snapshot = read(url).then((bytes) => bytes ?? Promise.reject(new Error("no usable snapshot")));
  snapshot.catch(() => {}).finally(arrived); // Pyodide also holds this promise: its refusal is handled below, not reported
  try {
    const py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
    if (options.stdLibURL) py.runPython(REREAD_STDLIB);
    performance.mark("pathshala:snapshot-restored");
    return py;
  } catch {
    performance.mark("pathshala:snapshot-rejected");
    return loadPyodide(options);
  }
}
