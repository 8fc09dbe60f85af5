// Runnable cells: CodeMirror editors, Run/Stop/Reset, input(), the failing line, "edited", and
// the page's Run all / Restart, with output from the shared Python worker.
// The HTML comes from the build (py_lessons/plugin/render.py) with the build-time output already
// in [data-output]; this module only adds behaviour, so a page without JS still reads fine.
// The editor (CodeMirror, the biggest script of a page) is fetched only when the reader reaches
// for a cell: until then the build's <pre> shows the code and Run works from its text.
import strings from "./strings.js";
import { sharedPythonWorker } from "./python-worker.js";
import { bnDigits, format, loaderMessage, pageKey, store } from "./components/common.js";
import { renderItem, renderNotes, renderTraceback } from "./output.js";
import { TO_PYTHON } from "./protocol.js";
import { MAX_LINK_LENGTH, SHARE_PREFIX, ShareError, readShareFragment, shareLink, sharedCode } from "./share.js";

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

/** A toolbar button: its action hook and its Bangla label from the catalogue. */
function makeButton(action, key) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "pycell-button";
  element.dataset.action = action;
  element.textContent = strings[key];
  return element;
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
    this.addEditedControls();
    this.addShareControls();
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
    this.showEdited();
    // The reader is about to use this cell: bring the editor, and fetch what its imports need
    // (matplotlib included).
    const reach = () => { this.mountEditor(); sharedWorker().warm([this.code]); };
    for (const type of ["focusin", "pointerenter", "touchstart"]) root.addEventListener(type, reach, { once: true, passive: true });
    this.buttons.run.addEventListener("click", () => this.run());
    this.buttons.stop.addEventListener("click", () => this.stop());
    this.buttons.reset.addEventListener("click", () => this.reset());
  }

  /** "Edited" badge and "show original" (in the toolbar), and the original code's panel. */
  addEditedControls() {
    const badge = document.createElement("span");
    badge.className = "pycell-edited";
    badge.dataset.editedBadge = "";
    badge.title = strings["cell.edited.hint"];
    badge.textContent = strings["cell.edited"];
    const toggle = makeButton("show-original", "cell.original.show");
    toggle.setAttribute("aria-expanded", "false");
    this.buttons.reset.before(badge, toggle);
    const panel = document.createElement("figure");
    panel.className = "pycell-original";
    panel.dataset.original = "";
    panel.hidden = true;
    panel.id = `${this.id}-original`;
    toggle.setAttribute("aria-controls", panel.id);
    const caption = document.createElement("figcaption");
    caption.textContent = strings["cell.original.title"];
    const pre = document.createElement("pre");
    pre.tabIndex = 0; // a scrollable region must be reachable by keyboard
    pre.setAttribute("aria-label", strings["cell.original.title"]);
    const code = document.createElement("code");
    code.textContent = this.originalCode;
    pre.append(code);
    panel.append(caption, pre);
    this.root.classList.add("pycell-has-original");
    this.host.after(panel);
    toggle.addEventListener("click", () => this.showOriginal(panel.hidden));
    this.editedControls = { badge, toggle, panel };
  }

  /** Side by side with the editor (one above the other on a narrow screen). */
  showOriginal(show) {
    const { toggle, panel } = this.editedControls;
    panel.hidden = !show;
    this.root.toggleAttribute("data-original-shown", show);
    toggle.setAttribute("aria-expanded", String(show));
    toggle.textContent = strings[show ? "cell.original.hide" : "cell.original.show"];
  }

  showEdited() {
    const edited = this.code !== this.originalCode;
    this.root.dataset.edited = String(edited);
    this.editedControls.badge.hidden = !edited;
    this.editedControls.toggle.hidden = !edited;
    if (!edited) this.showOriginal(false);
  }

  /** Share (a link that carries this cell's code, share.js), and for code opened from such a link
   * the "someone else's code" marker and "back to the lesson's code". */
  addShareControls() {
    const share = makeButton("share", "share.button");
    share.title = strings["share.hint"];
    const unshare = makeButton("unshare", "share.unshare");
    const marker = document.createElement("span");
    marker.className = "pycell-shared";
    marker.dataset.sharedMarker = "";
    marker.title = strings["share.marker.hint"];
    marker.textContent = strings["share.marker"];
    marker.hidden = unshare.hidden = true;
    this.buttons.reset.before(marker, unshare);
    this.buttons.reset.after(share);
    share.addEventListener("click", () => this.share());
    unshare.addEventListener("click", () => this.unshare());
    this.sharing = { marker, unshare, field: null, swapping: false };
    // Shared code is shown, never saved: it becomes the reader's own edit (saved, unmarked) only
    // once they change it. Every save of the cell's code comes through here.
    const saveOwnEdits = this.saveEdits.bind(this);
    this.saveEdits = () => {
      if (this.sharing.swapping) return;
      saveOwnEdits();
      this.endShared();
    };
  }

  /** Copy a link to this cell's code as it is now; where the clipboard refuses, show the link in a
   * selected read-only field to copy by hand. */
  async share() {
    this.sharing.field?.remove();
    let link;
    try {
      link = await shareLink(this.id, this.code);
    } catch (error) {
      if (!(error instanceof ShareError)) throw error;
      this.setStatus(format("share.too_large", { limit: bnDigits(MAX_LINK_LENGTH.toLocaleString("en-IN")) }));
      return;
    }
    try {
      await navigator.clipboard.writeText(link);
      this.setStatus(strings["share.copied"]);
    } catch { // no clipboard (plain http), or permission refused
      this.showShareField(link);
    }
  }

  showShareField(link) {
    const box = document.createElement("div");
    box.className = "pycell-share-link";
    const label = document.createElement("label");
    const field = document.createElement("input");
    field.id = `${this.id}-share-link`;
    label.htmlFor = field.id;
    label.textContent = strings["share.field"];
    Object.assign(field, { type: "url", readOnly: true, value: link, spellcheck: false });
    field.dataset.shareLink = "";
    box.append(label, field);
    this.status.after(box);
    this.sharing.field = box;
    this.setStatus(strings["share.manual"]);
    field.focus();
    field.select();
  }

  /** Code from a share link: shown in the editor, marked as someone else's, neither run nor saved. */
  showShared(code) {
    if (this.root.dataset.shared === "true" && this.code === code) return; // the same link, seen again
    this.swapCode(code);
    this.root.dataset.shared = "true";
    this.sharing.marker.hidden = this.sharing.unshare.hidden = false;
    this.setStatus(strings["share.opened"]);
    this.root.scrollIntoView({ block: "start" });
  }

  /** Back to the cell's own code: the lesson's, or the reader's saved edits of it. */
  unshare() {
    const saved = store.get(this.storeKey);
    this.swapCode(typeof saved === "string" ? saved : this.originalCode);
    this.endShared();
    this.setStatus(strings["share.unshared"]);
    this.buttons.run.focus(); // the button that had focus is hidden now
    if (location.hash.startsWith(SHARE_PREFIX)) history.replaceState(history.state, "", location.pathname + location.search);
  }

  endShared() {
    delete this.root.dataset.shared;
    this.sharing.marker.hidden = this.sharing.unshare.hidden = true;
  }

  /** Put `code` in the editor (or the build's <pre>) without saving it as the reader's edit. */
  swapCode(code) {
    this.sharing.swapping = true;
    this.clearErrorLine();
    this.text = code;
    if (this.editor) this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: code } });
    else this.showText();
    this.sharing.swapping = false;
    this.showEdited();
  }

  get code() { return this.editor ? this.editor.state.doc.toString() : this.text; }

  /** The code as plain text in the build's <pre> (before the editor is loaded). */
  showText() {
    this.host.querySelector("code").textContent = this.text;
  }

  /** Replace the <pre> with a CodeMirror editor (once); keeps focus where the reader put it. */
  mountEditor() {
    this.editorReady ??= loadEditor().then(({ EditorView, basicSetup, keymap, Prec, python, readableHighlighting, errorLine, setErrorLine }) => {
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
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            this.saveEdits();
            delete this.root.dataset.errorLine; // the editor dropped its mark: the lines moved
          }),
        ],
      });
      this.errorLineEffect = (line) => setErrorLine.of(line);
      this.scrollEffect = (line) => EditorView.scrollIntoView(this.editor.state.doc.line(line).from, { y: "center" });
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
    const busy = state === "running" || state === "queued";
    this.buttons.stop.disabled = !busy;
  }

  setStatus(text) { this.status.textContent = text; }

  /** Run the cell; resolves to its RunResult (protocol.js), or {ok: false, stopped: true}. */
  run() {
    if (this.jobId !== null) return this.running ?? Promise.resolve({ ok: false, busy: true }); // already queued or running
    if (!this.root.isConnected) return Promise.resolve({ ok: false, stopped: true }); // its page was left
    this.running = new Promise((resolve) => { this.settle = resolve; });
    const py = sharedWorker();
    this.clearErrorLine();
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
          this.startTimer(timeout);
        },
        onItem: (item) => renderItem(this.output, item, strings),
        onInput: (prompt) => this.askLine(prompt),
        onDone: (result, seconds) => this.finished(result, seconds),
        onFatal: (reason) => this.finished({ ok: false, error: "fatal", traceback: format("loader.failed", { reason }) }, 0),
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

  /** Python's input(prompt) waits: a line field under the output; Enter (or Send) answers. */
  askLine(prompt) {
    this.closeLine();
    this.pauseTimer();
    const form = document.createElement("form");
    form.className = "pycell-input";
    form.dataset.inputForm = "";
    const label = document.createElement("label");
    const field = document.createElement("input");
    field.id = `${this.id}-input`;
    label.htmlFor = field.id;
    label.textContent = prompt.trim() || strings["cell.input.label"];
    Object.assign(field, { type: "text", autocomplete: "off", spellcheck: false });
    field.dataset.input = "";
    field.setAttribute("aria-describedby", `${this.id}-input-hint`);
    const hint = document.createElement("span");
    hint.id = `${this.id}-input-hint`;
    hint.className = "pycell-input-hint";
    hint.textContent = strings["cell.input.hint"];
    const send = document.createElement("button");
    send.type = "submit";
    send.className = "pycell-button";
    send.dataset.action = "send-input";
    send.textContent = strings["cell.input.send"];
    form.append(label, field, send, hint);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!sharedWorker().sendInput(this.jobId, field.value)) return;
      this.buttons.stop.focus(); // focus must not fall to the page when the field goes
      this.closeLine();
      this.setStatus(strings["cell.state.running"]);
      this.startTimer(Number(this.root.dataset.timeout || 0));
    });
    this.output.after(form);
    this.setStatus(strings["cell.input.label"]);
    field.focus();
  }

  closeLine() {
    this.root.querySelector("[data-input-form]")?.remove();
  }

  finished(result, seconds) {
    this.endTimer();
    this.closeLine();
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
      const status = format("cell.state.error", { error: result.error });
      this.setStatus(status);
      this.markErrorLine(result.line, status);
    }
    this.settle?.(result);
  }

  stopped(how, result) {
    this.endTimer();
    this.closeLine();
    this.jobId = null;
    this.settle?.({ ok: false, stopped: true });
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
    this.clearErrorLine();
    this.running = null; // not a Run: run() must not hand out an earlier run's result
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
              if (!outcome.result.ok) {
                renderTraceback(this.output, outcome.result.traceback);
                this.markErrorLine(outcome.result.line);
              }
            }
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
    this.text = this.originalCode;
    if (this.editor) this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: this.originalCode } });
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

