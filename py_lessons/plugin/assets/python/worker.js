// Web Worker that owns Pyodide, so a long-running cell never freezes the page. Messages: see
// protocol.js. Start-up: start.js (shared with the build-time runner, so a reader's Run and the
// page's build output come from the same code on the same files).
import { EARLY_START, FROM_PYTHON, INPUT_LINE, SIGINT, TO_PYTHON, isMessage } from "./protocol.js";
import { MANIFEST, installFonts, readManifest, startRuntime } from "./start.js";
import { interruptView } from "./interrupt.js";
import { compressed, startPython } from "./snapshot.js";
import { pyodidePath, siteRoot } from "../site.js";

const base = new URL(`${pyodidePath}/`, siteRoot);
// Whether this host compresses what it sends, as its answer for the manifest shows (the build
// ships compressed copies of it): then the wheels and the standard library come as their stored
// twins, which compress whole (ship/stored_twins.py: NumPy 2.3 MB brotli instead of 3.6 MB).
let hostCompresses = false;
const staged = {
  async readText(name) {
    const response = await fetch(new URL(name, base));
    if (name === MANIFEST) hostCompresses = compressed(response);
    return response.text();
  },
  readBytes: async (name) => new Uint8Array(await (await fetch(new URL(name, base))).arrayBuffer()),
};

// The wheels the page's code imports, fetched while Python starts instead of after: Pyodide asks for
// them only once it runs, so a desktop waited for NumPy's download after the restore. They are
// asked for once the snapshot has arrived (the runtime's small wheels at once): on a phone's link
// they would otherwise share the bandwidth with what the restore needs, and it would start later.
// Pyodide's own fetch of such a file gets the early response, checked against the integrity it
// asks for. The import lines are read here by a pattern (Python's find_imports decides what loads;
// a wrong guess costs only the download).
const nativeFetch = globalThis.fetch.bind(globalThis);
// URL -> the promise of a file fetched before Python asked for it, read whole at once (a response
// nobody reads stops downloading when the browser's buffer is full): {status, statusText, headers, body}
const early = new Map();

function fetchEarly(url) {
  if (early.has(url)) return;
  early.set(url, nativeFetch(url).then(async (response) => {
    if (!response.ok) return null;
    const { status, statusText, headers } = response;
    return { status, statusText, headers, body: await response.arrayBuffer() };
  }).catch(() => null));
}

