// "Predict the output": the answer is the cell's build-time output inside a <details>; this keeps
// data-state and the label in step and remembers that the reader has looked. The cell itself
// shows that output blurred (data-awaiting-prediction, cells.css) until the reader opens the
// answer, runs the cell or asks to see it (the last two: cells/cell.js): a prediction is made
// before the output is read.
import { enhanceAll } from "../lib/dom.js";
import { pageKey, store } from "../lib/store.js";
import { strings } from "../lib/text.js";

class Predict {
  constructor(root) {
    const details = root.querySelector("[data-answer]");
    const summary = details.querySelector("summary");
    const key = pageKey("predict", root.dataset.id);
    if (store.get(key, false) === true) details.open = true;
    const sync = () => {
      root.dataset.state = details.open ? "open" : "closed";
      summary.textContent = strings[details.open ? "predict.hide" : "predict.show"];
      if (details.open) { store.set(key, true); unveil(cell); }
      else store.remove(key);
    };
    const cell = document.querySelector(`[data-cell-id="${CSS.escape(root.dataset.cell)}"]`);
    details.addEventListener("toggle", sync);
    sync();
  }
}

function unveil(cell) {
  cell?.removeAttribute("data-awaiting-prediction");
}

export function enhance() { enhanceAll('[data-component="predict"]', Predict); }
