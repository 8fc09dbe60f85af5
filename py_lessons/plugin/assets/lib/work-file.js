// "My work" files: the reader's stored work (lib/store.js) as one file, read back with every
// check, and what merging one would change. The one writer and reader of the format
// (py_lessons/plugin/schemas/work-export.schema.json: its format, version and key pattern reach
// this page through site.js). The home page's "my work" (components/my-work.js) and the notice of
// a refused save (site/save-notice.js) both export through here.
import { offerDownload } from "./dom.js";
import { ITEM_KEY, LEARNER_ID, LEARNER_NAME, localKey, portableKey, store } from "./store.js";
import { bnDigits, format, strings } from "./text.js";
import { courseName, storageNamespace, workFile } from "../site.js";

const { format: FORMAT, version: VERSION } = workFile;
export const MAX_FILE_BYTES = 20e6; // far more than a browser lets one site store: no work file is larger

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The learner this browser's work belongs to: an id made once (kept with the work, so a file
 * brought to another device keeps it) and the name they typed, "" if none. */
export function learner() {
  let id = store.get(LEARNER_ID);
  if (typeof id !== "string" || !/^[A-Za-z0-9-]{8,64}$/.test(id)) {
    id = crypto.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    store.set(LEARNER_ID, id);
  }
  const name = store.get(LEARNER_NAME);
  return { id, name: typeof name === "string" ? name.slice(0, 100) : "" };
}

/** Every item of the reader's work, those only in memory too, as the file's JSON object. */
export function exportedWork() {
  const who = learner(); // first: a new id is an item of the work too
  const times = store.savedTimes();
  const items = [];
  for (const key of store.keys().sort()) {
    const value = store.get(key);
    if (value === null || !ITEM_KEY.test(key)) continue; // unreadable: nothing of the reader's to keep
    const saved = times[key];
    items.push({ key: portableKey(key), value, saved: saved === undefined ? null : new Date(saved).toISOString() });
  }
  return { format: FORMAT, version: VERSION, site: storageNamespace, course: courseName,
    exported: new Date().toISOString(), learner: who, items };
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

/** Why a file cannot be read: `reason` (corrupt, wrong, future, other_course) and its `details`;
 * the message is the "my work" box's (it says this device is unchanged); another page words the
 * same reason its own way (the class page: class.error.REASON). */
export class WorkFileError extends Error {
  constructor(reason, details = {}) {
    super(format(`work.error.${reason}`, details));
    this.reason = reason;
    this.details = details;
  }
}

/** A file of an earlier version as the current version reads: version 1 named no learner (one
 * file, one learner, with no name) and its quiz answers keep only the answer shown now (its
 * first answer and tries are unknown: null, as they stay for answers stored before they were). */
function migrated(data) {
  if (data.version === 1) return { ...data, version: 2, learner: { id: null, name: "" } };
  return data;
}

/** The file's items (key on this site -> {value, saved: ms or null}), when it was written and by
 * whom ({id: string or null for an old file, name}), or a WorkFileError saying why not. Nothing is
 * stored here. */
export function readWorkFile(text) {
  const corrupt = () => new WorkFileError("corrupt");
  let data;
  try { data = JSON.parse(text); } catch { throw corrupt(); }
  if (!isObject(data) || data.format !== FORMAT) throw new WorkFileError("wrong");
  if (!Number.isInteger(data.version) || data.version < 1) throw corrupt();
  if (data.version > VERSION) {
    throw new WorkFileError("future", { version: bnDigits(data.version), supported: bnDigits(VERSION) });
  }
  if (data.site !== storageNamespace) {
    const course = typeof data.course === "string" && data.course ? data.course : String(data.site);
    throw new WorkFileError("other_course", { course });
  }
  data = migrated(data);
  const exported = Date.parse(data.exported);
  if (typeof data.exported !== "string" || !Number.isFinite(exported) || !Array.isArray(data.items)) throw corrupt();
  const who = data.learner;
  if (!isObject(who) || !(who.id === null || (typeof who.id === "string" && who.id)) || typeof who.name !== "string") throw corrupt();
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
  return { exported, items, learner: { id: who.id, name: who.name.slice(0, 100) } };
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
