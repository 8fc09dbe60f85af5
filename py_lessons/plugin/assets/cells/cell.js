// A runnable cell: its CodeMirror editor, Run/Stop/Reset, input(), the failing line, "edited",
// Share, with output from the shared Python worker. The HTML comes from the build
// (py_lessons/plugin/render/cell_html.py) with the build-time output already in [data-output];
// this module only adds behaviour, so a page without JS still reads fine. The editor (CodeMirror,
// the biggest script of a page) is fetched only when the reader reaches for a cell's code: until then the
// build's <pre> shows the code and Run works from its text.
import { sharedPythonWorker } from "../python/python-worker.js";
import { TO_PYTHON } from "../python/protocol.js";
import { bnDigits, format, loaderMessage, strings } from "../lib/text.js";
import { CodeSource } from "./code-source.js";
import { EditedControls } from "./edited-controls.js";
import { MoreMenu } from "./more-menu.js";
import { askLine } from "./input-line.js";
import { renderItem, renderNotes, renderTraceback } from "./output.js";
import { ShareControls } from "./share-controls.js";
import { TraceView } from "./trace-view.js";

// Loading progress goes to whichever cell or component (handlers.cell with setStatus) is waiting.
function showProgress(progress, job) {
  job?.handlers.cell?.setStatus(loaderMessage(progress));
}

let editorModule = null;
const loadEditor = () => (editorModule ??= import("../../vendor/editor.js"));

export function sharedWorker() {
  const worker = sharedPythonWorker();
  worker.onProgress = showProgress; // whoever created the shared worker first, progress shows
  return worker;
}

