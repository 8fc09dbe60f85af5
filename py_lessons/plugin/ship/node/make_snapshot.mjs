// The start-up snapshot the site ships (see assets/python/snapshot.js, which restores it): the
// staged Pyodide under Node.js, started the normal way, PRELOAD run, then Pyodide's memory
// snapshot written gzip-compressed. The heap holds no trace of Node: the environment Python sees
// (os.environ, sys.platform, the file system, mounted anew by every start) is Pyodide's own.
//   node make_snapshot.mjs DIR NAME   write DIR/NAME
import { writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { PRELOAD } from "../../assets/python/snapshot.js";

const [dir, name] = process.argv.slice(2);
const indexDir = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: indexDir, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
pyodide.runPython(PRELOAD);
await writeFile(indexDir + name, gzipSync(pyodide.makeMemorySnapshot(), { level: 9 }));
