// The step-through view of a traced run (py_lessons.runtime.trace records it; protocol.js's RUN
// with `trace`): a slider and previous/next (←/→), the step's line marked in the editor, the
// variables of the step's frame after that line ran (the ones it changed marked), the calls around
// it, and the output written up to it. A step records only what its line changed; the view replays
// those changes up to the chosen step. Every label from the catalogue; counts in Bangla digits;
// values as Python wrote them (code). Test hooks: [data-trace] with data-trace-steps and
// data-trace-line, [data-trace-step] (the slider), [data-trace-vars] > [data-var][data-summary].
import { bnDigits, format, strings } from "../lib/text.js";

const grouped = (n) => Number(n).toLocaleString("en-US"); // "2,000": format() writes it in Bangla digits
const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** A summary's number in Bangla prose: four significant digits, plain from 10⁻⁴ to 10⁶, else as a
 * power of ten ("৯.৮ × ১০⁻⁷"), as runtime/numbers.py writes numbers in prose; "inf"/"nan" (what
 * JSON cannot carry as a number) as they come. */
function spoken(x) {
  if (typeof x !== "number") return String(x);
  const size = Math.abs(x);
  if (size === 0 || (size >= 1e-4 && size < 1e6)) return bnDigits(String(Number(x.toPrecision(4))));
  const [mantissa, exponent] = x.toExponential(3).split("e");
  return `${bnDigits(String(Number(mantissa)))} × ১০${[...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join("")}`;
}

const SCALARS = new Set(["int", "float", "bool", "NoneType", "complex", "str"]);
// a function's name as the reader wrote it: Python names a lambda or a generator expression in brackets
const named = (fn) => ({ "<lambda>": "lambda", "<genexpr>": "generator" }[fn] ?? `${fn.replace(/^<(\w+)>$/, "$1")}()`);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(action, label, text) {
  const node = element("button", "pycell-button", text);
  node.type = "button";
  node.dataset.traceAction = action;
  node.setAttribute("aria-label", label);
  return node;
}

/** A value's summary as the panel shows it: Python's short text, and for an array its shape,
 * range, NaN/inf counts and corner. */
function describe(summary) {
  const box = element("div", "pycell-trace-value");
  if (summary.kind !== "ndarray") {
    box.append(element("code", "", summary.text));
    return box;
  }
  const shape = summary.shape.length === 1 ? `(${summary.shape[0]},)` : `(${summary.shape.join(", ")})`;
  const head = element("span", "", strings["trace.array"]);
  head.append(" ", element("code", "", `${shape} ${summary.dtype}`));
  box.append(head);
  if (summary.min !== undefined) {
    const key = summary.nan || summary.inf ? "trace.array.range.finite" : "trace.array.range";
    box.append(element("span", "", format(key, { min: spoken(summary.min), max: spoken(summary.max), mean: spoken(summary.mean) })));
  }
  if (summary.nan || summary.inf) box.append(element("span", "pycell-trace-bad", format("trace.array.bad", { nan: summary.nan, inf: summary.inf })));
  if (summary.corner?.length) {
    const rows = Array.isArray(summary.corner[0]) ? summary.corner : [summary.corner];
    const table = element("table", "pycell-trace-corner");
    table.append(element("caption", "", strings["trace.array.corner"]));
    const body = table.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      for (const value of row) tr.append(element("td", "", String(value)));
    }
    box.append(table);
  }
  return box;
}

