// One Pyodide Web Worker shared by every cell of the page, with a queue: one run at a time,
// each output routed to the cell that asked. Stop uses Pyodide's interrupt buffer when the page
// is cross-origin isolated (state survives); otherwise, or if Python does not take the interrupt
// within STOP_GRACE_MS (or, having taken it, end the run within STOP_FINISH_MS), the worker is terminated and a fresh one started. input() waits for the reader on
// shared memory where the page is isolated (the service worker makes the site's pages so), else,
// where the browser can suspend WebAssembly (JSPI), on a LINE message (worker.js).
// Messages: see protocol.js.
import { FROM_PYTHON, INPUT_LINE, SIGINT, TO_PYTHON, isMessage } from "./protocol.js";
import { offline } from "../site.js";

// How long Python may take to take the interrupt after Stop before its worker is replaced (and every
// variable lost). CPython reads the buffer back to 0 when it takes the signal, so the page sees it
// taken; code stuck in C (no bytecode runs, so no interrupt) pays these seconds.
const STOP_GRACE_MS = 3000;
// Once taken, Python is alive and ending the run (except-handlers, finally blocks, the message across a
// busy page: on a loaded 2-core machine that outlasted a single fixed grace): it gets this long more.
const STOP_FINISH_MS = 10000;
const STOP_POLL_MS = 100;

/** Fired on document with the site files Python's worker fetched (URLs) as its detail, so that
 * the page can have them kept offline (cells/index.js hands them to site/offline.js). */
export const PYTHON_FETCHED = "pathshala:python-fetched";

/** The worker a page with cells started from its <head> (ship/writer.py early_python), with the
 * events it sent before anyone listened; taken once (a replaced worker is a new one). */
function takeEarlyWorker() {
  const early = globalThis.pathshalaEarlyPython;
  if (!early || early.taken) return null;
  early.taken = true;
  return early;
}

export class PythonWorker {
  constructor({ onProgress } = {}) {
    this.onProgress = onProgress;
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.worker = null;
    this.warming = new Map(); // a warm's id -> who waits for it: {progress(progress), done()}
    this.deferredWarms = [];  // warms asked for while a run was in flight
    this.skipped = new Set(); // runs stopped before the worker started them: their DONE is not awaited
  }

  spawn() {
    const early = takeEarlyWorker();
    const worker = early?.worker ?? new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker = worker;
    this.warming.clear(); // a replaced worker's loading ends with it
    this.skipped.clear();
    clearTimeout(this.skippedTimer);
    // A replaced worker's last messages are not about anything the page still waits for.
    worker.onmessage = ({ data }) => { if (worker === this.worker) this.receive(data); };
    worker.onerror = (event) => {
      if (worker === this.worker) this.receive({ type: FROM_PYTHON.FATAL, reason: event.message || "worker error" });
    };
    this.interrupt = null;
    this.inputLine = null;
    if (globalThis.crossOriginIsolated) {
      this.interrupt = new Int32Array(new SharedArrayBuffer(4));
      this.inputLine = new SharedArrayBuffer(INPUT_LINE.BYTES);
      this.worker.postMessage({ type: TO_PYTHON.SHARED_MEMORY, interrupt: this.interrupt, input: this.inputLine });
    } else {
      // Isolation comes with the service worker, from the next load on; it needs a secure context.
      const later = offline && globalThis.isSecureContext && "serviceWorker" in navigator;
      this.worker.postMessage({ type: TO_PYTHON.KEYBOARD, unavailable: later ? "reload" : "impossible" });
    }
    // what the early worker said before the page took it on (its fetched files among it)
    for (const event of early?.queued ?? []) (event.type === "error" ? worker.onerror : worker.onmessage)(event);
  }

