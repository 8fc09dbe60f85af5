// "My work" files: the reader's stored work (lib/store.js) as one file, read back with every
// check, and what merging one would change. The one writer and reader of the format
// (py_lessons/plugin/schemas/work-export.schema.json: its format, version and key pattern reach
// this page through site.js). The home page's "my work" (components/my-work.js) and the notice of
// a refused save (site/save-notice.js) both export through here.
import { offerDownload } from "./dom.js";
import { ITEM_KEY, localKey, portableKey, store } from "./store.js";
import { bnDigits, format, strings } from "./text.js";
import { courseName, storageNamespace, workFile } from "../site.js";

const { format: FORMAT, version: VERSION } = workFile;
export const MAX_FILE_BYTES = 20e6; // far more than a browser lets one site store: no work file is larger

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Every item of the reader's work, those only in memory too, as the file's JSON object. */
export function exportedWork() {
  const times = store.savedTimes();
  const items = [];
  for (const key of store.keys().sort()) {
    const value = store.get(key);
    if (value === null || !ITEM_KEY.test(key)) continue; // unreadable: nothing of the reader's to keep
    const saved = times[key];
    items.push({ key: portableKey(key), value, saved: saved === undefined ? null : new Date(saved).toISOString() });
  }
  return { format: FORMAT, version: VERSION, site: storageNamespace, course: courseName,
    exported: new Date().toISOString(), items };
}

const pad = (n) => String(n).padStart(2, "0");
/** A date as the reader's calendar day, YYYY-MM-DD (a work file's name carries it). */
export const day = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** Hand the reader their work as a file; returns what the status line tells them. */
export function downloadWork() {
  const work = exportedWork();
  const file = `pathshala-work-${day(new Date())}.json`;
  offerDownload(`${JSON.stringify(work, null, 1)}\n`, file, "application/json");
  return format("work.exported", { count: bnDigits(work.items.length), file });
}

export class WorkFileError extends Error {}

/** The file's items (key on this site -> {value, saved: ms or null}) and when it was written, or a
 * WorkFileError whose message tells the reader why not. Nothing is stored here. */
export function readWorkFile(text) {
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
export function mergePlan(items) {
  const times = store.savedTimes();
  const plan = { new: [], replaced: [], kept: [] };
  for (const [key, theirs] of items) {
    const mine = store.get(key);
    if (mine === null) plan.new.push(key);
    else if ((theirs.saved ?? -Infinity) > (times[key] ?? -Infinity) && !sameValue(mine, theirs.value)) plan.replaced.push(key);
    else plan.kept.push(key);
  }
  return plan;
}