export class TraceView {
  /** `cell`: the Cell; `trace`: the run's report; `items`: the run's output items in order. */
  constructor(cell, trace, items) {
    this.cell = cell;
    this.steps = trace.steps;
    this.items = items;
    this.root = element("section", "pycell-trace");
    this.root.dataset.trace = "";
    this.root.dataset.traceSteps = String(this.steps.length);
    this.root.setAttribute("aria-label", strings["trace.title"]);
    this.root.append(element("p", "pycell-trace-title", strings["trace.title"]));
    if (!this.steps.length) {
      this.root.append(element("p", "pycell-trace-note", strings["trace.empty"]));
      this.root.append(this.closeButton());
      return;
    }
    const bar = element("div", "pycell-trace-bar");
    this.prev = button("prev", strings["trace.prev"], "◀");
    this.next = button("next", strings["trace.next"], "▶");
    this.slider = element("input", "pycell-trace-slider");
    Object.assign(this.slider, { type: "range", min: "1", max: String(this.steps.length), value: "1", step: "1" });
    this.slider.dataset.traceStep = "";
    this.slider.setAttribute("aria-label", strings["trace.slider"]);
    this.count = element("span", "pycell-trace-count");
    bar.append(this.prev, this.slider, this.next, this.count);
    this.said = element("p", "pycell-trace-said");
    this.said.setAttribute("aria-live", "polite");
    this.vars = element("div", "pycell-trace-vars");
    this.vars.dataset.traceVars = "";
    this.vars.tabIndex = 0; // a wide array corner scrolls inside it: the keyboard reaches it too
    this.stack = element("div", "pycell-trace-stack");
    this.output = element("pre", "pycell-trace-output");
    this.output.tabIndex = 0; // a wide line scrolls inside its box: the keyboard reaches it too
    const body = element("div", "pycell-trace-body");
    const varsBox = element("div", "pycell-trace-panel");
    varsBox.append(element("h4", "", strings["trace.vars"]), this.vars);
    const stackBox = element("div", "pycell-trace-panel");
    stackBox.append(element("h4", "", strings["trace.stack"]), this.stack);
    const outputBox = element("div", "pycell-trace-panel");
    outputBox.append(element("h4", "", strings["trace.output"]), this.output);
    body.append(varsBox, stackBox, outputBox);
    const notes = [strings["trace.session"]];
    if (trace.limited) notes.unshift(format("trace.limited", { n: grouped(this.steps.length) }));
    this.root.append(bar, this.said, body, ...notes.map((text) => element("p", "pycell-trace-note", text)), this.closeButton());
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value) - 1));
    this.prev.addEventListener("click", () => this.show(this.index - 1));
    this.next.addEventListener("click", () => this.show(this.index + 1));
    this.root.addEventListener("keydown", (event) => {
      if (event.target === this.slider || !["ArrowLeft", "ArrowRight"].includes(event.key)) return;
      event.preventDefault();
      this.show(this.index + (event.key === "ArrowRight" ? 1 : -1));
    });
  }

  closeButton() {
    const close = element("button", "pycell-button pycell-trace-close", strings["trace.close"]);
    close.type = "button";
    close.dataset.traceAction = "close";
    close.addEventListener("click", () => this.cell.closeTrace());
    return close;
  }

  /** Step `index` (0-based): the frame's variables after its line ran, and all the rest. */
  show(index) {
    if (!this.steps.length) return;
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    const step = this.steps[this.index];
    this.slider.value = String(this.index + 1);
    this.count.textContent = format("trace.count", { step: grouped(this.index + 1), steps: grouped(this.steps.length) });
    this.slider.setAttribute("aria-valuetext", this.count.textContent);
    this.prev.disabled = this.index === 0;
    this.next.disabled = this.index === this.steps.length - 1;
    this.root.dataset.traceLine = String(step.line);
    this.cell.markTraceLine(step.line);
    this.showVariables(step);
    this.showStack(step);
    this.showOutput(step.out);
    this.said.textContent = this.sentence(step);
  }

  /** The variables of `step`'s frame, replayed from the frame's first step. */
  frameState(step) {
    const values = new Map();
    for (let i = 0; i <= this.index; i += 1) {
      const earlier = this.steps[i];
      if (earlier.frame !== step.frame) continue;
      for (const [name, summary] of Object.entries(earlier.changed)) values.set(name, summary);
      for (const name of earlier.gone ?? []) values.delete(name);
    }
    return values;
  }

  showVariables(step) {
    const values = this.frameState(step);
    if (!values.size) {
      this.vars.replaceChildren(element("p", "pycell-trace-none", strings["trace.vars.none"]));
      return;
    }
    const table = element("table", "pycell-trace-table");
    const head = table.createTHead().insertRow();
    for (const key of ["trace.var.name", "trace.var.value"]) head.append(element("th", "", strings[key]));
    const body = table.createTBody();
    for (const [name, summary] of values) {
      const row = body.insertRow();
      row.dataset.var = name;
      row.dataset.summary = summary.text;
      const changed = name in step.changed;
      if (changed) row.dataset.changed = "";
      const nameCell = element("th", "", "");
      nameCell.scope = "row";
      nameCell.append(element("code", "", name));
      if (changed) {
        const mark = element("span", "pycell-trace-changed", " ●");
        mark.setAttribute("aria-hidden", "true");
        nameCell.append(mark, element("span", "pycell-visually-hidden", strings["trace.var.changed"]));
      }
      // the kind under the name: two columns leave the value room on a phone
      const count = format(summary.kind === "str" ? "trace.len.str" : "trace.len", { n: grouped(summary.len) });
      const kind = summary.len !== undefined ? `${summary.kind}, ${count}` : summary.kind;
      nameCell.append(element("span", "pycell-trace-kind", kind));
      row.append(nameCell);
      const value = element("td");
      value.append(describe(summary));
      row.append(value);
    }
    this.vars.replaceChildren(table);
  }

  showStack(step) {
    const list = element("ol", "pycell-trace-calls");
    const frameName = (name) => (name ? named(name) : strings["trace.stack.cell"]);
    for (const [name, line] of step.stack ?? []) {
      list.append(element("li", "", name === "…" ? format("trace.stack.more", { n: line })
        : `${frameName(name)}: ${format("trace.line", { line })}`));
    }
    const here = element("li", "pycell-trace-here", `${frameName(step.fn)}: ${format("trace.line", { line: step.line })}`);
    list.append(here);
    this.stack.replaceChildren(list);
  }

  /** The output written before the step's end: text up to `units` characters, a figure as a note. */
  showOutput(units) {
    let left = units;
    let text = "";
    for (const item of this.items) {
      if (left <= 0) break;
      if (item.type === "figure") { text += `${strings["trace.figure"]}\n`; left -= 1; continue; }
      text += item.text.slice(0, left);
      left -= item.text.length;
    }
    this.output.textContent = text || strings["trace.output.none"];
  }

  sentence(step) {
    if (step.exception) return format("trace.said.exception", { line: step.line, error: step.exception });
    const given = step.returned ?? step.yielded;
    if (given) {
      return format(step.returned ? "trace.said.returned" : "trace.said.yielded",
                    { line: step.line, fn: named(step.fn), value: given.text });
    }
    // a number or a short text said as it is; an array or a list by its name only (its summary is
    // in the panel, not a sentence)
    const changes = Object.entries(step.changed).map(([name, summary]) => (SCALARS.has(summary.kind)
      ? format("trace.said.change", { name, value: summary.text }) : format("trace.said.change.whole", { name })));
    return changes.length ? format("trace.said.changed", { line: step.line, changes: changes.join(", ") })
      : format("trace.said.same", { line: step.line });
  }
}
