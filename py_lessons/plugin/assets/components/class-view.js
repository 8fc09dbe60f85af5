// A teacher's view of a class: the learners' "my work" files (many files, a folder, a zip),
// read in this browser and never sent anywhere, as a table of learners (progress, cells run,
// questions right first time and in the end, exercises passed and failed checks, last activity;
// for the whole course, a lesson or one part), figures per question (answered, wrong first, the
// most common wrong first choice with its explanation) and per exercise, a CSV file and a printout.
// The files are read by lib/work-file.js, the one reader of the format; what the course holds
// (lessons, parts, cells, questions, exercises) comes from the build (render/components/class_view.py).
import { enhanceAll, offerDownload } from "../lib/dom.js";
import { completeKey, pageKey } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { MAX_FILE_BYTES, WorkFileError, day, readWorkFile } from "../lib/work-file.js";

const ZIP = "../../vendor/unzip.js";
const pad = (n) => String(n).padStart(2, "0");
const shownTime = (ms) => { const d = new Date(ms); return bnDigits(`${day(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`); };
const percent = (part, whole) => (whole ? Math.round((100 * part) / whole) : 0);
const byName = (a, b) => a.localeCompare(b, "bn", { numeric: true }); // "জয় 8" before "জয় 38"
const sameOrder = (a, b) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

/** One question's record in a learner's work: {tried, first: right/wrong/unknown, right, firstChoice}. */
function answerOf(question, saved) {
  if (!saved || typeof saved !== "object") return null;
  const mcq = question.kind === "mcq";
  const now = mcq ? saved.choice : saved.checked === true ? saved.order : null;
  const tries = Number.isInteger(saved.tries) ? saved.tries : null;
  const shown = mcq ? Number.isInteger(now) : now !== null;
  if (!(tries > 0) && !(tries === null && shown)) return null; // never checked
  const isRight = (answer) => (mcq ? answer === question.answer : sameOrder(answer, question.answer));
  const firstKnown = tries !== null && saved.first !== null && saved.first !== undefined;
  return {
    shown, // as the home page counts a question answered: an mcq's choice shown, an order checked
    first: firstKnown ? (isRight(saved.first) ? "right" : "wrong") : "unknown",
    firstChoice: mcq && firstKnown && Number.isInteger(saved.first) ? saved.first : null,
    right: shown && isRight(now),
  };
}

/** The keys of a learner's items that belong to `part` of `lesson` (when they last changed, one
 * of them was the learner's last activity there). */
function partKeys(lesson, part) {
  const page = lesson.path;
  const cells = [...part.cells, ...part.exercises.map((id) => `${id}-code`)];
  return [...cells.flatMap((id) => [pageKey("cell", id, page), pageKey("cell-run", id, page)]),
    ...part.questions.map((q) => pageKey(q.kind, q.id, page)), ...part.exercises.map((id) => pageKey("exercise", id, page))];
}

/** What a learner did in the scope ([{lesson, parts}]): the table's figures. */
function figures(learner, scope) {
  const f = { progress: 0, cells: 0, cellsTotal: 0, first: 0, right: 0, questions: 0, passed: 0, exercises: 0, failed: 0, last: null };
  let counted = 0;
  let total = 0;
  const touched = (key) => {
    const saved = learner.items.get(key)?.saved;
    if (Number.isFinite(saved) && (f.last === null || saved > f.last)) f.last = saved;
  };
  for (const { lesson, parts } of scope) {
    const finished = learner.items.get(completeKey(lesson.id))?.value === true;
    if (parts === lesson.parts) [completeKey(lesson.id), `visit:${lesson.path}`].forEach(touched);
    for (const part of parts) {
      partKeys(lesson, part).forEach(touched);
      const ran = part.cells.filter((id) => Number.isFinite(learner.items.get(pageKey("cell-run", id, lesson.path))?.value)).length;
      let answered = 0;
      for (const question of part.questions) {
        const answer = answerOf(question, learner.items.get(pageKey(question.kind, question.id, lesson.path))?.value);
        if (!answer) continue;
        answered += answer.shown ? 1 : 0;
        f.first += answer.first === "right" ? 1 : 0;
        f.right += answer.right ? 1 : 0;
      }
      for (const id of part.exercises) {
        const state = learner.items.get(pageKey("exercise", id, lesson.path))?.value;
        if (state?.passed === true) f.passed += 1;
        if (Number.isInteger(state?.attempts)) f.failed += state.attempts;
      }
      f.cells += ran;
      f.cellsTotal += part.cells.length;
      f.questions += part.questions.length;
      f.exercises += part.exercises.length;
      const size = part.cells.length + part.questions.length;
      total += size;
      counted += finished ? size : ran + answered;
    }
  }
  f.progress = percent(counted, total);
  return f;
}

