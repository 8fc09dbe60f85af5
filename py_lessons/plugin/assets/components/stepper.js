// Steppers: rows of a worked calculation revealed one at a time (buttons, ← → keys). An editable
// stepper re-runs the same py_lessons.runtime.steppers function in the shared Pyodide worker. A
// stepper with a question (render/components/stepper.py's ask) asks, one row before it, what that
// row will show: the first answer enters review (lib/first-answer.js), where the card starts there.
import { sharedPythonWorker } from "../python/python-worker.js";
import { enhanceAll, showDeferred } from "../lib/dom.js";
import { answered } from "../lib/first-answer.js";
import { bnDigits, format, loaderMessage, strings } from "../lib/text.js";

const ASK_TOLERANCE = 0.01; // relative, as the build checks the question (stepper.py)
const BANGLA_DIGITS = "০১২৩৪৫৬৭৮৯";

/** The reader's number: Bangla or ASCII digits, the typographic minus; NaN for anything else. */
function readNumber(typed) {
  const plain = typed.trim().replace(/[০-৯]/g, (digit) => String(BANGLA_DIGITS.indexOf(digit)))
    .replace(/[−–]/g, "-").replace(/\s+/g, "");
  return plain === "" ? NaN : Number(plain);
}

const MODULE = "py_lessons.runtime.steppers";

function rowHtml(step, number) {
  const tr = document.createElement("tr");
  tr.className = "pz-step";
  tr.dataset.row = String(number);
  const th = document.createElement("th");
  th.scope = "row";
  th.className = "pz-step-no";
  th.textContent = bnDigits(number);
  const what = document.createElement("td");
  what.className = "pz-step-what";
  for (const [cls, value] of [["pz-step-title", step.title], ["pz-step-note", step.note]]) {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = value;
    what.append(span);
  }
  const cell = (cls, value) => {
    const td = document.createElement("td");
    td.className = cls;
    const code = document.createElement("code");
    // each word whole on its line, as the build writes it (render/components/stepper.py): a span
    // only for a word the browser could break inside
    for (const part of String(value).split(/(\s+)/)) {
      if (!/^(?=.*[^\p{L}\p{N}_.,\s])\S{2,}$/u.test(part)) { code.append(part); continue; }
      const word = document.createElement("span");
      word.className = "pz-word";
      word.textContent = part;
      code.append(word);
    }
    td.append(code);
    return td;
  };
  tr.append(th, what, cell("pz-step-calc", step.calculation), cell("pz-step-result", step.result));
  return tr;
}

