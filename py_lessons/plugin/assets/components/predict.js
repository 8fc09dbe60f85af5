// "Predict the output": the answer is the cell's build-time output inside a <details>; this keeps
// data-state and the label in step and remembers that the reader has looked.
import { enhanceAll, pageKey, store, strings } from "./common.js";

class Predict {
  constructor(root) {
    const details = root.querySelector("[data-answer]");
    const summary = details.querySelector("summary");
    const key = pageKey("predict", root.dataset.id);
    if (store.get(key, false) === true) details.open = true;
    const sync = () => {
      root.dataset.state = details.open ? "open" : "closed";
      summary.textContent = strings[details.open ? "predict.hide" : "predict.show"];
      if (details.open) store.set(key, true);
      else store.remove(key);
    };
    details.addEventListener("toggle", sync);
    sync();
  }
}

export function enhancePredicts() { enhanceAll('[data-component="predict"]', Predict); }
