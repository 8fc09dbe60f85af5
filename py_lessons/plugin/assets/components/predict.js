// "Predict the output": the answer is the cell's build-time output inside a <details>; this keeps
// data-state and the label in step and remembers that the reader has looked.
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
      if (details.open) store.set(key, true);
      else store.remove(key);
    };
    details.addEventListener("toggle", sync);
    sync();
  }
}

export function enhance() { enhanceAll('[data-component="predict"]', Predict); }
