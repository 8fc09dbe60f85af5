// Build-time cell runner: the staged Pyodide under Node.js, driven over stdin/stdout (JSON lines).
// It calls the same py_lessons.runtime code as the reader's Web Worker (worker.js mirrors the
// start-up below), so build output and a reader's Run cannot disagree.
//   node run_cells.mjs DIR                    serve requests
//   node run_cells.mjs DIR --make-font-cache NAME   write matplotlib's font list to DIR/NAME, exit
//   In:  {id, op:"run", code, session, figure_prefix} | {id, op:"reset"}
//   Out: {id, items, result} | {id, ok}        Anything else printed goes to stderr.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const protocolOut = process.stdout;
console.log = (...args) => console.error(...args); // keep stdout for the protocol alone

const indexDir = path.resolve(process.argv[2]) + path.sep;
const fontCacheOut = process.argv[3] === "--make-font-cache" ? process.argv[4] : null;
const manifest = JSON.parse(readFileSync(indexDir + "pathshala-manifest.json", "utf8"));
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const quiet = () => {};
const pyodide = await loadPyodide({
  indexURL: indexDir,
  stdout: (text) => process.stderr.write(text + "\n"),
  stderr: (text) => process.stderr.write(text + "\n"),
});
await pyodide.loadPackage(manifest.runtime_package, { messageCallback: quiet });
const session = pyodide.pyimport("py_lessons.runtime.session");
session.configure();
for (const name of manifest.font_files) {
  pyodide.FS.mkdirTree(session.FONT_DIR);
  pyodide.FS.writeFile(`${session.FONT_DIR}/${name}`, readFileSync(indexDir + "fonts/" + name));
}

if (fontCacheOut) {
  await pyodide.loadPackage("matplotlib", { messageCallback: quiet });
  writeFileSync(indexDir + fontCacheOut, session.build_font_cache());
  process.exit(0);
}

let fontCacheInstalled = false;
async function loadPackagesFor(code) {
  await pyodide.loadPackagesFromImports(code, { messageCallback: quiet });
  if (!fontCacheInstalled && manifest.font_cache && pyodide.loadedPackages.matplotlib) {
    session.install_font_cache(readFileSync(indexDir + manifest.font_cache, "utf8"));
    fontCacheInstalled = true;
  }
}

function reply(message) {
  protocolOut.write(JSON.stringify(message) + "\n");
}

reply({ id: 0, ready: true, version: pyodide.version });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  if (request.op === "reset") {
    session.reset();
    reply({ id: request.id, ok: true });
    continue;
  }
  await loadPackagesFor(request.code);
  const items = [];
  const result = session.run(request.code, request.session ?? null, (item) => items.push(JSON.parse(item)), request.figure_prefix ?? "fig");
  reply({ id: request.id, items, result: JSON.parse(result) });
}