export class Cell {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.cellId;
    this.output = root.querySelector("[data-output]");
    this.notes = root.querySelector("[data-notes]");
    this.status = root.querySelector("[data-status]");
    this.origin = root.querySelector("[data-output-origin]");
    this.buttons = Object.fromEntries([...root.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b]));
    this.host = root.querySelector("[data-editor]");
    this.originalCode = this.host.textContent.replace(/\n$/, "");
    this.source = new CodeSource(this.id, this.originalCode);
    this.swapping = false; // the code is being replaced by the page, not typed by the reader
    this.more = new MoreMenu(this);
    this.edited = new EditedControls(this);
    this.sharing = new ShareControls(this);
    this.buildOutput = this.output.cloneNode(true);
    this.buildNotes = this.notes.cloneNode(true);
    this.jobId = null;
    // Named sessions belong to one page: with instant navigation the worker outlives the page,
    // and another lesson may use the same session name for different variables.
    this.session = root.dataset.session ? `${location.pathname}::${root.dataset.session}` : null;
    // The reader's edits persist per cell across reloads (Reset forgets them).
    this.editor = null;
    this.text = this.source.initial; // the code until the editor exists
    if (this.text !== this.originalCode) {
      this.showText();
      this.setStatus(strings["cell.state.restored"]);
    }
    this.showEdited();
    // The reader is about to use this cell: fetch what its imports need (matplotlib included); and
    // the editor once they reach for the code itself (131 KB and its start-up, off the way to a
    // first output: a reader who only presses Run never needs it; the offline copy keeps it later).
    const warm = () => sharedWorker().warm([this.code]);
    const edit = () => this.mountEditor();
    for (const type of ["focusin", "pointerenter", "touchstart"]) {
      root.addEventListener(type, warm, { once: true, passive: true });
      this.host.addEventListener(type, edit, { once: true, passive: true });
    }
    // a predict block asks about this cell: its blurred output shows when the reader asks or runs
    root.querySelector('[data-action="unveil"]')?.addEventListener("click", () => this.unveil());
    this.buttons.run.addEventListener("click", () => this.run());
    this.buttons.stop.addEventListener("click", () => this.stop());
    this.buttons.reset.addEventListener("click", () => this.reset());
    this.buttons.trace.addEventListener("click", () => this.trace());
  }

  showEdited() { this.edited.show(); }

  unveil() { this.root.removeAttribute("data-awaiting-prediction"); }

  /** Code from a share link: shown, marked as someone else's, neither run nor saved. */
  showShared(code) { this.sharing.show(code); }

  /** Put `code` in the editor (or the build's <pre>) without saving it as the reader's edit. */
  swapCode(code) {
    this.swapping = true;
    this.clearErrorLine();
    this.text = code;
    if (this.editor) this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: code } });
    else this.showText();
    this.swapping = false;
    this.showEdited();
  }

  get code() { return this.editor ? this.editor.state.doc.toString() : this.text; }

  /** The code as plain text in the build's <pre> (before the editor is loaded). */
  showText() {
    this.host.querySelector("pre").textContent = this.text;
  }

  /** Replace the <pre> with a CodeMirror editor (once); keeps focus where the reader put it. */
  mountEditor() {
    this.editorReady ??= loadEditor().then(({ EditorView, basicSetup, keymap, Prec, python, readableHighlighting, errorLine,
      setErrorLine, traceLine, setTraceLine }) => {
      const hadFocus = this.host.contains(document.activeElement);
      this.host.replaceChildren();
      this.editor = new EditorView({
        doc: this.text,
        parent: this.host,
        extensions: [
          Prec.highest(keymap.of([
            { key: "Shift-Enter", run: () => (this.run(), true) },
            { key: "Ctrl-Enter", run: () => (this.run(), true) },
          ])),
          basicSetup,
          python(),
          Prec.high(readableHighlighting),
          // tabindex: the editor is a scrollable region that must be reachable by keyboard
          EditorView.contentAttributes.of({ "aria-label": strings["cell.editor"], tabindex: "0" }),
          errorLine(strings["cell.error.line.marker"]),
          traceLine(),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            this.saveEdits();
            delete this.root.dataset.errorLine; // the editor dropped its mark: the lines moved
            if (!this.swapping) this.closeTrace(); // the steps were of the code as it was
          }),
        ],
      });
      this.errorLineEffect = (line) => setErrorLine.of(line);
      this.traceLineEffect = (line) => setTraceLine.of(line);
      this.scrollEffect = (line) => EditorView.scrollIntoView(this.editor.state.doc.line(line).from, { y: "center" });
      this.root.dataset.editorState = "ready"; // not data-editor: that marks the host element
      if (hadFocus) this.editor.focus();
    }).catch((error) => {
      this.editorReady = null; // e.g. offline before the editor was ever cached: try again later
      console.error(error);
    });
    return this.editorReady;
  }

  /** The reader changed the code (typing, or Reset): their own code now, saved. */
  saveEdits() {
    if (this.swapping) return;
    this.source.edited(this.code);
    this.sharing.ended();
    this.showEdited();
  }

  /** Point at the line of the reader's code where the run failed: the editor marks it (gutter and
   * highlight, with a title), scrolls to it, and the status says it in words. */
  markErrorLine(line, status = "") {
    this.clearErrorLine();
    if (!line) return;
    this.root.dataset.errorLine = String(line);
    this.setStatus(`${status} ${format("cell.error.line", { line: bnDigits(line) })}`.trim());
    this.mountEditor()?.then(() => {
      if (!this.editor || this.root.dataset.errorLine !== String(line) || line > this.editor.state.doc.lines) return;
      this.editor.dispatch({ effects: [this.errorLineEffect(line), this.scrollEffect(line)] });
      this.editor.dom.querySelector(".cm-error-line")?.scrollIntoView({ block: "nearest" });
    });
  }

  clearErrorLine() {
    delete this.root.dataset.errorLine;
    if (this.editor) this.editor.dispatch({ effects: this.errorLineEffect(null) });
  }

  setState(state) {
    this.root.dataset.state = state;
    if (state !== "running") delete this.root.dataset.pythonBegan;
    const busy = state === "running" || state === "queued";
    this.buttons.stop.disabled = !busy;
  }

  setStatus(text) { this.status.textContent = text; }

  /** Run the cell; resolves to its RunResult (protocol.js), or {ok: false, stopped: true}.
   * `trace`: step through it (a RunRequest's trace; the view opens when it ends). */
  run({ trace = null } = {}) {
    if (this.jobId !== null) return this.running ?? Promise.resolve({ ok: false, busy: true }); // already queued or running
    if (!this.root.isConnected) return Promise.resolve({ ok: false, stopped: true }); // its page was left
    this.running = new Promise((resolve) => { this.settle = resolve; });
    const py = sharedWorker();
    this.closeTrace();
    this.traced = trace ? [] : null; // the run's output items, for the view's "output so far"
    this.clearErrorLine();
    this.output.replaceChildren();
    this.notes.replaceChildren();
    this.origin.textContent = strings["cell.output.live"];
    this.setState("queued");
    this.unveil();
    this.setStatus(strings["cell.state.queued"]);
    const timeout = Number(this.root.dataset.timeout || 0);
    this.jobId = py.run(
      { code: this.code, session: this.session, figurePrefix: `${this.id}-${Date.now()}`, ...(trace ? { trace } : {}) },
      {
        cell: this,
        owner: this.root,
        onStart: () => {
          this.setState("running");
          this.setStatus(strings[trace ? "trace.running" : "cell.state.running"]);
        },
        // the author's limit counts from here: Python's time, not the download of what it imports
        onRunning: () => {
          this.root.dataset.pythonBegan = "";
          this.startTimer(timeout);
        },
        onItem: (item) => { this.traced?.push(item); renderItem(this.output, item, strings); },
        onInput: (prompt) => this.askLine(prompt),
        onDone: (result, seconds) => this.finished(result, seconds),
        onFatal: (reason) => this.finished({ ok: false, error: "fatal", traceback: format("loader.failed", { reason }) }, 0),
        onStopping: () => this.setStatus(strings["cell.state.stopping"]),
        onStopped: (how, result) => this.stopped(how, result),
      },
    );
    return this.running;
  }

  /** The author's time limit counts Python's time, not the reader's typing (paused in askLine). */
  startTimer(seconds) {
    if (!(seconds > 0)) return;
    this.timeLeft ??= seconds * 1000;
    this.timerStarted = performance.now();
    this.timer = setTimeout(() => this.stop("timeout", seconds), this.timeLeft);
  }

  pauseTimer() {
    if (this.timerStarted === undefined) return;
    clearTimeout(this.timer);
    this.timeLeft -= performance.now() - this.timerStarted;
    this.timerStarted = undefined;
  }

  endTimer() {
    clearTimeout(this.timer);
    this.timeLeft = this.timerStarted = undefined;
  }

  /** Python's input(prompt) waits: a line field under the output (input-line.js). */
  askLine(prompt) {
    this.closeLine();
    this.pauseTimer();
    askLine(this, sharedWorker(), prompt, () => {
      this.closeLine();
      this.setStatus(strings["cell.state.running"]);
      this.startTimer(Number(this.root.dataset.timeout || 0));
    });
  }

  closeLine() {
    this.root.querySelector("[data-input-form]")?.remove();
  }

  finished(result, seconds) {
    this.endTimer();
    this.closeLine();
    this.jobId = null;
    this.root.dataset.runMs = (seconds * 1000).toFixed(2); // Python's own time, for benchmarks
    renderNotes(this.notes, result, strings);
    if (result.ok) {
      this.setState("done");
      const done = format("cell.state.done", { seconds: seconds.toFixed(2) });
      this.setStatus(result.exit_code !== undefined ? `${strings["cell.exit"]} ${done}` : done);
    } else {
      renderTraceback(this.output, result.traceback);
      this.setState("error");
      const status = format("cell.state.error", { error: result.error });
      this.setStatus(status);
      this.markErrorLine(result.line, status);
    }
    if (result.trace) this.openTrace(result.trace);
    this.settle?.(result);
  }

  /** Step through the cell: a Run recorded line by line, then the view (cells/trace-view.js). */
  trace() {
    return this.run({ trace: {} });
  }

  openTrace(trace) {
    this.traceView = new TraceView(this, trace, this.traced ?? []);
    this.traced = null;
    this.root.querySelector("[data-status]").after(this.traceView.root);
    this.mountEditor();
    this.traceView.show(0);
  }

  closeTrace() {
    if (!this.traceView) return;
    this.traceView.root.remove();
    this.traceView = null;
    this.markTraceLine(null);
  }

  /** The line the step-through shows, marked in the editor (null: none). */
  markTraceLine(line) {
    if (line === null) delete this.root.dataset.traceLine;
    else this.root.dataset.traceLine = String(line);
    this.mountEditor()?.then(() => {
      if (!this.editor) return;
      const shown = this.root.dataset.traceLine ? Number(this.root.dataset.traceLine) : null;
      if (shown !== null && shown > this.editor.state.doc.lines) return;
      const effects = [this.traceLineEffect(shown)];
      if (shown !== null) effects.push(this.scrollEffect(shown));
      this.editor.dispatch({ effects });
    });
  }

  stopped(how, result) {
    this.endTimer();
    this.closeLine();
    this.jobId = null;
    this.settle?.({ ok: false, stopped: true });
    if (result?.trace) this.openTrace(result.trace); // the steps up to Stop
    if (how === "dequeued") { // it never started: nothing ran, nothing was lost
      this.setState("idle");
      this.setStatus(strings["cell.state.stopped"]);
      return;
    }
    // the reader stopped it: the status says so; Python's KeyboardInterrupt traceback is not news
    this.setState("error");
    const message = how === "restarted" ? strings["cell.state.restarted"] : strings["cell.state.stopped"];
    this.setStatus(this.timeoutNote ? `${this.timeoutNote} ${message}` : message);
    this.timeoutNote = null;
  }

  /** For components (the cell API; they never write a cell's fields): check the reader's code
   * with an exercise's hidden `checks` (py_lessons.runtime.checking, one fresh namespace). The
   * code's output shows in this cell as for a Run, and the cell's Stop stops it. Resolves to a
   * CheckOutcome {stage, result} (protocol.js), or {stopped: true} if it was stopped or Python
   * failed, or {busy: true} if the cell was already running. `onStatus(text)`: loading progress;
   * `trace`: step through the reader's code, the checks' calls of it included (the view opens). */
  check(checks, { onStatus, trace = null } = {}) {
    if (this.jobId !== null) return Promise.resolve({ busy: true });
    this.closeTrace();
    this.traced = trace ? [] : null;
    this.clearErrorLine();
    this.running = null; // not a Run: run() must not hand out an earlier run's result
    this.output.replaceChildren();
    this.notes.replaceChildren();
    this.origin.textContent = strings["cell.output.live"];
    this.setState("queued");
    return new Promise((resolve) => {
      const end = (outcome) => { this.jobId = null; this.setState("idle"); resolve(outcome); };
      this.jobId = sharedWorker().run(
        { type: TO_PYTHON.CHECK, code: this.code, checks, figurePrefix: `${this.id}-${Date.now()}`, ...(trace ? { trace } : {}) },
        {
          cell: { setStatus: (text) => onStatus?.(text) },
          owner: this.root,
          onStart: () => this.setState("running"),
          onItem: (item) => { this.traced?.push(item); renderItem(this.output, item, strings); },
          onDone: (outcome) => {
            if (outcome.stage === "code") {
              renderNotes(this.notes, outcome.result, strings);
              if (!outcome.result.ok) {
                renderTraceback(this.output, outcome.result.traceback);
                this.markErrorLine(outcome.result.line);
              }
            }
            if (outcome.result?.trace) this.openTrace(outcome.result.trace);
            end(outcome);
          },
          onFatal: (reason) => end({ stopped: true, reason }),
          onStopped: () => end({ stopped: true }),
        },
      );
    });
  }

  /** Resolves once the run has ended ("dequeued", "interrupted" or "restarted"). */
  stop(reason, seconds) {
    if (this.jobId === null) return Promise.resolve("dequeued");
    const id = this.jobId;
    this.timeoutNote = reason === "timeout" ? format("cell.state.timeout", { seconds }) : null;
    return sharedWorker().stop(id); // the run's onStopped handler tells how it ended
  }

  async reset() {
    await this.stop(); // its "stopped" report must come before the build's output is put back
    this.clearErrorLine();
    this.text = this.source.reset();
    if (this.editor) this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: this.text } });
    else { this.showText(); this.saveEdits(); }
    this.showEdited();
    this.output.replaceWith(this.buildOutput.cloneNode(true));
    this.output = this.root.querySelector("[data-output]");
    this.notes.replaceWith(this.buildNotes.cloneNode(true));
    this.notes = this.root.querySelector("[data-notes]");
    this.origin.textContent = strings["cell.output.build"];
    this.setState("idle");
    this.setStatus(strings["cell.state.reset"]);
  }
}

const cellsByRoot = new WeakMap();

/** Make `root` a cell (once); the cell. */
export function enhanceCell(root) {
  if (!cellsByRoot.has(root)) cellsByRoot.set(root, new Cell(root));
  return cellsByRoot.get(root);
}

/** The enhanced cell whose root is `root`, or undefined. */
export const cellOf = (root) => cellsByRoot.get(root);

/** The cell API for components built around a cell's editor (a code exercise): the cell whose
 * root is `root`, offering `code` (the reader's current code), `check(checks, {onStatus})` and
 * `stop()`; undefined until the cells' script has enhanced it. */
export function cellAt(root) {
  const cell = cellsByRoot.get(root);
  return cell && { get code() { return cell.code; }, check: (checks, options) => cell.check(checks, options), stop: () => cell.stop() };
}