  /** Answer the running job's input(): `line` as typed (through shared memory, cut to its size;
   * or, where the page is not isolated, as a message to the suspended Python). */
  sendInput(id, line) {
    if (this.current?.id !== id || !this.current.waitingForInput) return false;
    this.current.waitingForInput = false;
    if (!this.inputLine) {
      this.worker.postMessage({ type: TO_PYTHON.LINE, id, line });
      return true;
    }
    const header = new Int32Array(this.inputLine, 0, 2);
    // whole characters only: a line longer than the buffer is cut between characters, not inside one
    const room = new Uint8Array(INPUT_LINE.BYTES - INPUT_LINE.HEADER_BYTES);
    const { written } = new TextEncoder().encodeInto(line, room);
    new Uint8Array(this.inputLine, INPUT_LINE.HEADER_BYTES).set(room.subarray(0, written));
    Atomics.store(header, INPUT_LINE.LENGTH, written);
    Atomics.store(header, INPUT_LINE.STATE, INPUT_LINE.SENT);
    Atomics.notify(header, INPUT_LINE.STATE);
    return true;
  }

  /** Start loading Pyodide and the packages the `codes` import (except `skip`) before any Run;
   * `watcher` ({progress(progress), done()}) hears the loading while no job runs, and its end. */
  warm(codes = [], skip = [], watcher = null) {
    if (!this.worker) this.spawn();
    const id = this.nextId++;
    if (watcher) this.warming.set(id, watcher);
    const message = { type: TO_PYTHON.WARM, id, codes, skip };
    // Never while a run is in flight: the warm's imports would run inside it (a suspended input())
    // and take the Stop meant for it. It goes once the queue is empty.
    if (this.current) this.deferredWarms.push(message);
    else this.worker.postMessage(message);
  }

  /** Queue a job (a RunRequest by default; `request.type` may name another, see protocol.js);
   * handlers: onStart(), onRunning() (Python has begun it), onItem(item), onInput(prompt),
   * onDone(result, seconds), onFatal(reason), onStopping() (Stop asked Python to end it),
   * onStopped(how). */
  run(request, handlers) {
    const job = { id: this.nextId++, request, handlers };
    this.queue.push(job);
    this.pump();
    return job.id;
  }

  pump() {
    if (this.current) return;
    if (!this.queue.length) {
      for (const message of this.deferredWarms.splice(0)) this.worker?.postMessage(message);
      return;
    }
    if (!this.worker) this.spawn();
    this.current = this.queue.shift();
    this.current.handlers.onStart?.();
    this.worker.postMessage({ type: TO_PYTHON.RUN, id: this.current.id, ...this.current.request });
  }

  isQueued(id) {
    return this.queue.some((job) => job.id === id);
  }

  receive(data) {
    if (!isMessage(FROM_PYTHON, data?.type)) { // not the protocol: the worker cannot be trusted
      console.error(`py_lessons: the Python worker sent an unknown message type ${JSON.stringify(data?.type)}`);
      data = { type: FROM_PYTHON.FATAL, reason: "unknown message from the Python worker" };
    }
    if (data.type === FROM_PYTHON.PROGRESS) {
      this.onProgress?.(data, this.current);
      if (!this.current) for (const watcher of this.warming.values()) watcher.progress?.(data);
      return;
    }
    if (data.type === FROM_PYTHON.FETCHED) { // only site files are kept, and only as built (service-worker.js)
      const urls = Array.isArray(data.urls) ? data.urls.filter((url) => typeof url === "string") : [];
      document.dispatchEvent(new CustomEvent(PYTHON_FETCHED, { detail: urls }));
      return;
    }
    if (data.type === FROM_PYTHON.WARMED) {
      this.warming.get(data.id)?.done?.();
      this.warming.delete(data.id);
      return;
    }
    if (this.skipped.has(data.id)) { this.skippedRunSaid(data); return; }
    const job = this.current;
    if (!job) return;
    // Only the run in flight is listened to: a message about any other (a stopped run's late
    // output, a forged id) is ignored. A fatal error is about the worker itself.
    if (data.id !== job.id && data.type !== FROM_PYTHON.FATAL) return;
    if (data.type === FROM_PYTHON.RUNNING) {
      job.running = true;
      job.handlers.onRunning?.();
    } else if (data.type === FROM_PYTHON.ITEM) job.handlers.onItem?.(data.item);
    else if (data.type === FROM_PYTHON.INPUT) { job.waitingForInput = true; job.handlers.onInput?.(data.prompt); }
    else if (data.type === FROM_PYTHON.DONE) this.finish(() => job.handlers.onDone?.(data.result, data.seconds));
    else if (data.type === FROM_PYTHON.REFUSED) this.finish(() => job.handlers.onFatal?.(data.reason));
    else if (data.type === FROM_PYTHON.FATAL) {
      // Pyodide cannot be trusted after a fatal error (e.g. memory exhausted): start afresh next run.
      this.worker.terminate();
      this.worker = null;
      this.finish(() => job.handlers.onFatal?.(data.reason));
    }
  }

