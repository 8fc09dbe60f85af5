// One Pyodide Web Worker shared by every cell of the page, with a queue: one run at a time,
// each output routed to the cell that asked. Stop uses Pyodide's interrupt buffer when the page
// is cross-origin isolated (state survives); otherwise, or if Python does not answer within
// a second, the worker is terminated and a fresh one started. Messages: see protocol.js.
import { FROM_PYTHON, TO_PYTHON } from "./protocol.js";

const INTERRUPT_GRACE_MS = 1000;

export class PythonWorker {
  constructor({ onProgress } = {}) {
    this.onProgress = onProgress;
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.worker = null;
  }

  spawn() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.receive({ type: FROM_PYTHON.FATAL, reason: event.message || "worker error" });
    this.interrupt = null;
    if (globalThis.crossOriginIsolated) {
      this.interrupt = new Int32Array(new SharedArrayBuffer(4));
      this.worker.postMessage({ type: TO_PYTHON.INTERRUPT_BUFFER, buffer: this.interrupt });
    }
  }

  /** Start loading Pyodide and the packages the `codes` import (except `skip`) before any Run. */
  warm(codes = [], skip = []) {
    if (!this.worker) this.spawn();
    this.worker.postMessage({ type: TO_PYTHON.WARM, codes, skip });
  }

  /** Queue a job (a RunRequest by default; `request.type` may name another, see protocol.js);
   * handlers: onStart(), onItem(item), onDone(result, seconds), onFatal(reason), onStopped(how). */
  run(request, handlers) {
    const job = { id: this.nextId++, request, handlers };
    this.queue.push(job);
    this.pump();
    return job.id;
  }

  pump() {
    if (this.current || !this.queue.length) return;
    if (!this.worker) this.spawn();
    this.current = this.queue.shift();
    this.current.handlers.onStart?.();
    this.worker.postMessage({ type: TO_PYTHON.RUN, id: this.current.id, ...this.current.request });
  }

  isQueued(id) {
    return this.queue.some((job) => job.id === id);
  }

  receive(data) {
    if (data.type === FROM_PYTHON.PROGRESS) { this.onProgress?.(data, this.current); return; }
    const job = this.current;
    if (!job || (data.id !== undefined && data.id !== job.id)) return;
    if (data.type === FROM_PYTHON.RUNNING) {
      job.running = true;
      if (job.orphaned) this.stop(job.id); // its page was left while Python was still loading
    } else if (data.type === FROM_PYTHON.ITEM) job.handlers.onItem?.(data.item);
    else if (data.type === FROM_PYTHON.DONE) this.finish(() => job.handlers.onDone?.(data.result, data.seconds));
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

  /** Stop run `id` (queued or running). Resolves to "dequeued", "interrupted" or "restarted". */
  stop(id) {
    const queued = this.queue.findIndex((job) => job.id === id);
    if (queued >= 0) {
      const [job] = this.queue.splice(queued, 1);
      job.handlers.onStopped?.("dequeued");
      return Promise.resolve("dequeued");
    }
    const job = this.current;
    if (!job || job.id !== id) return Promise.resolve("dequeued");
    return new Promise((resolve) => {
      const restart = () => {
        this.worker.terminate();
        this.worker = null;
        this.finish(() => { job.handlers.onStopped?.("restarted"); resolve("restarted"); });
      };
      if (this.interrupt) {
        const original = job.handlers.onDone;
        job.handlers.onDone = (result, seconds) => {
          job.handlers.onDone = original;
          const ran = result?.stage ? result.result : result; // a check's outcome wraps its run
          if (ran && ran.error === "KeyboardInterrupt") { job.handlers.onStopped?.("interrupted", ran); resolve("interrupted"); }
          else { original?.(result, seconds); resolve("interrupted"); }
        };
        this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at the next bytecode
        this.killTimer = setTimeout(restart, INTERRUPT_GRACE_MS);
      } else {
        restart();
      }
    });
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
    if (job.running) this.stop(job.id);
    else this.worker.postMessage({ type: TO_PYTHON.CANCEL, id: job.id });
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

  /** Forget every named session's variables (the reader asked to start afresh). */
  resetSessions() {
    if (this.worker) this.worker.postMessage({ type: TO_PYTHON.RESET });
  }
}

// One worker per page, shared by the cells and the components; the first caller's options win.
let shared = null;
export function sharedPythonWorker(options) {
  shared ??= new PythonWorker(options);
  return shared;
}
