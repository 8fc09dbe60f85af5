// Code exercises: the editor is an ordinary runnable cell (cells.js); "check" runs the reader's
// code and then the hidden checks in one fresh namespace of the shared Python worker, and reports
// the assertion's message (never the checks' source). Hints open one after another; the solution
// opens on request or by itself after data-max-attempts failures. Attempts, hints opened and the
// passed state persist in localStorage (the editor's code persists through the cell itself).
import { cellsByRoot } from "../cells.js";
import { sharedPythonWorker } from "../python-worker.js";
import { renderItem, renderNotes, renderTraceback } from "../output.js";
import { bnDigits, enhanceAll, format, pageKey, store, strings } from "./common.js";

let checkRuns = 0;

/** Run one request of the exercise in the shared worker; resolves to the result ({ok, error,
 * message, ...}). While it is queued or running, the editor cell's own Stop button stops it (a
 * reader's `while True:` must never leave the page stuck), exactly as for a Run. */
function runJob(request, handlers, cell) {
  return new Promise((resolve) => {
    const finish = (result) => {
      cell.jobId = null;
      cell.setState("idle");
      resolve(result);
    };
    cell.setState("queued"); // "running" as soon as the worker takes it (maybe at once)
    cell.jobId = sharedPythonWorker().run(request, {
      ...handlers,
      onStart: () => cell.setState("running"),
      onDone: (result) => finish(result),
      onFatal: (reason) => finish({ ok: false, error: "fatal", message: reason, fatal: true }),
      onStopped: () => finish({ ok: false, error: "stopped", message: "", fatal: true }),
    });
  });
}

// The checks run in the reader's namespace; afterwards the namespace is emptied so that the
// next attempt starts afresh and nothing is kept. JSON string syntax is valid Python here.
const checksProgram = (checks) =>
  `try:\n    exec(compile(${JSON.stringify(checks)}, "<checks>", "exec"), globals())\nfinally:\n    globals().clear()\n`;

class Exercise {
  constructor(root) {
    this.root = root;
    this.key = pageKey("exercise", root.dataset.id);
    this.maxAttempts = Math.max(1, Number(root.dataset.maxAttempts) || 1);
    this.checks = root.dataset.checks;
    this.cellRoot = root.querySelector("[data-cell-id]");
    this.feedback = root.querySelector("[data-feedback]");
    this.checkButton = root.querySelector('[data-action="check"]');
    this.hints = [...root.querySelectorAll("[data-hint]")];
    this.solution = root.querySelector("[data-solution]");
    this.solutionLabel = this.solution.querySelector("summary");

    const saved = store.get(this.key, {});
    this.state = {
      attempts: Number.isInteger(saved?.attempts) && saved.attempts >= 0 ? saved.attempts : 0,
      passed: saved?.passed === true,
      hints: Number.isInteger(saved?.hints) ? Math.min(Math.max(saved.hints, 0), this.hints.length) : 0,
    };
    this.hints.forEach((hint, index) => {
      hint.open = index < this.state.hints;
      hint.addEventListener("toggle", () => this.hintToggled());
    });
    this.showHints();
    this.solution.addEventListener("toggle", () => this.syncSolution());
    if (!this.state.passed && this.state.attempts >= this.maxAttempts) this.solution.open = true;
    this.syncSolution();
    this.checkButton.addEventListener("click", () => this.check());
    this.setState(this.state.passed ? "passed" : "idle");
    if (this.state.passed) this.say(strings["exercise.passed.before"]);
    else if (this.state.attempts) this.say(format("exercise.attempts", { n: bnDigits(this.state.attempts) }));
  }

  get cell() { return cellsByRoot.get(this.cellRoot); }

  save() { store.set(this.key, this.state); }

  setState(state) {
    this.root.dataset.state = state;
    this.root.dataset.attempts = String(this.state.attempts);
    this.checkButton.setAttribute("aria-disabled", String(state === "checking"));
  }

  say(...lines) {
    this.feedback.replaceChildren(...lines.filter(Boolean).map((line, index) => {
      const p = document.createElement("p");
      if (index === 0) p.className = "pz-feedback-message";
      p.textContent = line;
      return p;
    }));
  }

  // Only the first closed hint is offered: hint n+1 appears once hint n has been opened.
  showHints() {
    let offered = false;
    for (const hint of this.hints) {
      hint.hidden = !hint.open && offered;
      if (!hint.open) offered = true;
    }
  }

  hintToggled() {
    const opened = this.hints.filter((hint) => hint.open).length;
    this.state.hints = Math.max(this.state.hints, opened);
    this.save();
    this.showHints();
  }

  syncSolution() {
    this.solutionLabel.textContent = strings[this.solution.open ? "exercise.solution.hide" : "exercise.solution.show"];
  }

  async check() {
    const cell = this.cell;
    if (!cell || this.root.dataset.state === "checking") return;
    this.setState("checking");
    this.say(strings["exercise.checking"]);
    const session = `__pathshala_exercise__:${this.root.dataset.id}:${++checkRuns}:${Date.now()}`;
    const progress = { setStatus: (text) => this.say(text) };
    // The reader's code runs like the cell's own Run: its output lands under the editor.
    cell.output.replaceChildren();
    cell.notes.replaceChildren();
    cell.origin.textContent = strings["cell.output.live"];
    const ran = await runJob({ code: cell.code, session, figurePrefix: `${cell.id}-${Date.now()}` },
      { owner: this.root, cell: progress, onItem: (item) => renderItem(cell.output, item) }, cell);
    if (ran.fatal) { this.setState(this.state.passed ? "passed" : "idle"); this.say(strings["exercise.stopped"]); return; }
    renderNotes(cell.notes, ran, strings);
    let outcome = ran;
    if (ran.ok) outcome = await runJob({ code: checksProgram(this.checks), session, figurePrefix: "checks" }, { owner: this.root, cell: progress }, cell);
    else {
      renderTraceback(cell.output, ran.traceback);
      await runJob({ code: "globals().clear()", session }, { owner: this.root }, cell);
    }
    if (outcome.fatal) { this.setState(this.state.passed ? "passed" : "idle"); this.say(strings["exercise.stopped"]); return; }
    if (outcome.ok) {
      this.state.passed = true;
      this.save();
      this.setState("passed");
      this.say(strings["exercise.passed"]);
      return;
    }
    this.state.attempts += 1;
    this.save();
    this.setState("failed");
    let message;
    if (!ran.ok) message = format("exercise.code.error", { error: ran.error, message: ran.message });
    else if (outcome.error === "AssertionError" && outcome.message) message = format("exercise.failed", { message: outcome.message });
    else if (outcome.message) message = format("exercise.failed", { message: `${outcome.error}: ${outcome.message}` });
    else message = format("exercise.failed.silent", { error: outcome.error });
    let offered = null;
    if (this.state.attempts >= this.maxAttempts && !this.solution.open) {
      this.solution.open = true;
      offered = format("exercise.solution.offered", { n: bnDigits(this.state.attempts) });
    }
    this.say(message, format("exercise.attempts", { n: bnDigits(this.state.attempts) }), offered);
  }
}

export function enhanceExercises() { enhanceAll('[data-component="exercise"]', Exercise); }