  finish(callback) {
    clearTimeout(this.killTimer);
    this.current = null;
    callback();
    this.pump();
  }

  /** Stop run `id` (queued or running). Resolves to "dequeued", "interrupted" or "restarted";
   * while Python is asked to end it, the job's onStopping() is told. */
  stop(id) {
    const queued = this.queue.findIndex((job) => job.id === id);
    if (queued >= 0) {
      const [job] = this.queue.splice(queued, 1);
      job.handlers.onStopped?.("dequeued");
      return Promise.resolve("dequeued");
    }
    const job = this.current;
    if (!job || job.id !== id) return Promise.resolve("dequeued");
    if (!job.running) return this.cancel(job);
    return new Promise((resolve) => {
      const restart = () => {
        this.worker.terminate();
        this.worker = null;
        this.finish(() => { job.handlers.onStopped?.("restarted"); resolve("restarted"); });
      };
      // Python can end the run itself (state kept) when it has an interrupt buffer, or when it
      // waits in a suspended input(), which a null line ends; else only a fresh worker stops it.
      const suspendedInput = !this.interrupt && job.waitingForInput;
      if (this.interrupt || suspendedInput) {
        const original = job.handlers.onDone;
        job.handlers.onDone = (result, seconds) => {
          job.handlers.onDone = original;
          const ran = result?.stage ? result.result : result; // a check's outcome wraps its run
          if (ran && ran.error === "KeyboardInterrupt") { job.handlers.onStopped?.("interrupted", ran); resolve("interrupted"); }
          else { original?.(result, seconds); resolve("interrupted"); }
        };
        job.waitingForInput = false;
        job.handlers.onStopping?.();
        if (suspendedInput) {
          this.worker.postMessage({ type: TO_PYTHON.LINE, id, line: null });
        } else {
          Atomics.store(this.interrupt, 0, SIGINT); // Python raises KeyboardInterrupt at the next bytecode
          Atomics.notify(new Int32Array(this.inputLine, 0, 1), INPUT_LINE.STATE); // an input() wait ends now
        }
        this.untilStopped(restart, suspendedInput ? () => false : () => Atomics.load(this.interrupt, 0) === 0);
      } else {
        restart();
      }
    });
  }

  /** Restart unless the run ends (finish() clears the timer) within STOP_GRACE_MS of Stop, or, once
   * `taken()` says Python has taken the interrupt, within STOP_FINISH_MS of that. */
  untilStopped(restart, taken) {
    const asked = performance.now();
    let takenAt = null;
    const check = () => {
      const now = performance.now();
      if (takenAt === null && taken()) takenAt = now;
      const overdue = takenAt === null ? now - asked > STOP_GRACE_MS : now - takenAt > STOP_FINISH_MS;
      if (overdue) {
        // for whoever reads the console (a test on a loaded machine): which wait ran out
        console.warn(`py_lessons: Stop: Python ${takenAt === null ? "did not take the interrupt" : "took the interrupt " +
          `after ${Math.round(takenAt - asked)} ms but did not end the run`} within ${Math.round(now - asked)} ms of Stop; a fresh Python starts`);
        restart();
      }
      else this.killTimer = setTimeout(check, STOP_POLL_MS);
    };
    this.killTimer = setTimeout(check, STOP_POLL_MS);
  }

