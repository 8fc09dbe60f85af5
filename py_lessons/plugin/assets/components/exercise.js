// Code exercises: the editor is an ordinary runnable cell (cells/cell.js); "check" asks that cell, through
// its API (cellAt), to run the reader's code and then the hidden checks in one fresh namespace
// (py_lessons.runtime.checking, the same code the build verifies each exercise with), and reports
// the assertion's message (never the checks' source). Hints open one after another; the solution
// opens on request or by itself after data-max-attempts failures. Attempts, hints opened and the
// passed state persist in localStorage (the editor's code persists through the cell itself).
import { cellAt } from "../cells/cell.js";
import { enhanceAll } from "../lib/dom.js";
import { pageKey, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";

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

  get cell() { return cellAt(this.cellRoot); }

  save() { store.set(this.key, this.state); }

  setState(state) {
    this.root.dataset.state = state;
    this.root.dataset.attempts = String(this.state.attempts);
    this.checkButton.setAttribute("aria-disabled", String(state === "checking"));
  }

  /** Each line a paragraph; a line {text, code} ends with Python's own words as code, after the
   * Bangla, never inside a Bangla sentence. */
  say(...lines) {
    this.feedback.replaceChildren(...lines.filter(Boolean).map((line, index) => {
      const p = document.createElement("p");
      if (index === 0) p.className = "pz-feedback-message";
      p.textContent = line.text ?? line;
      if (line.code) {
        const code = document.createElement("code");
        code.textContent = line.code;
        p.append(" ", code);
      }
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
    const outcome = await cell.check(this.checks, { onStatus: (text) => this.say(text) });
    if (outcome.stopped || outcome.busy) {
      this.setState(this.state.passed ? "passed" : "idle");
      this.say(strings["exercise.stopped"]);
      return;
    }
    const { stage, result } = outcome;
    if (stage === "checks" && result.ok) {
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
    const python = result.message ? `${result.error}: ${result.message}` : result.error;
    // an author's check speaks Bangla (its AssertionError message); anything else is Python's
    if (stage === "code") message = { text: strings["exercise.code.error"], code: python };
    else if (result.error === "AssertionError" && result.message) message = format("exercise.failed", { message: result.message });
    else message = { text: strings["exercise.failed.python"], code: python };
    let offered = null;
    if (this.state.attempts >= this.maxAttempts && !this.solution.open) {
      this.solution.open = true;
      offered = format("exercise.solution.offered", { n: bnDigits(this.state.attempts) });
    }
    this.say(message, format("exercise.attempts", { n: bnDigits(this.state.attempts) }), offered);
    this.offerTrace();
  }

  /** After a failed check: step through the reader's code as the checks ran it, the failing case
   * included (the checks' own lines stay hidden); the view opens in the editor's cell. */
  offerTrace() {
    const offer = document.createElement("button");
    offer.type = "button";
    offer.className = "pz-button";
    offer.dataset.action = "trace-check";
    offer.textContent = strings["exercise.trace"];
    offer.addEventListener("click", async () => {
      offer.disabled = true;
      await this.cell?.check(this.checks, { trace: {} }); // its outcome is the last Check's: only the steps are new
      offer.disabled = false;
      this.root.querySelector("[data-trace]")?.scrollIntoView({ block: "nearest" });
    });
    this.feedback.append(offer);
  }
}

export function enhance() { enhanceAll('[data-component="exercise"]', Exercise); }
