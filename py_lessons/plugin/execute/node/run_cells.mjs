// Build-time cell runner: the staged Pyodide under Node.js, driven over stdin/stdout (JSON lines)
// by py_lessons/plugin/execute/runner.py. Same messages as the reader's worker
// (assets/python/protocol.js), same start-up (assets/python/start.js), same py_lessons.runtime:
// build output and a reader's Run cannot disagree. A job's output items come back inside its
// "done" message; a request of a type the protocol does not have is answered "refused".
//   node run_cells.mjs DIR   serve requests
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FROM_PYTHON, TO_PYTHON } from "../../assets/python/protocol.js";
import { installFonts, readManifest, startRuntime } from "../../assets/python/start.js";

const protocolOut = process.stdout;
console.log = (...args) => console.error(...args); // keep stdout for the protocol alone

const indexDir = path.resolve(process.argv[2]) + path.sep;
const staged = {
  readText: (name) => readFile(indexDir + name, "utf8"),
  readBytes: async (name) => new Uint8Array(await readFile(indexDir + name)),
};
const manifest = await readManifest(staged);
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const quiet = () => {};
const pyodide = await loadPyodide({
  indexURL: indexDir,
  stdout: (text) => process.stderr.write(text + "\n"),
  stderr: (text) => process.stderr.write(text + "\n"),
});
const session = await startRuntime(pyodide, manifest);

let fontsInstalled = false;
async function loadPackagesFor(code) {
  await pyodide.loadPackagesFromImports(code, { messageCallback: quiet });
  // what the course's own modules (course.py) that the code imports need, e.g. NumPy
  const viaCourse = session.content_imports(JSON.stringify([code]));
  if (viaCourse) await pyodide.loadPackagesFromImports(viaCourse, { messageCallback: quiet });
  if (!fontsInstalled && pyodide.loadedPackages.matplotlib) {
    await installFonts(pyodide, session, manifest, staged);
    fontsInstalled = true;
  }
}

function reply(message) {
  protocolOut.write(JSON.stringify(message) + "\n");
}

reply({ type: FROM_PYTHON.READY, id: 0, version: pyodide.version });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  if (request.type === TO_PYTHON.RESET) {
    session.reset();
    reply({ type: FROM_PYTHON.DONE, id: request.id, result: { ok: true }, seconds: 0 });
    continue;
  }
  if (request.type === TO_PYTHON.CALL) { // the page's worker calls the same session.call
    await loadPackagesFor(request.imports ?? "");
    const began = performance.now();
    const result = JSON.parse(session.call(request.module, request.function, request.kwargs));
    reply({ type: FROM_PYTHON.DONE, id: request.id, result, seconds: (performance.now() - began) / 1000 });
    continue;
  }
  if (request.type !== TO_PYTHON.RUN && request.type !== TO_PYTHON.CHECK) {
    reply({ type: FROM_PYTHON.REFUSED, id: request.id, reason: `unknown message type ${JSON.stringify(request.type)}` });
    continue;
  }
  // an exercise's hidden checks may import what the reader's code does not
  await loadPackagesFor([request.code, request.checks ?? ""].join("\n"));
  const items = [];
  const emit = (item) => items.push(JSON.parse(item));
  const began = performance.now();
  const result = request.type === TO_PYTHON.CHECK
    ? session.check(request.code, request.checks, emit, request.figurePrefix ?? "exercise", JSON.stringify(request.trace ?? null))
    : session.run(request.code, request.session ?? null, emit, request.figurePrefix ?? "fig",
      JSON.stringify(request.stdin ?? []), JSON.stringify(request.trace ?? null));
  reply({ type: FROM_PYTHON.DONE, id: request.id, items, result: JSON.parse(result), seconds: (performance.now() - began) / 1000 });
}
