// Web Worker that owns Pyodide, so a long-running cell never freezes the page.
// Start-up mirrors py_lessons/build/node/run_cells.mjs (the build-time runner): same staged
// files, same py_lessons.runtime calls, hence the same output.
// In:  {type:"run", id, code, session, figurePrefix} | {type:"warm", codes, skip} | {type:"reset"} |
//      {type:"interrupt-buffer", buffer}
//      | {type:"call", id, module, function, kwargs}: call a py_lessons function with JSON kwargs,
//        answered by "done" with result {ok, value} or {ok:false, error, message} (steppers use it)
//      | {type:"cancel", id}: skip run/call `id` if it has not started yet (its page was left)
// Out: {type:"progress", phase, loaded, total, names} | {type:"running", id} | {type:"item", id, item} |
//      {type:"done", id, result, seconds} | {type:"fatal", reason}
import { saveSnapshotWhenIdle, startPython } from "./python-snapshot.js";

const base = new URL("../../pyodide/", import.meta.url);

let readyPromise = null;
let pyodide, session, manifest;
let fontsInstalled = false;

// Bytes of finished downloads under base, from Resource Timing: honest progress without
// fetching anything twice.
let loadedBytes = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.name.startsWith(base.href)) loadedBytes += entry.encodedBodySize || entry.transferSize || 0;
  }
}).observe({ type: "resource", buffered: true });

function progress(phase, total, names = []) {
  postMessage({ type: "progress", phase, loaded: Math.min(loadedBytes, total), total, names });
}

function withTicker(phase, total, names, promise) {
  const timer = setInterval(() => progress(phase, total, names), 200);
  return promise.finally(() => { clearInterval(timer); progress(phase, total, names); });
}

async function start() {
  manifest = await (await fetch(new URL("pathshala-manifest.json", base))).json();
  const coreTotal = Object.values(manifest.core_bytes).reduce((a, b) => a + b, 0) + manifest.packages[manifest.runtime_package].bytes;
  progress("core", coreTotal);
  const { loadPyodide } = await import(new URL("pyodide.mjs", base).href);
  // performance marks: where start-up time goes, for DevTools and the benchmark (py_lessons/bench.py)
  performance.mark("pathshala:start");
  pyodide = await withTicker("core", coreTotal, [], (async () => {
    const options = { indexURL: base.href, stdout: () => {}, stderr: () => {} };
    const py = await startPython(loadPyodide, options, base, `${manifest.pyodide}-${manifest.key}`);
    performance.mark("pathshala:pyodide-ready");
    await py.loadPackage(manifest.runtime_package, { messageCallback: () => {} });
    return py;
  })());
  session = pyodide.pyimport("py_lessons.runtime.session");
  session.configure();
  performance.mark("pathshala:runtime-ready");
}

// matplotlib's Bangla font and the font list made for it: fetched only once matplotlib is loaded.
async function installFonts() {
  if (fontsInstalled || !pyodide.loadedPackages.matplotlib) return;
  for (const name of manifest.font_files) {
    const data = new Uint8Array(await (await fetch(new URL("fonts/" + name, base))).arrayBuffer());
    pyodide.FS.mkdirTree(session.FONT_DIR);
    pyodide.FS.writeFile(`${session.FONT_DIR}/${name}`, data);
  }
  if (manifest.font_cache) session.install_font_cache(await (await fetch(new URL(manifest.font_cache, base))).text());
  fontsInstalled = true;
}

function packagesNeeded(codes, skip = []) {
  const findImports = pyodide.pyimport("pyodide.code").find_imports;
  const imports = codes.flatMap((code) => findImports(code).toJs()); // [] for code that does not parse
  const byImport = {};
  for (const [name, info] of Object.entries(manifest.packages)) {
    for (const imp of info.imports || []) byImport[imp] = name;
  }
  const wanted = new Set();
  const visit = (name) => {
    if (!name || wanted.has(name) || pyodide.loadedPackages[name]) return;
    wanted.add(name);
    for (const dep of manifest.packages[name]?.depends || []) visit(dep);
  };
  for (const imp of imports) if (!skip.includes(byImport[imp])) visit(byImport[imp]);
  return [...wanted];
}

async function loadPackagesFor(codes, skip = []) {
  const names = packagesNeeded(codes, skip);
  if (names.length) {
    const total = names.reduce((sum, n) => sum + (manifest.packages[n]?.bytes || 0), 0);
    loadedBytes = 0;
    await withTicker("packages", total, names, pyodide.loadPackage(names, { messageCallback: () => {} }));
    performance.mark("pathshala:packages-loaded", { detail: names });
  }
  await installFonts();
}

// Import what the cells import from the loaded packages (NumPy: most of a second) while the
// reader is still reading, so the first Run does not pay for it.
function preimport(codes) {
  const packages = Object.entries(manifest.packages)
    .filter(([name]) => pyodide.loadedPackages[name] && name !== manifest.runtime_package)
    .flatMap(([, info]) => info.imports || []);
  session.preimport(JSON.stringify(codes), JSON.stringify(packages));
  performance.mark("pathshala:preimported");
}

// Runs whose page the reader left before Python was ready: skipped, not run.
const cancelled = new Set();

async function run({ id, code, session: sessionName, figurePrefix }) {
  await loadPackagesFor([code]);
  if (cancelled.delete(id)) {
    postMessage({ type: "done", id, result: { ok: false, error: "cancelled", traceback: "" }, seconds: 0 });
    return;
  }
  postMessage({ type: "running", id });
  const began = performance.now();
  const result = session.run(code, sessionName ?? null, (item) => postMessage({ type: "item", id, item: JSON.parse(item) }), figurePrefix ?? "fig");
  postMessage({ type: "done", id, result: JSON.parse(result), seconds: (performance.now() - began) / 1000 });
}

const CALLER = `
import importlib, json
def _pathshala_call(module, name, kwargs):
    try:
        value = getattr(importlib.import_module(module), name)(**json.loads(kwargs))
        return json.dumps({"ok": True, "value": value})
    except Exception as exc:
        return json.dumps({"ok": False, "error": type(exc).__name__, "message": str(exc)})
_pathshala_call
`;
let caller = null;

function call({ id, module, function: name, kwargs }) {
  if (cancelled.delete(id)) {
    postMessage({ type: "done", id, result: { ok: false, error: "cancelled", message: "" }, seconds: 0 });
    return;
  }
  caller ??= pyodide.runPython(CALLER);
  const began = performance.now();
  const result = JSON.parse(caller(module, name, kwargs));
  postMessage({ type: "done", id, result, seconds: (performance.now() - began) / 1000 });
}

let interruptBuffer = null;
onmessage = async ({ data }) => {
  if (data.type === "interrupt-buffer") { interruptBuffer = data.buffer; return; }
  if (data.type === "cancel") { cancelled.add(data.id); return; }
  try {
    readyPromise ??= start();
    await readyPromise;
    if (interruptBuffer) { pyodide.setInterruptBuffer(interruptBuffer); interruptBuffer[0] = 0; }
    if (data.type === "run") await run(data);
    else if (data.type === "warm") { await loadPackagesFor(data.codes, data.skip); preimport(data.codes); }
    else if (data.type === "reset") session.reset();
    else if (data.type === "call") call(data);
  } catch (error) {
    postMessage({ type: "fatal", id: data.id, reason: String(error && error.message || error) });
  }
  saveSnapshotWhenIdle();
};
