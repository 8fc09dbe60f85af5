// Rewrite staged wheels to CPython bytecode with the staged Pyodide's own Python (3.12), whose
// bytecode the reader's Python loads (see py_lessons/plugin/bytecode.py, which this runs).
//   node compile_wheels.mjs DIR BYTECODE_PY WHEEL...   prints {old name: new name} as JSON
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [dir, moduleFile, ...wheels] = process.argv.slice(2);
const indexDir = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: indexDir, stdout: (t) => process.stderr.write(t + "\n") });
pyodide.FS.mkdirTree("/staged");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: indexDir }, "/staged");
const bytecode = pyodide.runPython(await readFile(moduleFile, "utf8") + "\ncompile_wheels", { globals: pyodide.toPy({}) });
const renamed = bytecode("/staged", pyodide.toPy(wheels));
process.stdout.write(JSON.stringify(renamed.toJs({ dict_converter: Object.fromEntries })) + "\n");
