// Review (render/components/review.py): the home page's line of what is due today, and the review
// page that asks the due questions one at a time, each the lesson's own question (quiz.js: the same
// checks and feedback), then says when it comes back. Cards: lib/review.js.
import { CONTENT_SHOWN, enhanceAll } from "../lib/dom.js";
import { WORK_CHANGED } from "../lib/store.js";
import { answeredInReview, postpone, reviewOn, reviewState, setReviewOn } from "../lib/review.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { REVIEW_ANSWERED } from "../lib/first-answer.js";
import { enhance as enhancePredictions } from "./predict.js";
import { enhance as enhanceQuestions } from "./quiz.js";
import { enhance as enhanceSteppers } from "./stepper.js";

const DAY_MS = 86_400_000;

/** A date as a reader says it: today, tomorrow, or "১২ ডিসেম্বর" (with the year when not this one). */
function shownDate(ms, now = new Date()) {
  const day = (date) => Math.floor((date.getTime() - date.getTimezoneOffset() * 60_000) / DAY_MS);
  const date = new Date(ms);
  const ahead = day(date) - day(now);
  if (ahead <= 0) return strings["review.date.today"];
  if (ahead === 1) return strings["review.date.tomorrow"];
  const month = strings["review.date.months"].split(",")[date.getMonth()];
  const text = `${bnDigits(date.getDate())} ${month}`;
  return date.getFullYear() === now.getFullYear() ? text : `${text} ${bnDigits(date.getFullYear())}`;
}

const questionsOf = (root) => JSON.parse(root.querySelector("[data-review-course]").textContent);

/** What is due today, said in one line; the count is the test hook data-review-due. */
function dueLine(state) {
  if (!reviewOn()) return strings["review.off"];
  if (state.due.length) return format("review.due", { n: state.due.length });
  if (state.later.length) return format("review.due.none", { date: shownDate(state.later[0].card.due) });
  return strings["review.due.empty"];
}

class ReviewDue {
  constructor(root) {
    this.root = root;
    this.questions = questionsOf(root);
    this.update();
    document.addEventListener(WORK_CHANGED, () => this.update());
  }

  update() {
    const state = reviewState(this.questions, new Date(), { retire: false });
    const due = reviewOn() ? state.due.length : 0;
    this.root.dataset.reviewDue = String(due);
    this.root.querySelector("[data-review-due-text]").textContent = dueLine(state);
    this.root.querySelector("[data-review-link]").textContent = strings[due ? "review.start" : "review.open"];
  }
}

class ReviewPage {
  constructor(root) {
    this.root = root;
    this.questions = questionsOf(root);
    this.templates = new Map(this.questions.map((question, n) => [question, root.querySelector(`[data-review-template="${n}"]`)]));
    this.status = root.querySelector("[data-status]");
    this.position = root.querySelector("[data-review-position]");
    this.stage = root.querySelector("[data-review-stage]");
    this.scheduled = root.querySelector("[data-review-scheduled]");
    this.actions = root.querySelector("[data-review-actions]");
    this.nextButton = root.querySelector('[data-action="review-next"]');
    this.postponeButton = root.querySelector('[data-action="review-postpone"]');
    this.toggle = root.querySelector('[data-action="review-toggle"]');
    this.nextButton.addEventListener("click", () => this.show(this.index + 1));
    this.postponeButton.addEventListener("click", () => this.postpone());
    this.toggle.addEventListener("change", () => { setReviewOn(this.toggle.checked); this.start(); });
    this.stage.addEventListener(REVIEW_ANSWERED, (event) => this.answered(event.detail.correct));
    document.addEventListener(WORK_CHANGED, () => this.start());
    this.start();
  }

  start() {
    this.toggle.checked = reviewOn();
    const state = reviewState(this.questions);
    this.queue = reviewOn() ? state.due : [];
    this.later = state.later;
    this.retired = state.retired;
    this.show(0);
  }

  show(index) {
    this.index = index;
    this.scheduled.textContent = index === 0 && this.retired ? format("review.retired", { n: this.retired }) : "";
    const item = this.queue[index];
    this.root.dataset.state = item ? "asking" : "done";
    this.position.hidden = !item;
    this.actions.hidden = !item;
    this.stage.replaceChildren();
    if (!item) {
      this.status.textContent = this.queue.length ? this.finished() : dueLine({ due: [], later: this.later });
      return;
    }
    this.status.textContent = index === 0 ? format("review.due", { n: this.queue.length }) : "";
    this.position.textContent = format("review.position", { n: index + 1, total: this.queue.length });
    this.stage.append(this.templates.get(item.question).content.cloneNode(true));
    enhanceQuestions();
    enhancePredictions();
    enhanceSteppers();
    document.dispatchEvent(new CustomEvent(CONTENT_SHOWN, { detail: this.stage }));
    this.nextButton.hidden = true;
    this.postponeButton.hidden = false;
    // the card, not its first choice: a ring on a choice reads as an answer picked
    const card = this.stage.querySelector("[data-review-item]");
    card.tabIndex = -1;
    card.focus();
  }

  answered(correct) {
    const item = this.queue[this.index];
    item.card = answeredInReview(item.key, item.question.rev, correct);
    this.scheduled.textContent = format("review.scheduled", { date: shownDate(item.card.due) });
    this.postponeButton.hidden = true;
    this.nextButton.hidden = false;
    this.nextButton.textContent = strings[this.index + 1 < this.queue.length ? "review.next" : "review.finish"];
  }

  postpone() {
    const item = this.queue[this.index];
    item.card = postpone(item.key) ?? item.card;
    this.show(this.index + 1);
    this.scheduled.textContent = strings["review.postponed"];
  }

  /** Today's review is over: when the next one comes. */
  finished() {
    const next = this.queue.map((item) => item.card.due).concat(this.later.map((item) => item.card.due))
      .reduce((a, b) => Math.min(a, b), Infinity);
    return format("review.finished", { date: shownDate(next) });
  }
}

export function enhance() {
  enhanceAll('[data-component="review-due"]', ReviewDue);
  enhanceAll('[data-component="review"]', ReviewPage);
}
