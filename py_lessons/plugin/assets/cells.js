// Runnable cells: CodeMirror editors, Run/Stop/Reset, and output from the shared Python worker.
// The HTML comes from the build (py_lessons/plugin/render.py) with the build-time output already
// in [data-output]; this module only adds behaviour, so a page without JS still reads fine.
// The editor (CodeMirror, the biggest script of a page) is fetched only when the reader reaches
// for a cell: until then the build's <pre> shows the code and Run works from its text.
import strings from "./strings.js";
import { sharedPythonWorker } from "./python-worker.js";
import { format, loaderMessage, pageKey, store } from "./components/common.js";
import { renderItem, renderNotes, renderTraceback } from "./output.js";
import { TO_PYTHON } from "./protocol.js";

// Loading progress goes to whichever cell or component (handlers.cell with setStatus) is waiting.
function showProgress(progress, job) {
  job?.handlers.cell?.setStatus(loaderMessage(progress));
}

let editorModule = null;
const loadEditor = () => (editorModule ??= import("../vendor/editor.js"));

function sharedWorker() {
  const worker = sharedPythonWorker();
  worker.onProgress = showProgress; // whoever created the shared worker first, progress shows
  return worker;
}

class Cell {
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
    this.buildOutput = this.output.cloneNode(true);
    this.buildNotes = this.notes.cloneNode(true);
    this.jobId = null;
    // Named sessions belong to one page: with instant navigation the worker outlives the page,
    // and another lesson may use the same session name for different variables.
    this.session = root.dataset.session ? `${location.pathname}::${root.dataset.session}` : null;
    // The reader's edits persist per cell across reloads (Reset forgets them).
    this.storeKey = pageKey("cell", this.id);
    const saved = store.get(this.storeKey);
    this.editor = null;
    this.text = typeof saved === "string" ? saved : this.originalCode; // the code until the editor exists
    if (this.text !== this.originalCode) {
      this.showText();
      this.setStatus(strings["cell.state.restored"]);
    }
    // The reader is about to use this cell: bring the editor, and fetch what its imports need
    // (matplotlib included).
    const reach = () => { this.mountEditor(); sharedWorker().warm([this.code]); };
    for (const type of ["focusin", "pointerenter", "touchstart"]) root.addEventListener(type, reach, { once: true, passive: true });
    this.buttons.run.addEventListener("click", () => this.run());
    this.buttons.stop.addEventListener("click", () => this.stop());
    this.buttons.reset.addEventListener("click", () => this.reset());
  }

  get code() { return this.editor ? this.editor.state.doc.toString() : this.text; }

  /** The code as plain text in the build's <pre> (before the editor is loaded). */
  showText() {
    this.host.querySelector("code").textContent = this.text;
  }

  /** Replace the <pre> with a CodeMirror editor (once); keeps focus where the reader put it. */
  mountEditor() {
    this.editorReady ??= loadEditor().then(({ EditorView, basicSetup, keymap, Prec, python, readableHighlighting }) => {
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
          EditorView.updateListener.of((update) => { if (update.docChanged) this.saveEdits(); }),
        ],
      });
      this.root.dataset.editorState = "ready"; // not data-editor: that marks the host element
      if (hadFocus) this.editor.focus();
    }).catch((error) => {
      this.editorReady = null; // e.g. offline before the editor was ever cached: try again later
      console.error(error);
    });
    return this.editorReady;
  }

  saveEdits() {
    if (this.code === this.originalCode) store.remove(this.storeKey);
    else store.set(this.storeKey, this.code);
  }

  setState(state) {
    this.root.dataset.state = state;
    const busy = state === "running" || state === "queued";
    this.buttons.stop.disabled = !busy;
  }

  setStatus(text) { this.status.textContent = text; }

  run() {
    if (this.jobId !== null) return; // already queued or running
    const py = sharedWorker();
    this.output.replaceChildren();
    this.notes.replaceChildren();
    this.origin.textContent = strings["cell.output.live"];
    this.setState("queued");
    this.setStatus(strings["cell.state.queued"]);
    const timeout = Number(this.root.dataset.timeout || 0);
    this.jobId = py.run(
      { code: this.code, session: this.session, figurePrefix: `${this.id}-${Date.now()}` },
      {
        cell: this,
        owner: this.root,
        onStart: () => {
          this.setState("running");
          this.setStatus(strings["cell.state.running"]);
          if (timeout > 0) this.timer = setTimeout(() => this.stop("timeout", timeout), timeout * 1000);
        },
        onItem: (item) => renderItem(this.output, item, strings),
        onDone: (result, seconds) => this.finished(result, seconds),
        onFatal: (reason) => this.finished({ ok: false, error: "fatal", traceback: format("loader.failed", { reason }) }, 0),
        onStopped: (how, result) => this.stopped(how, result),
      },
    );
  }

  finished(result, seconds) {
    clearTimeout(this.timer);
    // the first output is in: background work (offline caching, offline.js) may start now
    document.dispatchEvent(new CustomEvent("pathshala:python-ready"));
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
      this.setStatus(format("cell.state.error", { error: result.error }));
    }
  }

  stopped(how, result) {
    clearTimeout(this.timer);
    this.jobId = null;
    if (how === "dequeued") { // it never started: nothing ran, nothing was lost
      this.setState("idle");
      this.setStatus(strings["cell.state.stopped"]);
      return;
    }
    if (result?.traceback) renderTraceback(this.output, result.traceback);
    this.setState("error");
    const message = how === "restarted" ? strings["cell.state.restarted"] : strings["cell.state.stopped"];
    this.setStatus(this.timeoutNote ? `${this.timeoutNote} ${message}` : message);
    this.timeoutNote = null;
  }

  /** For components (the cell API; they never write a cell's fields): check the reader's code
   * with an exercise's hidden `checks` (py_lessons.runtime.checking, one fresh namespace). The
   * code's output shows in this cell as for a Run, and the cell's Stop stops it. Resolves to a
   * CheckOutcome {stage, result} (protocol.js), or {stopped: true} if it was stopped or Python
   * failed, or {busy: true} if the cell was already running. `onStatus(text)`: loading progress. */
  check(checks, { onStatus } = {}) {
    if (this.jobId !== null) return Promise.resolve({ busy: true });
    this.output.replaceChildren();
    this.notes.replaceChildren();
    this.origin.textContent = strings["cell.output.live"];
    this.setState("queued");
    return new Promise((resolve) => {
      const end = (outcome) => { this.jobId = null; this.setState("idle"); resolve(outcome); };
      this.jobId = sharedWorker().run(
        { type: TO_PYTHON.CHECK, code: this.code, checks, figurePrefix: `${this.id}-${Date.now()}` },
        {
          cell: { setStatus: (text) => onStatus?.(text) },
          owner: this.root,
          onStart: () => this.setState("running"),
          onItem: (item) => renderItem(this.output, item, strings),
          onDone: (outcome) => {
            if (outcome.stage === "code") {
              renderNotes(this.notes, outcome.result, strings);
              if (!outcome.result.ok) renderTraceback(this.output, outcome.result.traceback);
            }
            end(outcome);
          },
          onFatal: (reason) => end({ stopped: true, reason }),
          onStopped: () => end({ stopped: true }),
        },
      );
    });
  }

  stop(reason, seconds) {
    if (this.jobId === null) return;
    const id = this.jobId;
    this.timeoutNote = reason === "timeout" ? format("cell.state.timeout", { seconds }) : null;
    sharedWorker().stop(id); // the run's onStopped handler tells how it ended
  }

  reset() {
    this.stop();
    this.text = this.originalCode;
    if (this.editor) this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: this.originalCode } });
    else { this.showText(); this.saveEdits(); }
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

