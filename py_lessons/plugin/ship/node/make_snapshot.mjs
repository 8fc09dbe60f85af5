// The start-up snapshot the site ships (see assets/python/snapshot.js, which restores it): the
// staged Pyodide under Node.js, started the normal way, PRELOAD run, then Pyodide's memory
// snapshot written as it is (25 MB: a host sends its brotli or gzip copy, ship/precompress.py, and
// where a host sends files as they are the page fetches the gzip copy itself, python/snapshot.js).
// The heap holds no trace of Node: the environment Python sees (os.environ, sys.platform, the file
// system, mounted anew by every start) is Pyodide's own.
// The heap's free memory still holds what start-up wrote and freed; zeroed (through the allocator
// itself, so its bookkeeping stays true) it compresses away: 6.04 MB -> 5.00 MB gzip, 3.32 MB brotli.
//   node make_snapshot.mjs DIR NAME   write DIR/NAME
import { writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { PRELOAD } from "../../assets/python/snapshot.js";

const [dir, name] = process.argv.slice(2);
const indexDir = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: indexDir, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
pyodide.runPython(PRELOAD);
pyodide.runPython("import gc; gc.collect()");
zeroFreeMemory(pyodide._module);
await writeFile(indexDir + name, pyodide.makeMemorySnapshot());

/** Take every free block of the heap the memory already has (calloc zeroes it; never so much
 * that the allocator must grow the memory, which the snapshot would then carry), then give it back. */
function zeroFreeMemory(module) {
  const brk = module._emscripten_get_sbrk_ptr();
  const memoryBytes = module.HEAP8.buffer.byteLength;
  const taken = [];
  for (let size = 1 << 23; size >= 16;) {
    const room = memoryBytes - module.HEAPU32[brk >> 2];
    const block = size + 65536 <= room ? module._calloc(size, 1) : 0;
    if (block) taken.push(block);
    else size >>= 1;
  }
  for (const block of taken) module._free(block);
  if (module.HEAP8.buffer.byteLength !== memoryBytes) throw new Error("zeroing free memory grew the heap");
}
