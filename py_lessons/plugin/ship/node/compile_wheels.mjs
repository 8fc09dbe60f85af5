// Rewrite wheels to CPython bytecode with the staged Pyodide's own Python (3.12), whose
// bytecode the reader's Python loads (see py_lessons/plugin/ship/bytecode.py, which this runs).
//   node compile_wheels.mjs PYODIDE_DIR WHEEL_DIR BYTECODE_PY WHEEL...   prints {old name: new name} as JSON
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, wheelDir, moduleFile, ...wheels] = process.argv.slice(2);
const indexDir = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: indexDir, stdout: (t) => process.stderr.write(t + "\n") });
pyodide.FS.mkdirTree("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(wheelDir) }, "/wheels");
const bytecode = pyodide.runPython(await readFile(moduleFile, "utf8") + "\ncompile_wheels", { globals: pyodide.toPy({}) });
const renamed = bytecode("/wheels", pyodide.toPy(wheels));
process.stdout.write(JSON.stringify(renamed.toJs({ dict_converter: Object.fromEntries })) + "\n");
