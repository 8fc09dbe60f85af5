// "My work": the reader's stored work in this course (lib/store.js: finished stamps, quiz
// answers, exercise states, edited cells, run and visit records) as one file to take to another
// device or browser; merged back in there item by item, the later save winning, after a preview
// of what would change; or erased from this device after a confirmation. The file itself is
// lib/work-file.js's.
import { enhanceAll } from "../lib/dom.js";
import { LEARNER_NAME, WORK_CHANGED, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { MAX_FILE_BYTES, WorkFileError, day, downloadWork, mergePlan, readWorkFile } from "../lib/work-file.js";

// After an import, room for a few large cell edits (characters) must be left, or the reader is told.
const ROOM_AFTER_IMPORT = 100_000;
const pad = (n) => String(n).padStart(2, "0");
const dateTime = (ms) => { const date = new Date(ms); return bnDigits(`${day(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`); };

class MyWork {
  constructor(root) {
    this.root = root;
    this.status = root.querySelector("[data-status]");
    this.preview = root.querySelector("[data-import-preview]");
    this.dialog = root.querySelector("[data-erase-dialog]");
    this.fileInput = root.querySelector('[data-action="import-work"]');
    this.eraseButton = root.querySelector('[data-action="erase-work"]');
    this.pending = null; // the file read and previewed, waiting for the reader's yes
    const on = (action, handler) => root.querySelector(`[data-action="${action}"]`).addEventListener("click", handler);
    on("export-work", () => this.exportWork());
    on("apply-import", () => this.applyImport());
    on("cancel-import", () => this.closePreview("work.import.cancelled"));
    on("erase-work", () => { this.dialog.returnValue = ""; this.dialog.showModal(); });
    on("cancel-erase", () => this.dialog.close("cancel"));
    on("confirm-erase", () => this.dialog.close("erase"));
    this.dialog.addEventListener("close", () => this.erased(this.dialog.returnValue === "erase")); // Escape too
    this.fileInput.addEventListener("change", () => this.readFile());
    // the name a teacher's class page shows for this work (written into the file)
    this.nameInput = root.querySelector("[data-learner-name]");
    this.showName();
    this.nameInput.addEventListener("change", () => this.saveName());
    document.addEventListener(WORK_CHANGED, () => this.showName());
    root.querySelector("[data-work-name]").hidden = false;
    root.querySelector("[data-work-actions]").hidden = false;
  }

  showName() {
    const name = store.get(LEARNER_NAME);
    this.nameInput.value = typeof name === "string" ? name : "";
  }

  saveName() {
    const name = this.nameInput.value.trim().slice(0, 100);
    if (name) store.set(LEARNER_NAME, name);
    else store.remove(LEARNER_NAME);
    this.say("named", name ? format("work.name.saved", { name }) : strings["work.name.cleared"]);
  }

  say(state, message) {
    this.root.dataset.state = state;
    this.status.textContent = message;
  }

  exportWork() {
    this.say("exported", downloadWork());
  }

  async readFile() {
    const file = this.fileInput.files[0];
    this.fileInput.value = ""; // the same file may be chosen again
    if (!file) return;
    this.closePreview();
    this.say("reading", format("work.import.reading", { file: file.name }));
    try {
      if (file.size > MAX_FILE_BYTES) throw new WorkFileError("wrong");
      this.pending = readWorkFile(await file.text());
    } catch (error) {
      if (!(error instanceof WorkFileError)) throw error;
      this.say("error", error.message);
      return;
    }
    const plan = mergePlan(this.pending.items);
    this.preview.querySelector("[data-preview-title]").textContent =
      format("work.preview.title", { file: file.name, date: dateTime(this.pending.exported) });
    for (const kind of ["new", "replaced", "kept"]) {
      const line = this.preview.querySelector(`[data-preview="${kind}"]`);
      line.textContent = format(`work.preview.${kind}`, { n: bnDigits(plan[kind].length) });
      line.dataset.count = String(plan[kind].length);
    }
    this.preview.hidden = false;
    this.say("preview", "");
    this.preview.querySelector('[data-action="apply-import"]').focus();
  }

  closePreview(messageKey) {
    this.preview.hidden = true;
    this.pending = null;
    if (messageKey) {
      this.say("cancelled", strings[messageKey]);
      this.fileInput.focus();
    }
  }

  async applyImport() {
    const { items } = this.pending;
    this.closePreview();
    const plan = mergePlan(items); // again: another tab may have saved something meanwhile
    const writes = [...plan.new, ...plan.replaced].map((key) => [key, items.get(key).value, items.get(key).saved]);
    const refused = (await store.setMany(writes, (done) => this.say("importing",
      format("work.import.progress", { done: bnDigits(done), total: bnDigits(writes.length) })))).length;
    document.dispatchEvent(new CustomEvent(WORK_CHANGED));
    const counts = { new: bnDigits(plan.new.length), replaced: bnDigits(plan.replaced.length), kept: bnDigits(plan.kept.length) };
    const message = format("work.imported", counts);
    if (refused) this.say("error", `${message} ${format("work.error.storage", { n: bnDigits(refused) })}`);
    else if (!store.hasRoomFor(ROOM_AFTER_IMPORT)) this.say("little-room", `${message} ${strings["work.import.little_room"]}`);
    else this.say("imported", message);
    this.fileInput.focus();
  }

  erased(confirmed) {
    if (confirmed) {
      const count = store.keys().length;
      store.clear();
      document.dispatchEvent(new CustomEvent(WORK_CHANGED));
      this.say("erased", format("work.erased", { n: bnDigits(count) }));
    } else {
      this.say("cancelled", strings["work.erase.cancelled"]);
    }
    this.eraseButton.focus();
  }
}

export function enhance() {
  enhanceAll('[data-component="my-work"]', MyWork);
}
