// The lesson's "finished" stamp, and the course's front door on the home page: each lesson's
// progress (cells run, questions answered, the stamp), where the reader left off, and whether the
// whole course is kept offline on this device. Everything the reader did is in localStorage
// (lib/store.js); the cards themselves come from the build (py_lessons/plugin/render/components/
// progress.py).
import { enhanceAll } from "../lib/dom.js";
import { WORK_CHANGED, completeKey, isAnswered, pageKey, store, visitKey } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import * as site from "../site.js";

const isDone = (id) => store.get(completeKey(id), false) === true;

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
    if (done) store.set(completeKey(this.id), true);
    else store.remove(completeKey(this.id));
    this.show(done);
    this.status.textContent = strings[done ? "complete.saved" : "complete.cleared"];
  }
}

const ids = (list) => (list ? list.split(" ") : []);

class LessonCard {
  constructor(root) {
    this.root = root;
    this.link = root.querySelector("[data-lesson-link]");
    this.page = new URL(this.link.href).pathname; // the lesson's storage keys hold its path (pageKey)
    this.cells = ids(root.dataset.cells);
    this.questions = ids(root.dataset.questions).map((question) => question.split(":")); // [kind, id]
    // a lesson of several parts: each part's own cells and questions, its link and its figure
    this.parts = [...root.querySelectorAll("[data-part]")].map((part) => ({
      cells: ids(part.dataset.cells),
      questions: ids(part.dataset.questions).map((question) => question.split(":")),
      link: part.querySelector("[data-part-link]"),
      figure: part.querySelector("[data-part-progress]"),
    }));
  }

  ran(id) { return Number.isFinite(store.get(pageKey("cell-run", id, this.page))); }

  answered([kind, id]) { return isAnswered(kind, store.get(pageKey(kind, id, this.page))); }

  /** Which part holds the cell ``id`` (0 for a lesson in one part). */
  partOf(id) { return Math.max(0, this.parts.findIndex((part) => part.cells.includes(id))); }

  /** The reader's progress in this lesson: counts, percent, the stamp, the last visit and run. */
  read() {
    const runs = this.cells.map((id) => store.get(pageKey("cell-run", id, this.page)));
    const run = runs.filter(Number.isFinite).length;
    const answered = this.questions.filter(([kind, id]) => isAnswered(kind, store.get(pageKey(kind, id, this.page)))).length;
    const finished = isDone(this.root.dataset.lesson);
    const total = this.cells.length + this.questions.length;
    const percent = finished ? 100 : total ? Math.round((100 * (run + answered)) / total) : 0;
    const latest = Math.max(...runs.filter(Number.isFinite));
    const lastCell = runs.indexOf(latest); // -1 when no cell has run
    const visited = store.get(visitKey(this.page));
    const counted = finished ? total : run + answered; // what the course's bar adds up
    return { run, answered, finished, percent, counted, total, lastCell, visited: Number.isFinite(visited) ? visited : null };
  }

  show({ run, answered, finished, percent }) {
    this.parts.forEach((part, k) => {
      const total = part.cells.length + part.questions.length;
      const count = part.cells.filter((id) => this.ran(id)).length + part.questions.filter((q) => this.answered(q)).length;
      const share = finished || !total ? (finished ? 100 : 0) : Math.round((100 * count) / total);
      part.figure.textContent = share === 100 ? "✓" : `${bnDigits(share)}%`;
      part.figure.dataset.progress = String(share);
      part.link.setAttribute("aria-label", `${part.link.textContent}: ${format("progress.part.detail", { k: bnDigits(k + 1), percent: bnDigits(share) })}`);
    });
    this.root.dataset.state = finished ? "complete" : "incomplete";
    this.root.dataset.progress = String(percent);
    this.root.querySelector("progress").value = percent;
    this.root.querySelector("[data-lesson-progress]").textContent = format("progress.lesson.detail", {
      percent: bnDigits(percent), run: bnDigits(run), cells: bnDigits(this.cells.length),
      answered: bnDigits(answered), questions: bnDigits(this.questions.length),
    });
    this.root.querySelector("[data-lesson-state]").textContent = strings[finished ? "progress.lesson.done" : "progress.lesson.todo"];
  }
}

class Progress {
  constructor(root) {
    this.root = root;
    this.cards = [...root.querySelectorAll("[data-lesson]")].map((card) => new LessonCard(card));
    this.refresh();
    const box = root.querySelector("[data-offline]");
    if (box) new OfflineBox(box);
    // "My work" imported or erased on this page: show what is stored now
    const onChange = () => {
      if (root.isConnected) this.refresh();
      else document.removeEventListener(WORK_CHANGED, onChange);
    };
    document.addEventListener(WORK_CHANGED, onChange);
  }

