// The lesson's "finished" stamp and the home page's course progress, both from localStorage.
import { bnDigits, enhanceAll, format, store, strings } from "./common.js";

const doneKey = (id) => `complete:${id}`;
const isDone = (id) => store.get(doneKey(id), false) === true;

class Complete {
  constructor(root) {
    this.root = root;
    this.id = root.dataset.id;
    this.button = root.querySelector('[data-action="complete"]');
    this.status = root.querySelector("[data-status]");
    this.button.addEventListener("click", () => this.toggle());
    this.show(isDone(this.id));
  }

  show(done) {
    this.root.dataset.state = done ? "complete" : "incomplete";
    this.button.setAttribute("aria-pressed", String(done));
    this.button.textContent = strings[done ? "complete.done" : "complete.button"];
  }

  toggle() {
    const done = !isDone(this.id);
    if (done) store.set(doneKey(this.id), true);
    else store.remove(doneKey(this.id));
    this.show(done);
    this.status.textContent = strings[done ? "complete.saved" : "complete.cleared"];
  }
}

class Progress {
  constructor(root) {
    const lessons = [...root.querySelectorAll("[data-lesson]")];
    let done = 0;
    for (const li of lessons) {
      const finished = isDone(li.dataset.lesson);
      done += finished ? 1 : 0;
      li.dataset.state = finished ? "complete" : "incomplete";
      li.querySelector("[data-lesson-state]").textContent = strings[finished ? "progress.lesson.done" : "progress.lesson.todo"];
    }
    root.querySelector("progress").value = done;
    root.dataset.done = String(done);
    root.querySelector("[data-status]").textContent = format("progress.summary", { done: bnDigits(done), total: bnDigits(lessons.length) });
  }
}

export function enhanceProgress() {
  enhanceAll('[data-component="complete"]', Complete);
  enhanceAll('[data-component="progress"]', Progress);
}