class Stepper {
  constructor(root) {
    this.root = root;
    this.body = root.querySelector("[data-rows]");
    this.position = root.querySelector("[data-position]");
    this.status = root.querySelector("[data-status]");
    this.buildRows = [...this.body.children].map((row) => row.cloneNode(true));
    this.buttons = Object.fromEntries([...root.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b]));
    this.buttons.prev.addEventListener("click", () => this.show(this.step - 1));
    this.buttons.next.addEventListener("click", () => this.show(this.step + 1));
    this.buttons.all.addEventListener("click", () => this.show(this.total));
    root.addEventListener("keydown", (event) => this.key(event));
    this.form = root.querySelector("[data-inputs]");
    if (this.form) {
      this.form.addEventListener("submit", (event) => { event.preventDefault(); this.recompute(); });
      this.buttons.reset.addEventListener("click", () => this.restore());
      this.form.addEventListener("focusin", () => sharedPythonWorker({ onProgress: progressToJob }).warm(), { once: true });
    }
    this.own = false; // the rows are the reader's own values (recompute): the question is not about them
    this.ask = root.querySelector("[data-ask]");
    if (this.ask) {
      this.askRow = Number(this.ask.dataset.askRow);
      this.askInput = this.ask.querySelector("[data-ask-input]");
      this.askFeedback = this.ask.querySelector("[data-ask-feedback]");
      this.asked = false;
      this.buttons["ask-check"].addEventListener("click", () => this.check());
      this.askInput.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); this.check(); } });
    }
    this.show(root.hasAttribute("data-reviewing") ? this.askRow - 1 : 1);
  }

  /** The reader's answer to the question: said, the row shown; the first one kept for review. */
  check() {
    const typed = readNumber(this.askInput.value);
    if (!Number.isFinite(typed)) {
      this.askFeedback.textContent = strings["stepper.ask.not_number"];
      delete this.askFeedback.dataset.state;
      return;
    }
    const value = Number(this.ask.dataset.askValue);
    const correct = Math.abs(typed - value) <= ASK_TOLERANCE * Math.abs(value) + 1e-12;
    answered(this.root, correct, !this.asked);
    this.asked = true;
    this.askFeedback.dataset.state = correct ? "right" : "wrong";
    this.askFeedback.textContent = format(correct ? "stepper.ask.right" : "stepper.ask.wrong",
      { n: bnDigits(this.askRow), value: bnDigits(this.ask.dataset.askShown) });
    this.show(Math.max(this.step, this.askRow));
  }

  get rows() { return [...this.body.querySelectorAll("[data-row]")]; }
  // the rows after the first arrive inert (render/components/stepper.py), until the reader steps on
  get total() { return this.rows.length + (this.body.querySelector(":scope > template")?.content.childElementCount ?? 0); }

  show(n) {
    const total = this.total;
    if (n > 1) showDeferred(this.body);
    this.step = Math.min(Math.max(n, 1), total);
    this.rows.forEach((row, index) => { row.hidden = index >= this.step; });
    this.root.dataset.step = String(this.step);
    this.root.dataset.total = String(total);
    if (this.root.dataset.state !== "error") this.root.dataset.state = this.step === total ? "complete" : "partial";
    this.buttons.prev.setAttribute("aria-disabled", String(this.step === 1));
    this.buttons.next.setAttribute("aria-disabled", String(this.step === total));
    this.position.textContent = format("stepper.position", { n: bnDigits(this.step), total: bnDigits(total) });
    // asked one row before its row; its answer stays in sight while the reader reads on
    if (this.ask) this.ask.hidden = this.own || this.step < this.askRow - 1 || (this.step >= this.askRow && !this.askFeedback.dataset.state);
  }

  key(event) {
    if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") { this.show(this.step + 1); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { this.show(this.step - 1); event.preventDefault(); }
  }

  replaceRows(rows) {
    this.body.replaceChildren(...rows);
    this.show(1);
  }

  async recompute() {
    const kwargs = { name: this.root.dataset.function };
    for (const input of this.form.querySelectorAll("input[name]")) kwargs[input.name] = input.value;
    this.root.dataset.state = "computing";
    this.status.textContent = strings["stepper.computing"];
    const worker = sharedPythonWorker({ onProgress: progressToJob });
    const answer = await worker.call(MODULE, "run_stepper", kwargs, { owner: this.root, cell: { setStatus: (t) => { this.status.textContent = t; } } });
    if (answer.ok) {
      this.root.dataset.state = "partial";
      this.own = true;
      this.replaceRows(answer.value.steps.map((step, i) => rowHtml(step, i + 1)));
      this.status.textContent = strings["stepper.done"];
    } else {
      this.root.dataset.state = "error";
      this.status.textContent = format("stepper.error", { message: answer.message });
    }
  }

  restore() {
    const initial = JSON.parse(this.root.dataset.initial || "{}");
    for (const input of this.form.querySelectorAll("input[name]")) {
      if (input.name in initial) input.value = initial[input.name];
    }
    this.root.dataset.state = "partial";
    this.own = false;
    this.replaceRows(this.buildRows.map((row) => row.cloneNode(true)));
    this.status.textContent = strings["stepper.restored"];
  }
}

/** Pyodide's loading progress goes to whichever job (cell or stepper) is waiting for it. */
export function progressToJob(progress, job) {
  job?.handlers.cell?.setStatus(loaderMessage(progress));
}

export function enhance() { enhanceAll('[data-component="stepper"]', Stepper); }