class ClassView {
  constructor(root) {
    this.root = root;
    const course = JSON.parse(root.querySelector("[data-class-course]").textContent);
    this.lessons = course.lessons.map((lesson) => ({ ...lesson, path: new URL(lesson.href, location.href).pathname }));
    this.learners = new Map(); // id -> {id, name, file, exported, items}
    this.status = root.querySelector("[data-status]");
    this.problems = root.querySelector("[data-class-problems]");
    this.view = root.querySelector("[data-class-view]");
    this.table = root.querySelector("[data-class-table]");
    this.scopeSelect = root.querySelector("[data-class-scope]");
    this.filterInput = root.querySelector("[data-class-filter]");
    this.sort = { column: "name", direction: 1 };
    for (const action of ["load-class", "load-class-folder"]) {
      const input = root.querySelector(`[data-action="${action}"]`);
      input.addEventListener("change", () => { const files = [...input.files]; input.value = ""; this.load(files); });
    }
    root.querySelector('[data-action="clear-class"]').addEventListener("click", () => this.clear());
    root.querySelector('[data-action="class-csv"]').addEventListener("click", () => this.downloadCsv());
    root.querySelector('[data-action="class-print"]').addEventListener("click", () => print());
    this.scopeSelect.addEventListener("change", () => this.showTable());
    this.filterInput.addEventListener("input", () => this.showTable());
    this.table.querySelector("thead").addEventListener("click", (event) => {
      const button = event.target.closest("[data-sort]");
      if (!button) return;
      const column = button.dataset.sort;
      this.sort = { column, direction: this.sort.column === column ? -this.sort.direction : column === "name" ? 1 : -1 };
      this.showTable();
    });
    this.table.querySelector("tbody").addEventListener("change", (event) => {
      const input = event.target.closest("[data-learner-name]");
      const learner = input && this.learners.get(input.closest("[data-learner]").dataset.learner);
      if (learner) learner.name = input.value.trim() || learner.fallbackName;
    });
    const drop = root.querySelector("[data-class-drop]");
    drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.dataset.over = ""; });
    drop.addEventListener("dragleave", () => delete drop.dataset.over);
    drop.addEventListener("drop", (event) => { event.preventDefault(); delete drop.dataset.over; this.dropped(event.dataTransfer); });
    root.querySelector("[data-class-actions]").hidden = false;
  }

  /** Files dropped: folders are walked (the browser's file-system entries) for the files in them. */
  async dropped(transfer) {
    const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
    if (!entries.some((entry) => entry.isDirectory)) { this.load([...transfer.files]); return; }
    const files = [];
    const walk = async (entry) => {
      if (entry.isFile) { files.push(await new Promise((resolve, reject) => entry.file(resolve, reject))); return; }
      const reader = entry.createReader();
      for (let batch; (batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject))).length;) {
        for (const child of batch) await walk(child);
      }
    };
    for (const entry of entries) await walk(entry);
    this.load(files);
  }

  /** Each file (a zip's .json files each count as one) read; refused ones listed with the reason. */
  async load(files) {
    const problems = [];
    let read = 0;
    let refused = 0;
    const refuse = (message) => { problems.push({ kind: "refused", message }); refused += 1; };
    const texts = [];
    for (const file of files) {
      if (/\.zip$/i.test(file.name) || file.type === "application/zip") {
        if (file.size > MAX_FILE_BYTES * 10) { refuse(format("class.error.huge_zip", { file: file.name })); continue; }
        try {
          const { unzipSync } = await import(ZIP);
          const entries = unzipSync(new Uint8Array(await file.arrayBuffer()), { filter: (entry) => /\.json$/i.test(entry.name) && !entry.name.startsWith("__MACOSX/") && entry.originalSize <= MAX_FILE_BYTES });
          for (const [name, bytes] of Object.entries(entries)) texts.push({ name: `${file.name}/${name}`, text: () => new TextDecoder().decode(bytes) });
        } catch {
          refuse(format("class.error.zip", { file: file.name }));
        }
      } else if (!/\.json$/i.test(file.name) && file.type !== "application/json") {
        if (files.length === 1 || !file.webkitRelativePath) refuse(format("class.error.not_json", { file: file.name }));
      } else if (file.size > MAX_FILE_BYTES) {
        refuse(format("class.error.huge", { file: file.name }));
      } else {
        texts.push({ name: file.name, text: () => file.text() });
      }
    }
    this.say("reading", format("class.status.reading", { n: bnDigits(texts.length) }));
    for (const { name, text } of texts) {
      let work;
      try {
        work = readWorkFile(await text());
      } catch (error) {
        if (!(error instanceof WorkFileError)) throw error;
        refuse(format(`class.error.${error.reason}`, { file: name, ...error.details }));
        continue;
      }
      read += 1;
      const fallbackName = name.replace(/^.*\//, "").replace(/\.json$/i, "");
      const id = work.learner.id ?? `file:${name}`; // a version-1 file names no learner: one file, one learner
      const learner = { id, name: work.learner.name || fallbackName, fallbackName, file: name, exported: work.exported, items: work.items };
      const before = this.learners.get(id);
      if (before) {
        const [newer, older] = learner.exported >= before.exported ? [learner, before] : [before, learner];
        problems.push({ kind: "duplicate", message: format("class.duplicate", { name: newer.name, kept: newer.file, date: shownTime(newer.exported), dropped: older.file }) });
        this.learners.set(id, newer);
      } else {
        this.learners.set(id, learner);
      }
    }
    this.showProblems(problems);
    const total = this.learners.size;
    this.say(total ? "shown" : "empty", total
      ? format(refused ? "class.status.read" : "class.status.read.all", { read: bnDigits(read), refused: bnDigits(refused), total: bnDigits(total) })
      : strings["class.status.empty"]);
    this.render();
  }

  /** Refused files first (marked as errors), then duplicates (a notice: nothing was lost). */
  showProblems(problems) {
    const order = ["refused", "duplicate"];
    problems.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    this.problems.replaceChildren(...problems.map(({ kind, message }) => {
      const item = Object.assign(document.createElement("li"), { textContent: message });
      item.dataset.kind = kind;
      return item;
    }));
    this.problems.hidden = !problems.length;
    this.problems.dataset.count = String(problems.length);
  }

  say(state, message) {
    this.root.dataset.state = state;
    this.status.textContent = message;
  }

  clear() {
    this.learners.clear();
    this.showProblems([]);
    this.say("empty", strings["class.status.cleared"]);
    this.render();
  }

  /** The lessons and parts the table counts: all, one lesson ("id"), or one part ("id/k"). */
  scope(value = this.scopeSelect.value) {
    if (!value) return this.lessons.map((lesson) => ({ lesson, parts: lesson.parts }));
    const [id, k] = value.split("/");
    const lesson = this.lessons.find((l) => l.id === id);
    return [{ lesson, parts: k ? lesson.parts.filter((part) => String(part.k) === k) : lesson.parts }];
  }

  render() {
    const any = this.learners.size > 0;
    this.view.hidden = !any;
    this.root.querySelector('[data-action="clear-class"]').hidden = !any;
    this.showTable();
    this.showQuestions();
  }

  rows() {
    const scope = this.scope();
    return [...this.learners.values()].map((learner) => ({ learner, f: figures(learner, scope) }));
  }

  showTable() {
    const filter = this.filterInput.value.trim().toLocaleLowerCase();
    const { column, direction } = this.sort;
    const value = ({ learner, f }) => (column === "name" ? learner.name : column === "last" ? f.last ?? -Infinity : f[column]);
    const rows = this.rows()
      .filter(({ learner }) => !filter || learner.name.toLocaleLowerCase().includes(filter))
      .sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        const order = typeof x === "string" ? byName(x, y) : x - y;
        return direction * order || byName(a.learner.name, b.learner.name);
      });
    for (const th of this.table.querySelectorAll("th[data-column]")) {
      th.setAttribute("aria-sort", th.dataset.column === column ? (direction > 0 ? "ascending" : "descending") : "none");
    }
    const option = this.scopeSelect.selectedOptions[0];
    this.table.querySelector("[data-class-caption]").textContent = format("class.caption", {
      scope: option.textContent, n: bnDigits(rows.length), total: bnDigits(this.learners.size) });
    this.table.querySelector("tbody").replaceChildren(...rows.map(({ learner, f }) => this.row(learner, f)));
  }

  row(learner, f) {
    const tr = document.createElement("tr");
    tr.dataset.learner = learner.id;
    const name = document.createElement("input");
    Object.assign(name, { type: "text", value: learner.name, maxLength: 100 });
    name.dataset.learnerName = "";
    name.setAttribute("aria-label", format("class.name.label", { file: learner.file }));
    const th = document.createElement("th");
    th.scope = "row";
    th.append(name);
    tr.append(th);
    const cells = {
      progress: `${bnDigits(f.progress)}%`,
      cells: format("class.of", { n: bnDigits(f.cells), total: bnDigits(f.cellsTotal) }),
      first: format("class.of", { n: bnDigits(f.first), total: bnDigits(f.questions) }),
      right: format("class.of", { n: bnDigits(f.right), total: bnDigits(f.questions) }),
      passed: format("class.of", { n: bnDigits(f.passed), total: bnDigits(f.exercises) }),
      failed: bnDigits(f.failed),
      last: f.last === null ? strings["class.never"] : shownTime(f.last),
    };
    for (const [column, shown] of Object.entries(cells)) {
      const td = document.createElement("td");
      td.dataset.column = column;
      td.dataset.value = String(column === "last" ? f.last ?? "" : f[column]);
      td.textContent = shown;
      tr.append(td);
    }
    return tr;
  }

  /** Per question: how many answered, how many were wrong first, the most common wrong first
   * choice (its text and explanation); per exercise: how many tried, passed, failed checks. */
  showQuestions() {
    const learners = [...this.learners.values()];
    for (const lesson of this.lessons) {
      for (const part of lesson.parts) {
        for (const question of part.questions) {
          const element = this.root.querySelector(`[data-class-question="${question.kind}:${CSS.escape(question.id)}"]`);
          if (element) this.showQuestion(element, question, learners.map((l) => answerOf(question, l.items.get(pageKey(question.kind, question.id, lesson.path))?.value)).filter(Boolean));
        }
        for (const id of part.exercises) {
          const element = this.root.querySelector(`[data-class-exercise="${CSS.escape(id)}"]`);
          if (element) this.showExercise(element, learners.map((l) => l.items.get(pageKey("exercise", id, lesson.path))?.value));
        }
      }
    }
  }

  showQuestion(element, question, answers) {
    const wrongFirst = answers.filter((a) => a.first === "wrong").length;
    const unknown = answers.filter((a) => a.first === "unknown").length;
    const stats = element.querySelector("[data-question-stats]");
    Object.assign(stats.dataset, { answered: answers.length, wrongFirst, unknown });
    stats.textContent = answers.length
      ? format(unknown ? "class.question.stats.unknown" : "class.question.stats", {
        answered: bnDigits(answers.length), wrong: bnDigits(wrongFirst), right: bnDigits(answers.filter((a) => a.right).length), unknown: bnDigits(unknown) })
      : strings["class.question.none"];
    const counts = new Map();
    for (const { firstChoice } of answers) {
      if (firstChoice !== null && firstChoice !== question.answer) counts.set(firstChoice, (counts.get(firstChoice) ?? 0) + 1);
    }
    const common = element.querySelector("[data-common-wrong]");
    const [choice, count] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [];
    common.hidden = choice === undefined;
    common.replaceChildren();
    if (choice === undefined) { delete common.dataset.choice; return; }
    common.dataset.choice = String(choice);
    common.dataset.count = String(count);
    const title = document.createElement("p");
    title.className = "pz-class-common-title";
    title.textContent = format("class.question.common", { n: bnDigits(count) });
    const body = element.querySelector("[data-choices]").content.querySelector(`[data-choice="${choice}"]`).cloneNode(true);
    common.append(title, body);
  }

  showExercise(element, states) {
    const tried = states.filter((s) => s && typeof s === "object" && (s.passed === true || s.attempts > 0));
    const passed = tried.filter((s) => s.passed === true).length;
    const failed = tried.reduce((sum, s) => sum + (Number.isInteger(s.attempts) ? s.attempts : 0), 0);
    const stats = element.querySelector("[data-exercise-stats]");
    Object.assign(stats.dataset, { tried: tried.length, passed, failed });
    stats.textContent = tried.length
      ? format("class.exercise.stats", { tried: bnDigits(tried.length), passed: bnDigits(passed),
        rate: bnDigits(percent(passed, tried.length)), failed: bnDigits(failed) })
      : strings["class.exercise.none"];
  }

  /** Every learner's figures for the whole course, each lesson and each part, one row each: UTF-8
   * with a byte-order mark (spreadsheet programs then read Bangla), numbers in Latin digits (they
   * stay numbers there), times as ISO 8601. */
  downloadCsv() {
    const scopes = [["", strings["class.scope.all"]]];
    for (const option of [...this.scopeSelect.options].slice(1)) scopes.push([option.value, option.textContent]);
    const header = [strings["class.column.name"], strings["class.csv.file"]];
    const metrics = ["progress", "cells", "first", "right", "passed", "failed", "last"];
    for (const [, label] of scopes) for (const m of metrics) header.push(`${label}: ${strings[`class.csv.${m}`]}`);
    const lines = [header];
    const learners = [...this.learners.values()].sort((a, b) => byName(a.name, b.name));
    for (const learner of learners) {
      const line = [learner.name, learner.file];
      for (const [value] of scopes) {
        const f = figures(learner, this.scope(value));
        line.push(f.progress, f.cells, f.first, f.right, f.passed, f.failed, f.last === null ? "" : new Date(f.last).toISOString());
      }
      lines.push(line);
    }
    const cell = (value) => { const s = String(value); return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s; };
    offerDownload(`\uFEFF${lines.map((line) => line.map(cell).join(",")).join("\r\n")}\r\n`, `class-${day(new Date())}.csv`, "text/csv");
  }
}

export function enhance() {
  enhanceAll('[data-component="class-view"]', ClassView);
}