/** The cell API for components built around a cell's editor (a code exercise): the cell whose
 * root is `root`, offering `code` (the reader's current code), `check(checks, {onStatus})` and
 * `stop()`; undefined until cells.js has enhanced it. */
export function cellAt(root) {
  const cell = cellsByRoot.get(root);
  return cell && { get code() { return cell.code; }, check: (checks, options) => cell.check(checks, options), stop: () => cell.stop() };
}

/** The page's own controls, above its first cell: Run all (every cell in page order, so each
 * session's cells build on each other, stopping at the first unexpected error) and Restart
 * Python (a fresh Python: no variable, import or setting survives). Exercise editors are the
 * reader's answers, not the lesson's code: Run all leaves them alone. */
class PageControls {
  constructor(cells) {
    this.cells = cells;
    this.root = document.createElement("div");
    this.root.className = "pycell-page";
    this.root.dataset.pageControls = "";
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", strings["page.cells.label"]);
    this.runAllButton = makeButton("run-all", "page.run_all");
    this.restartButton = makeButton("restart", "page.restart");
    this.status = document.createElement("p");
    this.status.className = "pycell-page-status";
    this.status.setAttribute("role", "status");
    this.status.dataset.status = "";
    this.root.append(this.runAllButton, this.restartButton, this.status);
    this.runAllButton.addEventListener("click", () => this.runAll());
    this.restartButton.addEventListener("click", () => this.restart());
    // before the block that holds the first cell (a cell may sit inside a tab or an admonition)
    const first = cells[0].root;
    const article = first.closest("article") ?? first.parentElement;
    let block = first;
    while (block.parentElement && block.parentElement !== article) block = block.parentElement;
    block.before(this.root);
  }

