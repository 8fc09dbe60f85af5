// "Predict the output": the answer is the cell's build-time output inside a <details>; this keeps
// data-state and the label in step and remembers that the reader has looked. The cell itself
// shows that output blurred (data-awaiting-prediction, cells.css) until the reader opens the
// answer, runs the cell or asks to see it (the last two: cells/cell.js): a prediction is made
// before the output is read. Having looked, the reader says whether it matched: a prediction has
// no answer to check, so that verdict is its first answer for review (lib/first-answer.js), said
// once; on the review page the same card, with the cell's code, asks it again.
import { CONTENT_SHOWN, enhanceAll } from "../lib/dom.js";
import { answered, firstAnswer } from "../lib/first-answer.js";
import { REVIEW_SETTING, pageKey, store } from "../lib/store.js";
import { strings } from "../lib/text.js";

class Predict {
  constructor(root) {
    this.root = root;
    const details = root.querySelector("[data-answer]");
    const summary = details.querySelector("summary");
    const reviewing = root.closest("[data-review-item]") !== null; // nothing of the lesson's here
    this.inLesson = !reviewing;
    const key = pageKey("predict", root.dataset.id);
    if (!reviewing && store.get(key, false) === true) details.open = true;
    const cell = reviewing ? null : document.querySelector(`[data-cell-id="${CSS.escape(root.dataset.cell)}"]`);
    const sync = () => {
      root.dataset.state = details.open ? "open" : "closed";
      summary.textContent = strings[details.open ? "predict.hide" : "predict.show"];
      if (reviewing) return;
      if (details.open) { store.set(key, true); unveil(cell); }
      else store.remove(key);
    };
    details.addEventListener("toggle", sync);
    sync();
    // the answer's body, buttons included, may arrive only when opened (site/deferred.js)
    this.verdict = reviewing ? null : firstAnswer(root)?.correct ?? null;
    root.addEventListener("click", (event) => {
      const button = event.target.closest?.('[data-action="predict-grade"]');
      if (button) this.grade(button.dataset.grade === "right");
    });
    document.addEventListener(CONTENT_SHOWN, (event) => { if (event.detail === details) this.show(); });
    this.show();
  }

  /** The reader's verdict: the first one is kept (in review, told to the page); then it is shown. */
  grade(correct) {
    if (this.verdict !== null) return;
    this.verdict = correct;
    answered(this.root, correct, true);
    this.show();
    const status = this.root.querySelector("[data-grade-status]");
    status.tabIndex = -1; // the button pressed is disabled now: focus stays in the card
    status.focus();
  }

  show() {
    const status = this.root.querySelector("[data-grade-status]");
    if (this.verdict === null || !status) return;
    this.root.dataset.graded = this.verdict ? "right" : "wrong";
    for (const button of this.root.querySelectorAll('[data-action="predict-grade"]')) {
      button.disabled = true;
      button.setAttribute("aria-pressed", String((button.dataset.grade === "right") === this.verdict));
    }
    const said = strings[this.verdict ? "predict.grade.said.right" : "predict.grade.said.wrong"];
    // the lesson says it comes back, unless the reader turned review off
    const comesBack = this.inLesson && store.get(REVIEW_SETTING) !== "off";
    status.textContent = comesBack ? `${said} ${strings["predict.grade.review"]}` : said;
  }
}

function unveil(cell) {
  cell?.removeAttribute("data-awaiting-prediction");
}

export function enhance() { enhanceAll('[data-component="predict"]', Predict); }