/** The cell API for components built around a cell's editor (a code exercise): the cell whose
 * root is `root`, offering `code` (the reader's current code), `check(checks, {onStatus})` and
 * `stop()`; undefined until cells.js has enhanced it. */
export function cellAt(root) {
  const cell = cellsByRoot.get(root);
  return cell && { get code() { return cell.code; }, check: (checks, options) => cell.check(checks, options), stop: () => cell.stop() };
}

// Big packages are fetched only when the reader reaches a cell that needs them.
const LOAD_ON_INTERACTION = ["matplotlib"];

function enhance(scope = document) {
  const fresh = [];
  for (const root of scope.querySelectorAll(".pycell[data-cell-id]:not([data-enhanced])")) {
    root.dataset.enhanced = "";
    const cell = new Cell(root);
    cellsByRoot.set(root, cell);
    fresh.push(cell);
  }
  if (fresh.length) {
    // Once the page is idle, start Python and the small packages its cells import (numpy), so
    // the first Run does not wait for the whole download.
    const whenIdle = globalThis.requestIdleCallback ?? ((fn) => setTimeout(fn, 200));
    whenIdle(() => sharedWorker().warm(fresh.map((cell) => cell.code), LOAD_ON_INTERACTION));
  }
}

enhance();
// mkdocs-material's instant navigation swaps the page without reloading scripts: enhance the new
// page's cells, keeping the one worker (and everything it has loaded) alive across lessons, and
// drop the runs the previous page left behind.
globalThis.document$?.subscribe?.(() => {
  sharedWorker().dropOrphans();
  enhance();
});