  async runAll() {
    if (this.busy) return;
    this.busy = true;
    this.runAllButton.disabled = true;
    const total = this.cells.length;
    this.root.dataset.state = "running";
    let ending = format("page.run_all.done", { total: bnDigits(total) });
    for (const [index, cell] of this.cells.entries()) {
      if (!this.root.isConnected) return; // the reader went to another page: its cells stay as they are
      this.status.textContent = format("page.run_all.progress", { n: bnDigits(index + 1), total: bnDigits(total) });
      const result = await cell.run();
      if (result.stopped) { ending = strings["page.run_all.interrupted"]; break; }
      const expected = cell.root.dataset.raises;
      // input() that cannot wait for the keyboard (not isolated yet) is not the lesson's error
      const skipped = result.error === "InputNotAvailable";
      if (!result.ok && !skipped && !(expected === "any" || expected === result.error)) {
        ending = format("page.run_all.stopped", { n: bnDigits(index + 1) });
        cell.root.scrollIntoView({ block: "center" });
        break;
      }
    }
    this.status.textContent = ending;
    this.root.dataset.state = "idle";
    this.runAllButton.disabled = false;
    this.busy = false;
  }

  restart() {
    sharedWorker().restart(this.cells.map((cell) => cell.code), LOAD_ON_INTERACTION);
    this.status.textContent = strings["page.restart.done"];
  }
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
  const lessonCells = fresh.filter((cell) => cell.root.dataset.cellKind !== "exercise");
  // one cell has its own buttons; the page's controls are for pages of several
  if (lessonCells.length > 1 && !scope.querySelector("[data-page-controls]")) new PageControls(lessonCells);
  if (fresh.length) {
    // Start Python and the small packages its cells import (numpy) at once, so the first Run does
    // not wait for the whole download: the worker's downloads and CPU are off the page's thread.
    sharedWorker().warm(fresh.map((cell) => cell.code), LOAD_ON_INTERACTION);
  }
}

