// Hidden answers: <details> does the opening and the keyboard; this keeps data-state and the label in step.
import { enhanceAll } from "../lib/dom.js";
import { strings } from "../lib/text.js";

class Reveal {
  constructor(root) {
    const details = root.querySelector("[data-answer]");
    const summary = details.querySelector("summary");
    const sync = () => {
      root.dataset.state = details.open ? "open" : "closed";
      summary.textContent = strings[details.open ? "reveal.hide" : "reveal.show"];
    };
    details.addEventListener("toggle", sync);
    sync();
  }
}

export function enhance() { enhanceAll('[data-component="reveal"]', Reveal); }
