// The one definition of the messages between the page and its Python worker (worker.js), which
// the build-time runner (py_lessons/plugin/execute/node/run_cells.mjs, driven by execute/runner.py
// over JSON lines) speaks too: what a reader's Run gets, the build got the same way. A message of a
// type not listed here is an error on either side: the worker and the runner answer it with
// REFUSED, and the page treats a worker that sends one as broken.

/** Message types, page → worker (and build → runner). */
export const TO_PYTHON = Object.freeze({
  RUN: "run",                 // run a cell's code
  CHECK: "check",             // run a reader's exercise code, then its hidden checks
  CALL: "call",               // call a py_lessons function with JSON keyword arguments
  WARM: "warm",               // load what the given code imports, before any Run
  RESET: "reset",             // forget every named session's variables
  CANCEL: "cancel",           // skip a queued run/call whose page was left
  SHARED_MEMORY: "shared-memory", // cross-origin isolated pages only: Stop's interrupt buffer and the input() line
  KEYBOARD: "keyboard",       // whether input() can wait for the reader here, and if not, why
  LINE: "line",               // not isolated: the reader's line for a suspended input(), or null for Stop
});

/** Message types, worker → page (and runner → build). */
export const FROM_PYTHON = Object.freeze({
  READY: "ready",             // the build runner started (Node only)
  PROGRESS: "progress",       // download progress while Pyodide or packages load
  RUNNING: "running",         // the job left the queue and Python is running it
  ITEM: "item",               // one output item of the running job
  DONE: "done",               // the job finished: its result
  FATAL: "fatal",             // Pyodide failed; the worker must be replaced
  INPUT: "input",             // the running job called input(prompt): the page asks the reader
  REFUSED: "refused",         // the request was not a message of TO_PYTHON (a bug): nothing ran
  WARMED: "warmed",           // what a WARM (its id) asked for is loaded and imported
  FETCHED: "fetched",         // files of the site the worker has fetched ({urls}): the page has them kept offline
});

/** The names of a worker that a page's <head> started (ship/writer.py early_python, the same
 * strings): it starts Python at once, before any message, the way input() needs where a cell of
 * the page calls it (READS_INPUT). A worker started by python-worker.js has no name. */
export const EARLY_START = Object.freeze({ START: "python-early", READS_INPUT: "python-early reads-input" });

/** Whether `type` is one of `messages` (TO_PYTHON or FROM_PYTHON). */
export const isMessage = (messages, type) => Object.values(messages).includes(type);

/** What Stop writes into the interrupt buffer: SIGINT, so Python raises KeyboardInterrupt. */
export const SIGINT = 2;

/** The input() line in shared memory (SharedMemoryRequest.input): an Int32 header, then UTF-8. */
export const INPUT_LINE = Object.freeze({
  STATE: 0,                   // header index: EMPTY while Python waits, then SENT
  LENGTH: 1,                  // header index: bytes of the line
  HEADER_BYTES: 8,
  BYTES: 64 * 1024,           // the whole buffer; a longer line is cut
  EMPTY: 0,
  SENT: 1,
});

/**
 * @typedef {{type: "stdout" | "stderr", text: string} | {type: "figure", svg: string}} OutputItem
 * @typedef {{ok: true, exit_code?: number, truncated?: boolean}
 *   | {ok: false, error: string, message: string, traceback: string, line?: number, explain?: string,
 *      truncated?: boolean}} RunResult
 *   What py_lessons.runtime.execute.run_cell returns (line: the failing line of the cell's code),
 *   with `trace: {steps, limited, max_steps, max_bytes}` for a traced run (limited: the steps
 *   stopped at the bound and the run went on untraced).
 * @typedef {{stage: "code" | "checks", result: RunResult}} CheckOutcome
 *   What py_lessons.runtime.checking.check_exercise returns.
 * @typedef {{ok: true, value: any} | {ok: false, error: string, message: string}} CallResult
 *
 * @typedef {{type: "run", id: number, code: string, session: string | null, figurePrefix: string,
 *   stdin?: string[], trace?: {maxSteps?: number, maxBytes?: number}}} RunRequest
 *   stdin: lines input() reads before asking the reader (the build's `stdin` cell option);
 *   trace: step through the run (py_lessons.runtime.trace): its result carries `trace`.
 * @typedef {{type: "check", id: number, code: string, checks: string, figurePrefix: string,
 *   trace?: {maxSteps?: number, maxBytes?: number}}} CheckRequest
 *   trace: step through the reader's code, through the checks' calls of it too.
 * @typedef {{type: "call", id: number, module: string, function: string, kwargs: string, imports?: string}} CallRequest
 *   kwargs: a JSON object as text; imports: Python import lines whose packages are loaded first
 *   (an explorable's matplotlib, with its fonts). Both sides call py_lessons.runtime.session.call.
 * @typedef {{type: "warm", codes: string[], skip: string[]}} WarmRequest
 * @typedef {{type: "reset", id?: number}} ResetRequest
 * @typedef {{type: "cancel", id: number}} CancelRequest
 * @typedef {{type: "shared-memory", interrupt: Int32Array, input: SharedArrayBuffer}} SharedMemoryRequest
 *   interrupt: Stop writes 2 (SIGINT) into [0]; input: see INPUT_LINE.
 * @typedef {{type: "keyboard", unavailable: "reload" | "impossible"}} KeyboardRequest
 *   Sent when the page is not cross-origin isolated: why input() cannot wait on shared memory
 *   (runtime/execute.py); a worker that can suspend Python (WebAssembly JSPI) waits for LINE instead.
 * @typedef {{type: "line", id: number, line: string | null}} LineRequest
 *   The answer to the job's input() without shared memory; null: the reader stopped the run.
 *
 * @typedef {{type: "ready", id: 0, version: string}} ReadyMessage
 * @typedef {{type: "progress", phase: "core" | "packages", loaded: number, total: number, names: string[], helpers: number}} ProgressMessage
 *   names: the packages the code imports itself; helpers: how many more those need
 * @typedef {{type: "running", id: number}} RunningMessage
 * @typedef {{type: "item", id: number, item: OutputItem}} ItemMessage
 * @typedef {{type: "done", id: number, result: RunResult | CheckOutcome | CallResult | {ok: true}, seconds: number,
 *   items?: OutputItem[]}} DoneMessage
 *   The build runner sends a job's items inside its "done" message instead of one by one.
 * @typedef {{type: "fatal", id?: number, reason: string}} FatalMessage
 * @typedef {{type: "input", id: number, prompt: string}} InputMessage
 *   The page shows a line field; the line goes back through shared memory (INPUT_LINE), or as a
 *   LineRequest where the page is not isolated.
 * @typedef {{type: "refused", id?: number, reason: string}} RefusedMessage
 */
