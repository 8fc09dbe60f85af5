// The one definition of the messages between the page and its Python worker (worker.js), which
// the build-time runner (node/run_cells.mjs, driven by py_lessons/plugin/runner.py over JSON
// lines) speaks too: what a reader's Run gets, the build got the same way.

/** Message types, page → worker (and build → runner). */
export const TO_PYTHON = Object.freeze({
  RUN: "run",                 // run a cell's code
  CHECK: "check",             // run a reader's exercise code, then its hidden checks
  CALL: "call",               // call a py_lessons function with JSON keyword arguments
  WARM: "warm",               // load what the given code imports, before any Run
  RESET: "reset",             // forget every named session's variables
  CANCEL: "cancel",           // skip a queued run/call whose page was left
  INTERRUPT_BUFFER: "interrupt-buffer", // the SharedArrayBuffer that Stop writes SIGINT into
});

/** Message types, worker → page (and runner → build). */
export const FROM_PYTHON = Object.freeze({
  READY: "ready",             // the build runner started (Node only)
  PROGRESS: "progress",       // download progress while Pyodide or packages load
  RUNNING: "running",         // the job left the queue and Python is running it
  ITEM: "item",               // one output item of the running job
  DONE: "done",               // the job finished: its result
  FATAL: "fatal",             // Pyodide failed; the worker must be replaced
});

/**
 * @typedef {{type: "stdout" | "stderr", text: string} | {type: "figure", svg: string}} OutputItem
 * @typedef {{ok: true, exit_code?: number, truncated?: boolean}
 *   | {ok: false, error: string, message: string, traceback: string, explain?: string, truncated?: boolean}} RunResult
 *   What py_lessons.runtime.execute.run_cell returns.
 * @typedef {{stage: "code" | "checks", result: RunResult}} CheckOutcome
 *   What py_lessons.runtime.checking.check_exercise returns.
 * @typedef {{ok: true, value: any} | {ok: false, error: string, message: string}} CallResult
 *
 * @typedef {{type: "run", id: number, code: string, session: string | null, figurePrefix: string}} RunRequest
 * @typedef {{type: "check", id: number, code: string, checks: string, figurePrefix: string}} CheckRequest
 * @typedef {{type: "call", id: number, module: string, function: string, kwargs: string}} CallRequest
 *   kwargs: a JSON object as text.
 * @typedef {{type: "warm", codes: string[], skip: string[]}} WarmRequest
 * @typedef {{type: "reset", id?: number}} ResetRequest
 * @typedef {{type: "cancel", id: number}} CancelRequest
 * @typedef {{type: "interrupt-buffer", buffer: Int32Array}} InterruptBufferRequest
 *
 * @typedef {{type: "ready", id: 0, version: string}} ReadyMessage
 * @typedef {{type: "progress", phase: "core" | "packages", loaded: number, total: number, names: string[]}} ProgressMessage
 * @typedef {{type: "running", id: number}} RunningMessage
 * @typedef {{type: "item", id: number, item: OutputItem}} ItemMessage
 * @typedef {{type: "done", id: number, result: RunResult | CheckOutcome | CallResult | {ok: true}, seconds: number,
 *   items?: OutputItem[]}} DoneMessage
 *   The build runner sends a job's items inside its "done" message instead of one by one.
 * @typedef {{type: "fatal", id?: number, reason: string}} FatalMessage
 */