async function sri(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...hash))}`;
}

globalThis.fetch = async (input, init) => {
  const url = typeof input === "string" || input instanceof URL ? new URL(input, base).href : null;
  if (!url || !early.has(url)) return nativeFetch(input, init);
  const got = await early.get(url);
  early.delete(url);
  // a failed early download, or one that is not the file Pyodide's lock names: the browser's own
  // fetch (and its integrity check) decides
  if (!got || (init?.integrity && (await sri(got.body)) !== init.integrity)) return nativeFetch(input, init);
  const { status, statusText, headers, body } = got;
  return new Response(body, { status, statusText, headers });
};

const IMPORT_LINE = /^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))/gm;

/** The packages `codes` import (with what those depend on), but `skip` and the runtime's. */
function importedPackages(codes, skip) {
  const byImport = {};
  for (const [name, info] of Object.entries(manifest.packages)) for (const imp of info.imports || []) byImport[imp] = name;
  const wanted = new Set();
  const visit = (name) => {
    if (!manifest.packages[name] || wanted.has(name) || skip.includes(name) || manifest.runtime_packages.includes(name)) return;
    wanted.add(name);
    for (const dep of manifest.packages[name].depends || []) visit(dep);
  };
  for (const code of codes) {
    for (const [, from, list] of code.matchAll(IMPORT_LINE)) {
      for (const imp of from ? [from] : list.split(",").map((part) => part.trim().split(".")[0])) visit(byImport[imp]);
    }
  }
  return [...wanted];
}

function fetchWheelsEarly(names) {
  // an early file must be checked here before Pyodide takes it: without WebCrypto (an insecure
  // origin such as a classroom's LAN address over plain http) Pyodide fetches its wheels itself
  if (!globalThis.crypto?.subtle) return;
  const twins = hostCompresses && manifest.stored; // as the lock Pyodide was given names them
  for (const name of names) {
    const { file, stored_file: twin } = manifest.packages[name];
    fetchEarly(new URL(twins && twin ? twin : file, base).href);
  }
}

let readyPromise = null;
let pyodide, session, manifest;
// Started from the page's <head> (protocol.js EARLY_START): Python starts at once, before the page's
// first message brings the cells' code (the wheels they import are fetched once it has).
const earlyStart = Object.values(EARLY_START).includes(self.name) ? self.name : null;
let codesArrived;
const firstCodes = new Promise((resolve) => { codesArrived = resolve; }); // {codes, skip} of the first message
let fontsInstalled = false;

// Bytes of finished downloads under base, from Resource Timing: honest progress without
// fetching anything twice. The files themselves are named to the page, which has them kept offline
// (a first visit's service worker is installed after Python's start-up: site/offline.js).
let loadedBytes = 0;
new PerformanceObserver((list) => {
  const urls = [];
  for (const entry of list.getEntries()) {
    if (!entry.name.startsWith(base.href)) continue;
    loadedBytes += entry.encodedBodySize || entry.transferSize || 0;
    urls.push(entry.name);
  }
  if (urls.length) postMessage({ type: FROM_PYTHON.FETCHED, urls });
}).observe({ type: "resource", buffered: true });

function progress(phase, total, names = [], helpers = 0) {
  postMessage({ type: FROM_PYTHON.PROGRESS, phase, loaded: Math.min(loadedBytes, total), total, names, helpers });
}

function withTicker(phase, total, names, helpers, promise) {
  const timer = setInterval(() => progress(phase, total, names, helpers), 200);
  return promise.finally(() => { clearInterval(timer); progress(phase, total, names, helpers); });
}

// A learner's code runs here, and this worker is in the course's origin, so the origin's storage
// would be Python's too: the offline copy of the course (Cache Storage), IndexedDB, the file
// systems. Nothing here needs them, so they go before any cell runs, with the ways to a fresh
// global that would still have them (a nested worker). This is the first wall; the second is the
// service worker, which serves a cached file only if its bytes are the build's (service-worker.js).
const ORIGIN_STORAGE = {
  global: ["caches", "indexedDB", "Worker", "SharedWorker", "webkitRequestFileSystem",
    "webkitRequestFileSystemSync", "webkitResolveLocalFileSystemURL", "webkitResolveLocalFileSystemSyncURL"],
  navigator: ["storage"],
};

function closeOriginStorage() {
  const remove = (object, name) => {
    for (let owner = object; owner; owner = Object.getPrototypeOf(owner)) Reflect.deleteProperty(owner, name);
    if (name in object) throw new Error(`${name} could not be removed from the Python worker`);
  };
  for (const name of ORIGIN_STORAGE.global) remove(self, name);
  for (const name of ORIGIN_STORAGE.navigator) remove(navigator, name);
}

/** `codes`: the page's cells' code, or null in a worker started early (not known yet). */
async function start(codes) {
  // the manifest and Pyodide's loader at the same time: neither needs the other
  const loader = import(new URL("pyodide.mjs", base).href);
  manifest = await readManifest(staged);
  fetchWheelsEarly(manifest.runtime_packages);
  const coreTotal = Object.values(manifest.core_bytes).reduce((a, b) => a + b, 0) + manifest.snapshot_bytes +
    manifest.runtime_packages.reduce((sum, name) => sum + manifest.packages[name].bytes, 0);
  progress("core", coreTotal);
  const { loadPyodide } = await loader;
  // performance marks: where start-up time goes, for DevTools and the benchmark (tests/support/bench.py)
  performance.mark("pathshala:start");
  pyodide = await withTicker("core", coreTotal, [], 0, (async () => {
    const options = { indexURL: base.href, stdout: () => {}, stderr: () => {} };
    if (hostCompresses && manifest.stored) {
      options.lockFileURL = new URL(manifest.stored.lock, base).href;
      options.stdLibURL = new URL(manifest.stored.stdlib, base).href;
    }
    suspends = mustSuspend(codes);
    const snapshot = manifest.snapshot && !suspends ? new URL(manifest.snapshot, base).href : null;
    const py = await startPython(loadPyodide, options, snapshot,
      () => firstCodes.then(({ codes: first, skip }) => fetchWheelsEarly(importedPackages(first, skip))));
    performance.mark("pathshala:pyodide-ready");
    session = await startRuntime(py, manifest);
    closeOriginStorage();
    return py;
  })());
  performance.mark("pathshala:runtime-ready");
}

// matplotlib's Bangla font and the font list made for it: fetched only once matplotlib is loaded.
async function fontsIfNeeded() {
  if (fontsInstalled || !pyodide.loadedPackages.matplotlib) return;
  await installFonts(pyodide, session, manifest, staged);
  fontsInstalled = true;
}

function packagesNeeded(codes, skip = []) {
  const findImports = pyodide.pyimport("pyodide.code").find_imports;
  // the course's own modules (course.py) that the code imports need their packages too
  const withCourse = [...codes, session.content_imports(JSON.stringify(codes))];
  const imports = withCourse.flatMap((code) => findImports(code).toJs()); // [] for code that does not parse
  const byImport = {};
  for (const [name, info] of Object.entries(manifest.packages)) {
    for (const imp of info.imports || []) byImport[imp] = name;
  }
  const wanted = new Set();
  const named = new Set(); // what the code imports itself; the rest are what those need
  const visit = (name) => {
    if (!name || wanted.has(name) || pyodide.loadedPackages[name]) return;
    wanted.add(name);
    for (const dep of manifest.packages[name]?.depends || []) visit(dep);
  };
  for (const imp of imports) {
    if (skip.includes(byImport[imp])) continue;
    visit(byImport[imp]);
    if (wanted.has(byImport[imp])) named.add(byImport[imp]);
  }
  return { all: [...wanted], named: [...named] };
}

async function loadPackagesFor(codes, skip = []) {
  const { all: names, named } = packagesNeeded(codes, skip);
  if (names.length) {
    const total = names.reduce((sum, n) => sum + (manifest.packages[n]?.bytes || 0), 0);
    loadedBytes = 0;
    // one line for the reader: the biggest package their code names, and how many others come
    const bytes = (name) => manifest.packages[name]?.bytes || 0;
    const shown = [(named.length ? named : names).reduce((a, b) => (bytes(b) > bytes(a) ? b : a))];
    await withTicker("packages", total, shown, names.length - shown.length,
                     pyodide.loadPackage(names, { messageCallback: () => {} }));
    performance.mark("pathshala:packages-loaded", { detail: names });
  }
  await fontsIfNeeded();
}

// Import what the cells import from the loaded packages (NumPy: most of a second) while the
// reader is still reading, so the first Run does not pay for it.
function preimport(codes) {
  const packages = Object.entries(manifest.packages)
    .filter(([name]) => pyodide.loadedPackages[name] && !manifest.runtime_packages.includes(name))
    .flatMap(([, info]) => info.imports || []);
  session.preimport(JSON.stringify(codes), JSON.stringify(packages));
  performance.mark("pathshala:preimported");
}

// Runs whose page the reader left before Python was ready: skipped, not run.
const cancelled = new Set();

function skipIfCancelled(id) {
  if (!cancelled.delete(id)) return false;
  postMessage({ type: FROM_PYTHON.DONE, id, result: { ok: false, error: "cancelled", message: "", traceback: "" }, seconds: 0 });
  return true;
}

// input() is an ordinary synchronous call for Python. Where the page is cross-origin isolated, it
// blocks on shared memory until the page writes the reader's line (Atomics). Elsewhere (a plain-http
// classroom address, a first visit before the service worker isolates the page), a browser with
// WebAssembly JSPI lets Python suspend on a promise instead, which the page's LINE message resolves:
// the run is entered with callPromising, and this worker's event loop stays free while it waits.
// With neither, the runtime explains why input() cannot wait.
let sharedMemory = null;            // {interrupt: Int32Array, input: SharedArrayBuffer}
let keyboardUnavailable = "impossible";
let keyboardReady = false;
let jobInFlight = null;
let jobStopped = false;   // Stop ended an input() of this job: any later input() ends at once
let waitedMs = 0;         // the job's time spent waiting for the reader (not Python's time)
let pendingLine = null;   // the suspended input()'s {id, answer(line)}
let suspends = false;     // this Python's input() suspends it (decided at start)
const canSuspend = "Suspending" in WebAssembly || "Suspender" in WebAssembly; // Pyodide's own test

// The build's snapshot was taken where WebAssembly cannot suspend (Node), and Pyodide fixes
// run_sync off for good at start-up, so a Python whose input() must suspend starts the normal way
// (2.5 s more here): where the page is not isolated and its code calls input() (or the build
// shipped no snapshot). Elsewhere the
// snapshot's fast start wins, and an input() typed into a cell later says that Restart makes it
// wait (a fresh worker starts from the page's code as it is then).
// A worker started early decides before the page's messages: the page is isolated when this worker
// is, and the build said whether a cell of the page calls input() (ship/writer.py: the same pattern).
const usesInput = (code) => /\binput\s*\(/.test(code);
const isolated = () => sharedMemory !== null || (earlyStart !== null && self.crossOriginIsolated);
const readsInput = (codes) => (codes ? codes.some(usesInput) : earlyStart === EARLY_START.READS_INPUT);
const mustSuspend = (codes) => !isolated() && canSuspend && (!manifest.snapshot || readsInput(codes));

function stoppedWaiting(began) {
  jobStopped = true;
  waitedMs += performance.now() - began;
  return null;
}

function readLine(prompt) {
  if (jobStopped) return null; // e.g. a bare `except:` around input() asked again after Stop
  const header = new Int32Array(sharedMemory.input, 0, 2);
  Atomics.store(header, INPUT_LINE.STATE, INPUT_LINE.EMPTY);
  postMessage({ type: FROM_PYTHON.INPUT, id: jobInFlight, prompt });
  const began = performance.now();
  // Stop writes SIGINT and wakes this wait (python-worker.js); the timeout is only a safety net
  while (Atomics.load(header, INPUT_LINE.STATE) !== INPUT_LINE.SENT) {
    // input() ends the run itself, so Python must not raise a second interrupt: the signal is taken
    if (Atomics.compareExchange(sharedMemory.interrupt, 0, SIGINT, 0) === SIGINT) return stoppedWaiting(began);
    Atomics.wait(header, INPUT_LINE.STATE, INPUT_LINE.EMPTY, 250);
  }
  waitedMs += performance.now() - began;
  const length = Atomics.load(header, INPUT_LINE.LENGTH);
  const bytes = new Uint8Array(sharedMemory.input, INPUT_LINE.HEADER_BYTES, length).slice(); // TextDecoder refuses shared memory
  Atomics.store(header, INPUT_LINE.STATE, INPUT_LINE.EMPTY);
  return new TextDecoder().decode(bytes);
}

function readLineSuspended(prompt) {
  if (jobStopped) return null;
  postMessage({ type: FROM_PYTHON.INPUT, id: jobInFlight, prompt });
  const began = performance.now();
  return new Promise((resolve) => {
    pendingLine = {
      id: jobInFlight,
      answer(line) {
        pendingLine = null;
        if (typeof line !== "string") { resolve(stoppedWaiting(began)); return; }
        waitedMs += performance.now() - began;
        resolve(line);
      },
    };
  });
}

// Python's run is entered so that input() can suspend it, where that is how input() waits.
const enter = (fn, ...args) => (suspends ? fn.callPromising(...args) : fn(...args));

function connectKeyboard() {
  if (keyboardReady) return;
  if (sharedMemory) session.set_line_reader(readLine);
  else if (suspends) session.set_line_reader.callKwargs(readLineSuspended, { suspends: true });
  else session.set_line_reader(null, canSuspend ? "restart" : keyboardUnavailable);
  keyboardReady = true;
}

/** A run or an exercise check: Python streams the reader's output items as they come. */
async function runJob({ id, code, checks }, call) {
  await loadPackagesFor(checks ? [code, checks] : [code]); // hidden checks may import what the code does not
  if (skipIfCancelled(id)) return;
  jobInFlight = id;
  jobStopped = false;
  waitedMs = 0;
  postMessage({ type: FROM_PYTHON.RUNNING, id });
  const began = performance.now();
  const emit = (item) => postMessage({ type: FROM_PYTHON.ITEM, id, item: JSON.parse(item) });
  const result = JSON.parse(await call(emit));
  postMessage({ type: FROM_PYTHON.DONE, id, result, seconds: (performance.now() - began - waitedMs) / 1000 });
}

const run = (data) => runJob(data, (emit) =>
  enter(session.run, data.code, data.session ?? null, emit, data.figurePrefix ?? "fig", JSON.stringify(data.stdin ?? []),
        JSON.stringify(data.trace ?? null)));
const check = (data) => runJob(data, (emit) => enter(session.check, data.code, data.checks, emit, data.figurePrefix ?? "exercise",
                                                     JSON.stringify(data.trace ?? null)));

/** A call of a py_lessons function (session.call: the build's runner calls the same one); the
 * packages its `imports` lines name (matplotlib for an explorable, with its fonts) load first. */
async function call({ id, module, function: name, kwargs, imports }) {
  if (imports) await loadPackagesFor([imports]);
  if (skipIfCancelled(id)) return;
  postMessage({ type: FROM_PYTHON.RUNNING, id });
  const began = performance.now();
  const result = JSON.parse(session.call(module, name, kwargs));
  postMessage({ type: FROM_PYTHON.DONE, id, result, seconds: (performance.now() - began) / 1000 });
}

onmessage = async ({ data }) => {
  if (!isMessage(TO_PYTHON, data?.type)) {
    postMessage({ type: FROM_PYTHON.REFUSED, id: data?.id, reason: `unknown message type ${JSON.stringify(data?.type)}` });
    return;
  }
  if (data.type === TO_PYTHON.SHARED_MEMORY) { sharedMemory = data; return; }
  if (data.type === TO_PYTHON.KEYBOARD) { keyboardUnavailable = data.unavailable; return; }
  if (data.type === TO_PYTHON.CANCEL) { cancelled.add(data.id); return; }
  if (data.type === TO_PYTHON.LINE) { if (pendingLine?.id === data.id) pendingLine.answer(data.line); return; }
  // one job at a time, in order: a run the page stopped before it began is skipped only after the
  // loading it waited for, and the next one starts after that
  turn = turn.then(() => handle(data));
};

let turn = Promise.resolve();

async function handle(data) {
  try {
    const codes = data.codes ?? [data.code, data.checks].filter(Boolean);
    codesArrived({ codes, skip: data.skip ?? [] }); // the first message's (later calls change nothing)
    readyPromise ??= start(codes);
    await readyPromise;
    connectKeyboard();
    if (sharedMemory) { pyodide.setInterruptBuffer(interruptView(sharedMemory.interrupt)); Atomics.store(sharedMemory.interrupt, 0, 0); }
    if (data.type === TO_PYTHON.RUN) await run(data);
    else if (data.type === TO_PYTHON.CHECK) await check(data);
    else if (data.type === TO_PYTHON.WARM) {
      await loadPackagesFor(data.codes, data.skip);
      preimport(data.codes);
      postMessage({ type: FROM_PYTHON.WARMED, id: data.id });
    }
    else if (data.type === TO_PYTHON.CALL) await call(data);
  } catch (error) {
    postMessage({ type: FROM_PYTHON.FATAL, id: data.id, reason: String(error && error.message || error) });
  }
}

if (earlyStart) {
  readyPromise = start(null);
  readyPromise.catch(() => {}); // the page's first message hears of a failed start (handle)
}
