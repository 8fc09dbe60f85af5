// Self-check questions: single-choice (mcq) and ordering. Answers persist in localStorage, with
// the first answer ever checked and the number of checks (a teacher's class page reads both from
// the learner's "my work" file); "try again" clears the answer shown, never that history. A
// question's first check enters review (lib/first-answer.js).
import { CONTENT_SHOWN, enhanceAll } from "../lib/dom.js";
import { answered as afterAnswer } from "../lib/first-answer.js";
import { pageKey, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";

/** What a question's stored record keeps of its history: {first, tries} before this check
 * (tries 0 before any; both null when it was answered before they were kept, so unknown). */
function history(saved) {
  if (!saved || typeof saved !== "object") return { first: null, tries: 0 };
  if (Number.isInteger(saved.tries) && saved.tries >= 0) return { first: saved.first ?? null, tries: saved.tries };
  return { first: null, tries: null };
}

/** The history after one more check of `answer`. */
function afterCheck(saved, answer) {
  const { first, tries } = history(saved);
  if (tries === null) return { first: null, tries: null };
  return { first: tries === 0 ? answer : first, tries: tries + 1 };
}

function say(feedback, message, explanation) {
  feedback.replaceChildren();
  const p = document.createElement("p");
  p.className = "pz-feedback-message";
  p.textContent = message;
  feedback.append(p);
  if (!explanation) return;
  for (const child of explanation.children) feedback.append(child.cloneNode(true));
  // a glossary term in the explanation: the copy gets ids of its own (the hidden original keeps
  // its) and is enhanced anew (a copy keeps the mark of the original's enhancing, not its listeners)
  for (const tip of feedback.querySelectorAll("[id]")) {
    const id = `${tip.id}-shown`;
    for (const ref of feedback.querySelectorAll(`[aria-describedby="${CSS.escape(tip.id)}"]`)) ref.setAttribute("aria-describedby", id);
    tip.id = id;
  }
  for (const copy of feedback.querySelectorAll("[data-enhanced]")) delete copy.dataset.enhanced;
  document.dispatchEvent(new CustomEvent(CONTENT_SHOWN, { detail: feedback }));
}

class Mcq {
  constructor(root) {
    this.root = root;
    this.key = pageKey("mcq", root.dataset.id);
    this.radios = [...root.querySelectorAll('input[type="radio"]')];
    this.feedback = root.querySelector("[data-feedback]");
    this.retryButton = root.querySelector('[data-action="retry"]');
    root.querySelector('[data-action="check"]').addEventListener("click", () => this.check());
    this.retryButton.addEventListener("click", () => this.retry());
    this.reviewing = root.closest("[data-review-item]") !== null; // nothing of the lesson's answer here
    this.checks = 0;
    const saved = this.reviewing ? null : store.get(this.key);
    const choice = saved && typeof saved === "object" ? saved.choice : null;
    if (Number.isInteger(choice) && this.radios[choice]) {
      this.radios[choice].checked = true;
      this.evaluate(choice);
    }
  }

  check() {
    const chosen = this.radios.findIndex((radio) => radio.checked);
    if (chosen < 0) { say(this.feedback, strings["quiz.pick"]); return; }
    if (!this.reviewing) store.set(this.key, { choice: chosen, ...afterCheck(store.get(this.key), chosen) });
    this.evaluate(chosen);
    this.checks += 1;
    afterAnswer(this.root, this.root.dataset.state === "correct", this.checks === 1);
  }

  evaluate(chosen) {
    const correct = String(chosen) === this.root.dataset.answer;
    this.root.dataset.state = correct ? "correct" : "wrong";
    say(this.feedback, strings[correct ? "quiz.correct" : "quiz.wrong"],
      this.root.querySelector(`[data-explain-for="${chosen}"]`));
    this.retryButton.hidden = correct;
  }

  retry() {
    for (const radio of this.radios) radio.checked = false;
    if (!this.reviewing) store.set(this.key, { choice: null, ...history(store.get(this.key)) });
    this.root.dataset.state = "unanswered";
    this.retryButton.hidden = true;
    say(this.feedback, strings["quiz.cleared"]);
    this.radios[0]?.focus();
  }
}

class Ordering {
  constructor(root) {
    this.root = root;
    this.key = pageKey("ordering", root.dataset.id);
    this.list = root.querySelector("ol");
    this.feedback = root.querySelector("[data-feedback]");
    this.retryButton = root.querySelector('[data-action="retry"]');
    this.initial = this.order();
    this.list.addEventListener("click", (event) => {
      const button = event.target.closest("[data-action]");
      if (button) this.move(button.closest("li"), button.dataset.action, button);
    });
    this.list.addEventListener("keydown", (event) => {
      const button = event.target.closest("[data-action]");
      if (!button || !event.altKey || !["ArrowUp", "ArrowDown"].includes(event.key)) return;
      event.preventDefault();
      this.move(button.closest("li"), event.key === "ArrowUp" ? "up" : "down", button);
    });
    root.querySelector('[data-action="check"]').addEventListener("click", () => this.check());
    this.retryButton.addEventListener("click", () => this.retry());
    this.reviewing = root.closest("[data-review-item]") !== null;
    this.checks = 0;
    if (!this.reviewing) this.restore();
  }

  save(value) {
    if (!this.reviewing) store.set(this.key, value);
  }

  items() { return [...this.list.children]; }
  order() { return this.items().map((li) => Number(li.dataset.item)); }

  arrange(order) {
    const byIndex = new Map(this.items().map((li) => [Number(li.dataset.item), li]));
    this.list.append(...order.map((index) => byIndex.get(index)));
  }

  restore() {
    const saved = store.get(this.key);
    const order = saved && typeof saved === "object" ? saved.order : null;
    const valid = Array.isArray(order) && order.length === this.initial.length
      && [...order].sort((a, b) => a - b).every((value, index) => value === index);
    if (!valid) return;
    this.arrange(order);
    if (saved.checked === true) this.evaluate();
  }

  move(li, direction, button) {
    const sibling = direction === "up" ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (direction === "up") this.list.insertBefore(li, sibling);
    else this.list.insertBefore(sibling, li);
    button.focus();
    this.root.dataset.state = "unanswered";
    this.retryButton.hidden = true;
    this.save({ order: this.order(), checked: false, ...history(store.get(this.key)) });
    say(this.feedback, format("order.moved", {
      item: li.querySelector(".pz-order-text").textContent,
      position: bnDigits(this.items().indexOf(li) + 1),
    }));
  }

  check() {
    const order = this.order();
    this.save({ order, checked: true, ...afterCheck(store.get(this.key), order) });
    this.evaluate();
    this.checks += 1;
    afterAnswer(this.root, this.root.dataset.state === "correct", this.checks === 1);
  }

  evaluate() {
    const wrong = this.order().filter((value, index) => value !== index).length;
    this.root.dataset.state = wrong ? "wrong" : "correct";
    this.retryButton.hidden = !wrong;
    say(this.feedback, wrong ? format("order.wrong", { count: bnDigits(wrong) }) : strings["order.correct"],
      wrong ? null : this.root.querySelector('[data-explain-for="all"]'));
  }

  retry() {
    this.arrange(this.initial);
    this.save({ order: this.initial, checked: false, ...history(store.get(this.key)) });
    this.root.dataset.state = "unanswered";
    this.retryButton.hidden = true;
    say(this.feedback, strings["quiz.cleared"]);
    this.list.querySelector("button")?.focus();
  }
}

export function enhance() {
  enhanceAll('[data-component="mcq"]', Mcq);
  enhanceAll('[data-component="ordering"]', Ordering);
}
