// Explorable figures: sliders bound to a Python function of the course. The build drew the
// default figure; a moved slider redraws it with py_lessons.runtime.explorables.render in the
// shared Pyodide worker (the same call the build made, so the same values give the same SVG).
// The first change after a rest draws at once (a tap or an arrow key answers without waiting); the
// changes that follow it within DEBOUNCE_MS of each other are one drawing, once the slider rests.
// Never a queue: at most one drawing in flight, plus the newest values waiting; values in between
// are skipped.
import { sharedPythonWorker } from "../python/python-worker.js";
import { TO_PYTHON } from "../python/protocol.js";
import { sanitizeSvg } from "../cells/output.js";
import { enhanceAll } from "../lib/dom.js";
import { bnDigits, format, loaderMessage, strings } from "../lib/text.js";
import { progressToJob } from "./stepper.js";

const MODULE = "py_lessons.runtime.explorables";
const DEBOUNCE_MS = 50; // a held arrow key repeats every ~30 ms: one drawing per pause, not per step

// An explorable within two screens of the viewport has Python load what its function imports
// (matplotlib and the Bangla font: several MB) while the reader reads towards it, so the first
// move of a slider draws at once instead of waiting for the download; not for a reader who asked
// to save data, whose download starts when they reach for a slider.
const explorables = new WeakMap();
const nearby = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    nearby.unobserve(entry.target);
    explorables.get(entry.target)?.prepare();
  }
}, { rootMargin: "200% 0px" });

/** A slider's value as the build writes it (explorables.value_text): Bangla digits at the grid's
 * decimals, the typographic minus, then the unit. */
function valueText(value, input) {
  const text = bnDigits(Number(value).toFixed(Number(input.dataset.places))).replace(/-/g, "\u2212");
  return input.dataset.unit ? `${text} ${input.dataset.unit}` : text;
}

class Explorable {
  constructor(root) {
    this.root = root;
    this.figure = root.querySelector("[data-figure]");
    this.status = root.querySelector("[data-status]");
    this.caption = root.querySelector(".pz-explorable-caption").textContent;
    this.inputs = [...root.querySelectorAll("input[data-param]")];
    this.initial = this.inputs.map((input) => input.value);
    this.buildFigure = [...this.figure.childNodes].map((node) => node.cloneNode(true));
    this.pending = null;      // the newest values not drawn yet
    this.drawing = false;     // a drawing is in flight
    this.generation = 0;      // bumped by reset: answers for older values are dropped
    this.computations = 0;
    this.timer = null;
    this.followed = false; // a change came after the one drawn at once: draw again at the rest
    for (const input of this.inputs) {
      input.disabled = false;
      input.addEventListener("input", () => this.changed(input));
    }
    const reset = root.querySelector('[data-action="reset"]');
    reset.disabled = false;
    reset.addEventListener("click", () => this.reset());
    // ...and at the latest as soon as the reader reaches for a slider
    const prepare = () => this.prepare();
    root.addEventListener("focusin", prepare, { once: true });
    root.addEventListener("pointerdown", prepare, { once: true });
    explorables.set(root, this);
    if (!navigator.connection?.saveData) nearby.observe(root);
  }

  /** Python loads what the function imports; the status says how far, in one line. */
  prepare() {
    if (this.preparing) return;
    this.preparing = true;
    const idle = () => !this.drawing && !this.pending;
    sharedPythonWorker({ onProgress: progressToJob }).warm([this.root.dataset.imports], [], {
      progress: (progress) => { if (idle()) this.setState("preparing", loaderMessage(progress)); },
      done: () => { if (this.root.dataset.state === "preparing") this.setState("ready", strings["explorable.prepared"]); },
    });
  }

  setState(state, message) {
    this.root.dataset.state = state;
    this.status.textContent = message;
  }

  showValue(input) {
    const text = valueText(input.value, input);
    input.setAttribute("aria-valuetext", text);
    this.root.querySelector(`output[data-value-of="${input.dataset.param}"]`).textContent = text;
  }

  changed(input) {
    this.showValue(input);
    this.changedAt = performance.now();
    const resting = this.timer === null;
    clearTimeout(this.timer);
    if (resting) this.request(); // the leading change
    this.followed = !resting;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.followed) this.request();
    }, DEBOUNCE_MS);
  }

  request() {
    const values = Object.fromEntries(this.inputs.map((input) => [input.dataset.param, Number(input.value)]));
    this.pending = { values, changedAt: this.changedAt, generation: this.generation };
    if (!this.drawing) this.drawPending();
  }

  async drawPending() {
    this.drawing = true;
    let answer = null;
    while (this.pending) {
      const job = this.pending;
      this.pending = null;
      this.setState("computing", strings["explorable.computing"]);
      answer = await this.draw(job.values);
      this.computations += 1;
      this.root.dataset.computations = String(this.computations);
      if (job.generation !== this.generation) { answer = null; continue; } // reset meanwhile
      const svg = answer.ok ? sanitizeSvg(answer.value.svg) : null;
      if (svg) this.show(svg, answer.value.values, job.changedAt);
      else if (answer.ok) answer = { ok: false, message: "" };
    }
    this.drawing = false;
    if (!answer) return; // a reset already put the build's figure back
    if (answer.ok) this.setState("ready", strings["explorable.ready"]);
    else this.setState("error", format("explorable.error", { message: answer.message }));
  }

  /** One call of render in the worker, after the packages its imports name (matplotlib). */
  draw(values) {
    const worker = sharedPythonWorker({ onProgress: progressToJob });
    const request = {
      type: TO_PYTHON.CALL, module: MODULE, function: "render", imports: this.root.dataset.imports,
      // the build's frame: every position is drawn into it, once (explorables.render)
      kwargs: JSON.stringify({
        name: this.root.dataset.function, frame: JSON.parse(this.root.dataset.frame), ...values,
      }),
    };
    return new Promise((resolve) => {
      worker.run(request, {
        owner: this.root,
        cell: { setStatus: (text) => { this.status.textContent = text; } }, // loading progress
        onDone: (result, seconds) => { this.root.dataset.pythonMs = String(Math.round(seconds * 1000)); resolve(result); },
        onFatal: (reason) => resolve({ ok: false, error: "fatal", message: reason }),
        onStopped: () => resolve({ ok: false, error: "stopped", message: "" }),
      });
    });
  }

  show(svg, values, changedAt) {
    const spoken = this.inputs.map((input) => `${input.labels[0].textContent} ${valueText(values[input.dataset.param], input)}`)
      .join("; ");
    svg.setAttribute("aria-label", format("explorable.figure", { caption: this.caption, values: spoken }));
    this.figure.replaceChildren(svg);
    this.root.dataset.values = JSON.stringify(values); // the values the figure shows (a test hook)
    // for the benchmark (tests/support/bench.py): slider change -> new figure in the DOM
    this.root.dataset.updateMs = String(Math.round(performance.now() - changedAt));
  }

  reset() {
    clearTimeout(this.timer);
    this.timer = null;
    this.generation += 1;
    this.pending = null;
    this.inputs.forEach((input, i) => { input.value = this.initial[i]; this.showValue(input); });
    this.figure.replaceChildren(...this.buildFigure.map((node) => node.cloneNode(true)));
    this.setState("ready", strings["explorable.restored"]);
  }
}

export function enhance() { enhanceAll('[data-component="explorable"]', Explorable); }
