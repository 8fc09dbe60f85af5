// "My work": the reader's stored work in this course (lib/store.js: finished stamps, quiz
// answers, exercise states, edited cells, run and visit records) as one file to take to another
// device or browser; merged back in there item by item, the later save winning, after a preview
// of what would change; or erased from this device after a confirmation.
// The file's format: py_lessons/plugin/schemas/work-export.schema.json, whose format, version and
// key pattern reach this page through site.js (the build reads them from the schema).
import { enhanceAll, offerDownload } from "../lib/dom.js";
import { ITEM_KEY, WORK_CHANGED, localKey, portableKey, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { storageNamespace, workFile } from "../site.js";

const { format: FORMAT, version: VERSION } = workFile;
const MAX_FILE_BYTES = 20e6; // far more than a browser lets one site store: no work file is larger

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const pad = (n) => String(n).padStart(2, "0");
const day = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const dateTime = (ms) => { const date = new Date(ms); return bnDigits(`${day(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`); };

function exportedWork(course) {
  const items = [];
  for (const key of store.keys().sort()) {
    const value = store.get(key);
    if (value === null || !ITEM_KEY.test(key)) continue; // unreadable: nothing of the reader's to keep
    const saved = store.savedAt(key);
    items.push({ key: portableKey(key), value, saved: saved === null ? null : new Date(saved).toISOString() });
  }
  return { format: FORMAT, version: VERSION, site: storageNamespace, course, exported: new Date().toISOString(), items };
}

class WorkFileError extends Error {}

/** The file's items (key on this site -> {value, saved: ms or null}) and when it was written, or a
 * WorkFileError whose message tells the reader why not. Nothing is stored here. */
function readWorkFile(text) {
  const corrupt = () => new WorkFileError(strings["work.error.corrupt"]);
  let data;
  try { data = JSON.parse(text); } catch { throw corrupt(); }
  if (!isObject(data) || data.format !== FORMAT) throw new WorkFileError(strings["work.error.wrong"]);
  if (!Number.isInteger(data.version) || data.version < 1) throw corrupt();
  if (data.version > VERSION) {
    throw new WorkFileError(format("work.error.future", { version: bnDigits(data.version), supported: bnDigits(VERSION) }));
  }
  if (data.site !== storageNamespace) {
    const course = typeof data.course === "string" && data.course ? data.course : String(data.site);
    throw new WorkFileError(format("work.error.other_course", { course }));
  }
  const exported = Date.parse(data.exported);
  if (typeof data.exported !== "string" || !Number.isFinite(exported) || !Array.isArray(data.items)) throw corrupt();
  const items = new Map();
  for (const item of data.items) {
    if (!isObject(item) || typeof item.key !== "string" || !ITEM_KEY.test(item.key)) throw corrupt();
    if (item.value === null || item.value === undefined) throw corrupt();
    const saved = item.saved === null ? null : typeof item.saved === "string" ? Date.parse(item.saved) : NaN;
    if (Number.isNaN(saved)) throw corrupt();
    const key = localKey(item.key);
    if (items.has(key)) throw corrupt();
    items.set(key, { value: item.value, saved });
  }
  return { exported, items };
}

/** What merging would do, item by item: new here; replaced, the file's being saved later (an item
 * with no time is older than any with one); kept, this device's being later, as old or the same. */
function mergePlan(items) {
  const plan = { new: [], replaced: [], kept: [] };
  for (const [key, theirs] of items) {
    const mine = store.get(key);
    if (mine === null) plan.new.push(key);
    else if ((theirs.saved ?? -Infinity) > (store.savedAt(key) ?? -Infinity) && !sameValue(mine, theirs.value)) plan.replaced.push(key);
    else plan.kept.push(key);
  }
  return plan;
}

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
    root.querySelector("[data-work-actions]").hidden = false;
  }

  say(state, message) {
    this.root.dataset.state = state;
    this.status.textContent = message;
  }

  exportWork() {
    const work = exportedWork(this.root.dataset.course);
    const name = `pathshala-work-${day(new Date())}.json`;
    offerDownload(`${JSON.stringify(work, null, 1)}\n`, name, "application/json");
    this.say("exported", format("work.exported", { count: bnDigits(work.items.length), file: name }));
  }

  async readFile() {
    const file = this.fileInput.files[0];
    this.fileInput.value = ""; // the same file may be chosen again
    if (!file) return;
    this.closePreview();
    try {
      if (file.size > MAX_FILE_BYTES) throw new WorkFileError(strings["work.error.wrong"]);
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

  applyImport() {
    const { items } = this.pending;
    const plan = mergePlan(items); // again: another tab may have saved something meanwhile
    let refused = 0;
    for (const key of [...plan.new, ...plan.replaced]) {
      if (!store.set(key, items.get(key).value, items.get(key).saved)) refused += 1;
    }
    this.closePreview();
    document.dispatchEvent(new CustomEvent(WORK_CHANGED));
    const counts = { new: bnDigits(plan.new.length), replaced: bnDigits(plan.replaced.length), kept: bnDigits(plan.kept.length) };
    const message = format("work.imported", counts);
    if (refused) this.say("error", `${message} ${format("work.error.storage", { n: bnDigits(refused) })}`);
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