  /** Stop a run the worker has not started (it waits for Python or its packages to load): the
   * worker skips it when its turn comes, and the loading goes on for the next run. (An interrupt
   * would land in whatever Python does meanwhile, and a restart would throw the loading away.) */
  cancel(job) {
    this.worker.postMessage({ type: TO_PYTHON.CANCEL, id: job.id });
    this.skipped.add(job.id);
    return new Promise((resolve) => this.finish(() => { job.handlers.onStopped?.("dequeued"); resolve("dequeued"); }));
  }

  /** A run stopped before it began had begun all the same (its CANCEL came after the worker sent
   * RUNNING): Python ends it as Stop would, or a fresh worker replaces this one; the run waiting
   * behind it (the worker takes one at a time) goes on either way. */
  skippedRunSaid(data) {
    if (data.type === FROM_PYTHON.RUNNING) {
      if (!this.interrupt) { this.replaceWorker(); return; }
      Atomics.store(this.interrupt, 0, SIGINT);
      Atomics.notify(new Int32Array(this.inputLine, 0, 1), INPUT_LINE.STATE);
      this.skippedTimer = setTimeout(() => this.replaceWorker(), STOP_GRACE_MS);
    } else if (data.type === FROM_PYTHON.INPUT) {
      this.worker.postMessage({ type: TO_PYTHON.LINE, id: data.id, line: null }); // a suspended input() ends
    } else if (data.type === FROM_PYTHON.DONE || data.type === FROM_PYTHON.FATAL) {
      this.skipped.delete(data.id);
      clearTimeout(this.skippedTimer);
    }
  }

  /** A fresh worker; the run that waited for the old one to be free is sent to the new one. */
  replaceWorker() {
    this.worker.terminate();
    this.worker = null;
    const job = this.current;
    this.current = null;
    if (job) this.queue.unshift(job);
    this.pump();
  }

  /** The reader left the page (instant navigation keeps this worker): forget the runs whose
   * `handlers.owner` element is no longer in the document. A queued one is dropped; a running
   * one is stopped; one still waiting for Python to load is cancelled before it starts, so the
   * download goes on for the new page. */
  dropOrphans() {
    const orphan = (job) => job.handlers.owner && !job.handlers.owner.isConnected;
    for (const job of this.queue.filter(orphan)) {
      this.queue.splice(this.queue.indexOf(job), 1);
      job.handlers.onStopped?.("dequeued");
    }
    const job = this.current;
    if (!job || !orphan(job) || job.orphaned) return;
    job.orphaned = true;
    this.stop(job.id); // one not yet begun is cancelled (cancel): the download goes on
  }

  /** Call a py_lessons function in Pyodide with JSON kwargs (queued like a run); resolves to
   * {ok: true, value} or {ok: false, error, message}. `handlers` may carry `cell` for progress. */
  call(module, fn, kwargs, handlers = {}) {
    return new Promise((resolve) => {
      this.run({ type: TO_PYTHON.CALL, module, function: fn, kwargs: JSON.stringify(kwargs) }, {
        ...handlers,
        onDone: (result) => resolve(result),
        onFatal: (reason) => resolve({ ok: false, error: "fatal", message: reason }),
        onStopped: () => resolve({ ok: false, error: "stopped", message: "" }),
      });
    });
  }

  /** Restart Python for real: queued runs are dropped, the running one ends ("restarted"), and a
   * fresh worker starts (warmed for `codes`, as at page load), without any variable, import or
   * setting of the old one. */
  restart(codes = [], skip = []) {
    for (const job of this.queue.splice(0)) job.handlers.onStopped?.("dequeued");
    const job = this.current;
    this.worker?.terminate();
    this.worker = null;
    if (job) this.finish(() => job.handlers.onStopped?.("restarted"));
    this.warm(codes, skip);
  }
}

// One worker per page, shared by the cells and the components; the first caller's options win.
let shared = null;
export function sharedPythonWorker(options) {
  shared ??= new PythonWorker(options);
  return shared;
}