/** A share link opened on this page (share.js): its cell shows the shared code. A link that cannot
 * be used (a cell this page does not have, corrupt or too large) says why and changes nothing. */
async function openShareLink() {
  try {
    const target = readShareFragment(location.hash);
    if (!target) return;
    const root = document.querySelector(`.pycell[data-cell-id="${CSS.escape(target.cellId)}"]`);
    if (!cellsByRoot.has(root)) {
      showShareProblem(format("share.error.unknown", { id: target.cellId }));
      return;
    }
    const code = await sharedCode(target.data);
    if (!root.isConnected) return; // the reader went on to another page meanwhile
    document.querySelector("[data-share-problem]")?.remove();
    cellsByRoot.get(root).showShared(code);
  } catch (error) {
    if (!(error instanceof ShareError)) throw error;
    showShareProblem(strings[error.reason === "too-large" ? "share.error.too_large" : "share.error.corrupt"]);
  }
}

function showShareProblem(text) {
  let note = document.querySelector("[data-share-problem]");
  if (!note) {
    note = document.createElement("p");
    note.className = "pycell-share-problem";
    note.setAttribute("role", "alert");
    note.dataset.shareProblem = "";
    const title = document.querySelector(".md-content h1");
    if (title) title.after(note);
    else (document.querySelector(".md-content__inner") ?? document.body).prepend(note);
  }
  note.textContent = text;
  note.scrollIntoView({ block: "center" });
}

enhance();
openShareLink();
addEventListener("hashchange", openShareLink);
// mkdocs-material's instant navigation swaps the page without reloading scripts: enhance the new
// page's cells, keeping the one worker (and everything it has loaded) alive across lessons, and
// drop the runs the previous page left behind.
globalThis.document$?.subscribe?.(() => {
  sharedWorker().dropOrphans();
  enhance();
  openShareLink();
});
