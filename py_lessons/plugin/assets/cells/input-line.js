// The line field under a cell's output while Python's input(prompt) waits for the reader: Enter
// (or Send) hands the line to the worker (python/python-worker.js sendInput).
import { strings } from "../lib/text.js";

/** Show the field for `prompt` under `cell`'s output; `onSent()` once the line went to Python. */
export function askLine(cell, worker, prompt, onSent) {
  const form = document.createElement("form");
  form.className = "pycell-input";
  form.dataset.inputForm = "";
  const label = document.createElement("label");
  const field = document.createElement("input");
  field.id = `${cell.id}-input`;
  label.htmlFor = field.id;
  label.textContent = prompt.trim() || strings["cell.input.label"];
  Object.assign(field, { type: "text", autocomplete: "off", spellcheck: false });
  field.dataset.input = "";
  field.setAttribute("aria-describedby", `${cell.id}-input-hint`);
  const hint = document.createElement("span");
  hint.id = `${cell.id}-input-hint`;
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
    if (!worker.sendInput(cell.jobId, field.value)) return;
    cell.buttons.stop.focus(); // focus must not fall to the page when the field goes
    onSent();
  });
  cell.output.after(form);
  cell.setStatus(strings["cell.input.label"]);
  field.focus();
}