  refresh() {
    let done = 0;
    let counted = 0;
    let total = 0;
    let last = null; // the lesson visited most recently
    for (const card of this.cards) {
      const state = card.read();
      card.show(state);
      done += state.finished ? 1 : 0;
      counted += state.counted;
      total += state.total;
      if (state.visited !== null && (!last || state.visited > last.state.visited)) last = { card, state };
    }
    // one figure for the course, measured as each card measures its lesson (runs and answers, or
    // the whole lesson once marked done), so the bar and the cards never disagree
    const percent = total ? Math.round((100 * counted) / total) : 0;
    this.root.querySelector(":scope > progress").value = percent;
    this.root.dataset.done = String(done);
    this.root.dataset.progress = String(percent);
    this.root.querySelector("[data-status]").textContent = format("progress.summary", { percent, done, total: this.cards.length });
    this.showContinue(last);
  }

  /** Back to the lesson last visited, at the cell last run there (in its part); before any visit,
   * the first lesson. */
  showContinue(last) {
    const box = this.root.querySelector("[data-continue]");
    const target = last?.card ?? this.cards[0];
    box.hidden = !target;
    if (!target) return;
    const link = box.querySelector("[data-continue-link]");
    const name = target.link.textContent;
    const cell = last && last.state.lastCell >= 0 ? target.cells[last.state.lastCell] : null;
    const k = cell ? target.partOf(cell) : 0;
    const part = target.parts[k];
    const href = (part ? part.link : target.link).getAttribute("href");
    link.href = href + (cell ? `#${cell}` : "");
    const n = cell && bnDigits((part ? part.cells.indexOf(cell) : last.state.lastCell) + 1);
    if (!cell) link.textContent = name;
    else if (part) link.textContent = format("progress.continue.part_cell", { lesson: name, k: bnDigits(k + 1), n });
    else link.textContent = format("progress.continue.cell", { lesson: name, n });
    box.querySelector("[data-continue-label]").textContent = strings[last ? "progress.continue" : "progress.start"];
    box.dataset.state = last ? "continue" : "start";
  }
}

/** What this device keeps of the course (offline.js: the service worker's cache), in MB: what the
 * reader opened and ran, or the whole course once the reader chose it (a button with its size). */
class OfflineBox {
  constructor(root) {
    this.root = root;
    this.status = root.querySelector("[data-offline-status]");
    this.button = root.querySelector('[data-action="make-offline"]');
    this.stop = root.querySelector('[data-action="stop-offline"]');
    if (site.offline === false) { root.hidden = true; return; } // this site has no service worker
    if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) { this.show({ state: "unsupported" }); return; }
    this.offline = import("../site/offline.js");
    this.button.addEventListener("click", () => this.keepAll());
    this.stop.addEventListener("click", () => this.ask((api) => api.stopKeepingAll()));
    this.offline.then((api) => { root.querySelector("[data-save-data]").hidden = !api.saveData; });
    this.ask((api) => api.offlineStatus());
    // a first visit: what the page loaded before the service worker served it is being kept
    this.offline.then((api) => document.addEventListener(api.OFFLINE_CHANGED, ({ detail }) => {
      if (this.root.isConnected && this.last?.state !== "working") this.ask(async () => detail);
    }));
  }

  async keepAll() {
    this.show({ ...this.last, state: "working", bytes: 0 });
    await this.ask((api) => api.makeAvailableOffline(({ bytes }) => this.show({ ...this.last, state: "working", bytes })));
  }

  async ask(call) {
    try {
      const status = await call(await this.offline);
      const state = status.failed ? "failed" : status.keepAll && status.ready ? "ready" : "kept";
      this.show({ ...status, state });
    } catch (error) {
      console.error(error);
      this.show({ ...this.last, state: "failed" });
    }
  }

  show(status) {
    const { state, bytes = 0, totalBytes = 0, keepAll = false } = status;
    this.last = status;
    const mb = (count) => bnDigits((count / 1e6).toFixed(1));
    this.root.dataset.state = state;
    this.root.dataset.bytes = String(bytes);
    this.root.dataset.totalBytes = String(totalBytes);
    this.button.hidden = !["kept", "failed", "working"].includes(state);
    this.button.disabled = state === "working";
    this.button.textContent = format("home.offline.button", { total: mb(totalBytes) });
    this.stop.hidden = !keepAll || state === "working";
    this.status.textContent = format(`home.offline.${state}`, { mb: mb(bytes), total: mb(totalBytes) });
  }
}

export function enhance() {
  enhanceAll('[data-component="complete"]', Complete);
  enhanceAll('[data-component="progress"]', Progress);
}
