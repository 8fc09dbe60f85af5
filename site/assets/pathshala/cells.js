// Runnable cells: CodeMirror editors, Run/Stop/Reset, and output from the shared Python worker.
// The HTML comes from the build (py_lessons/build/render.py) with the build-time output already
// in [data-output]; this module only adds behaviour, so a page without JS still reads fine.
import { EditorView, basicSetup, keymap, Prec, python } from "../vendor/editor.js";
import strings from "./strings.js";
import { sharedPythonWorker } from "./python-worker.js";
import { pageKey, store } from "./components/common.js";
import { renderItem, renderTraceback } from "./output.js";

const format = (key, values = {}) => strings[key].replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

let worker = null;
function sharedWorker() {
  worker ??= sharedPythonWorker({
    onProgress(progress, job) {
      const cell = job?.handlers.cell;
      if (!cell) return;
      const percent = progress.total ? Math.round((100 * progress.loaded) / progress.total) : 0;
      cell.setStatus(progress.phase === "core"
        ? format("loader.progress", { percent, loaded: megabytes(progress.loaded), total: megabytes(progress.total) })
        : format("loader.packages", { names: progress.names.join(", "), percent }));
    },
  });
  return worker;
}

class Cell {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.cellId;
    this.output = root.querySelector("[data-output]");
    this.status = root.querySelector("[data-status]");
    this.origin = root.querySelector("[data-output-origin]");
    this.buttons = Object.fromEntries([...root.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b]));
    const host = root.querySelector("[data-editor]");
    this.originalCode = host.textContent.replace(/\n$/, "");
    this.buildOutput = this.output.cloneNode(true);
    this.jobId = null;
    // The reader's edits persist per cell across reloads (Reset forgets them).
    this.storeKey = pageKey("cell", this.id);
    const saved = store.get(this.storeKey);
    const restored = typeof saved === "string" && saved !== this.originalCode;
    host.replaceChildren();
    this.editor = new EditorView({
      doc: restored ? saved : this.originalCode,
      parent: host,
      extensions: [
        Prec.highest(keymap.of([
          { key: "Shift-Enter", run: () => (this.run(), true) },
          { key: "Ctrl-Enter", run: () => (this.run(), true) },
        ])),
        basicSetup,
        python(),
        EditorView.contentAttributes.of({ "aria-label": strings["cell.editor"] }),
        EditorView.updateListener.of((update) => { if (update.docChanged) this.saveEdits(); }),
      ],
    });
    if (restored) this.setStatus(strings["cell.state.restored"]);
    this.buttons.run.addEventListener("click", () => this.run());
    this.buttons.stop.addEventListener("click", () => this.stop());
    this.buttons.reset.addEventListener("click", () => this.reset());
    host.addEventListener("focusin", () => sharedWorker().warm(), { once: true });
  }

  get code() { return this.editor.state.doc.toString(); }

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
    this.origin.textContent = strings["cell.output.live"];
    this.setState("queued");
    this.setStatus(strings["cell.state.queued"]);
    const timeout = Number(this.root.dataset.timeout || 0);
    this.jobId = py.run(
      { code: this.code, session: this.root.dataset.session || null, figurePrefix: `${this.id}-${Date.now()}` },
      {
        cell: this,
        onStart: () => {
          this.setState("running");
          this.setStatus(strings["cell.state.running"]);
          if (timeout > 0) this.timer = setTimeout(() => this.stop("timeout", timeout), timeout * 1000);
        },
        onItem: (item) => renderItem(this.output, item),
        onDone: (result, seconds) => this.finished(result, seconds),
        onFatal: (reason) => this.finished({ ok: false, error: "fatal", traceback: format("loader.failed", { reason }) }, 0),
        onStopped: (how, result) => this.stopped(how, result),
      },
    );
  }

  finished(result, seconds) {
    clearTimeout(this.timer);
    this.jobId = null;
    if (result.ok) {
      this.setState("done");
      this.setStatus(format("cell.state.done", { seconds: seconds.toFixed(2) }));
    } else {
      renderTraceback(this.output, result.traceback);
      this.setState("error");
      this.setStatus(format("cell.state.error", { error: result.error }));
    }
  }

  stopped(how, result) {
    clearTimeout(this.timer);
    this.jobId = null;
    if (result?.traceback) renderTraceback(this.output, result.traceback);
    this.setState("error");
    const message = how === "restarted" ? strings["cell.state.restarted"] : strings["cell.state.stopped"];
    this.setStatus(this.timeoutNote ? `${this.timeoutNote} ${message}` : message);
    this.timeoutNote = null;
  }

  stop(reason, seconds) {
    if (this.jobId === null) return;
    const id = this.jobId;
    this.timeoutNote = reason === "timeout" ? format("cell.state.timeout", { seconds }) : null;
    sharedWorker().stop(id).then((how) => {
      if (how === "dequeued") {
        this.jobId = null;
        this.setState("idle");
        this.setStatus(strings["cell.state.stopped"]);
      }
    });
  }

  reset() {
    this.stop();
    this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: this.originalCode } });
    this.output.replaceWith(this.buildOutput.cloneNode(true));
    this.output = this.root.querySelector("[data-output]");
    this.origin.textContent = strings["cell.output.build"];
    this.setState("idle");
    this.setStatus(strings["cell.state.reset"]);
  }
}

function enhance(scope = document) {
  for (const root of scope.querySelectorAll(".pycell[data-cell-id]:not([data-enhanced])")) {
    root.dataset.enhanced = "";
    new Cell(root);
  }
}

enhance();
