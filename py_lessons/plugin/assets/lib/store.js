// The reader's work in this browser, and every key it is stored under: the one owner of both.
// localStorage that never throws (absent, full or corrupt storage falls back to defaults
// silently), with the time each item was saved; and the shape of every item key, "KIND:REST".
// A page's items hold the page's path from the server's root (an id is unique on its page);
// "my work" files (components/my-work.js) carry them from the site's root instead, so the work
// moves between copies of the course served at different places ("/" and "/course/"). What such
// a file is (its format, version and key pattern) comes from its JSON schema, through site.js.
import { siteRoot, storageNamespace, workFile } from "../site.js";

const prefix = `${storageNamespace}:`;
const fullKey = (key) => `${prefix}${key}`;
// When each item was last saved (ms since 1970), all under one key beside the items, so that the
// items keep the plain JSON they always had (an item saved before times were kept has none).
// "My work" merges two devices by it: per item, the later one wins. This key has no colon, so it
// is never taken for an item.
const SAVED_AT = fullKey("saved-at");

// -- the keys ----------------------------------------------------------------------------
/** What a stored item's key must look like (the "my work" schema's own pattern). */
export const ITEM_KEY = new RegExp(workFile.keyPattern);

/** The path this page's items are kept under: a lesson's (its first part's) for each of its parts,
 * so the work on a lesson stays one lesson's however it is split (the build keeps its ids unique
 * across the parts and names the lesson in the header's data-lesson-root); any other page's own. */
export function pagePath() {
  const root = globalThis.document?.querySelector("[data-lesson-root]")?.getAttribute("data-lesson-root");
  return root === null || root === undefined ? location.pathname : new URL(root, location.href).pathname;
}

/** A component's or a cell's item on a page (ids are unique per lesson, lessons by path):
 * cell (edited code), cell-run (when it last ran, ms), mcq, ordering, exercise, predict. */
export const pageKey = (kind, id, page = pagePath()) => `${kind}:${page}:${id}`;
/** When the reader last visited a lesson (ms), and which of its parts (its path). */
export const visitKey = (page = pagePath()) => `visit:${page}`;

/** Whether the reader has answered a question of `kind` (its stored item): an mcq's choice, an
 * ordering they have checked. What the home page's progress and a lesson's section marks count. */
export function isAnswered(kind, saved) {
  if (!saved || typeof saved !== "object") return false;
  return kind === "mcq" ? Number.isInteger(saved.choice) : saved.checked === true;
}
/** Who this work is: an id made once, and the name the learner typed (a teacher's class page
 * shows it; lib/work-file.js writes both into a "my work" file). */
export const LEARNER_ID = "learner:id";
export const LEARNER_NAME = "learner:name";
/** A question's review (lib/review.js): under the lesson's path, like the question's answer. */
export const reviewKey = (lessonPath, kind, id) => `review:${lessonPath}:${kind}:${id}`;
/** The reader's choice of review: "off" when they turned it off. */
export const REVIEW_SETTING = "prefs:review";
/** A lesson's "finished" stamp: its id is the lesson's slug, unique in the course. */
export const completeKey = (lessonId) => `complete:${lessonId}`;

const ROOT = siteRoot.pathname;

function rebase(key, from, to) {
  const colon = key.indexOf(":") + 1;
  const rest = key.slice(colon);
  return rest.startsWith(from) ? `${key.slice(0, colon)}${to}${rest.slice(from.length)}` : key;
}
/** A key as a work file writes it: a page's path from the site's root. */
export const portableKey = (key) => rebase(key, ROOT, "/");
/** A key from a work file, as this copy of the site stores it. */
export const localKey = (key) => rebase(key, "/", ROOT);

// -- the storage -------------------------------------------------------------------------
function savedTimes() {
  try {
    const times = JSON.parse(globalThis.localStorage?.getItem(SAVED_AT) ?? "{}");
    return times && typeof times === "object" && !Array.isArray(times) ? times : {};
  } catch {
    return {};
  }
}

// What the browser refused to store in this visit (storage full or off): kept here, so the page
// goes on showing it, "my work" exports it and the reader is told (SAVE_REFUSED), until a later
// save of the same item succeeds.
const unsaved = new Map(); // key -> {value, savedAt}

/** Fired on the document when the browser refused to store an item (detail: {key}). */
export const SAVE_REFUSED = "pathshala:save-refused";

function refused(key, value, savedAt) {
  unsaved.set(key, { value, savedAt });
  globalThis.document?.dispatchEvent(new CustomEvent(SAVE_REFUSED, { detail: { key } }));
}

const SLICE_MS = 200; // a long write gives the page a frame this often (status line, input)

/** Items written, then their times in one write of the index: an item is stored with its time or
 * not at all (one stored without would lose every later merge), and a refused one is left as it was. */
class Batch {
  constructor() {
    try { this.storage = globalThis.localStorage; } catch { this.storage = null; } // off: all refused
    this.times = savedTimes();
    this.previous = new Map(); // key -> its raw value before, for the written ones
    this.refused = [];
  }

  write(key, value, savedAt) {
    try {
      const before = this.storage.getItem(fullKey(key));
      this.storage.setItem(fullKey(key), JSON.stringify(value));
      if (!this.previous.has(key)) this.previous.set(key, before);
      this.times[key] = savedAt;
    } catch {
      this.refused.push(key);
    }
  }

  /** The keys refused, the written ones too if their times do not fit (then taken back). */
  commit() {
    if (!this.previous.size) return this.refused;
    try {
      this.storage.setItem(SAVED_AT, JSON.stringify(this.times));
    } catch {
      for (const [key, raw] of this.previous) {
        try {
          if (raw === null) this.storage.removeItem(fullKey(key));
          else this.storage.setItem(fullKey(key), raw);
        } catch { /* it was stored before: it fits again */ }
      }
      return [...this.refused, ...this.previous.keys()];
    }
    for (const key of this.previous.keys()) unsaved.delete(key);
    return this.refused;
  }
}

export const store = {
  get(key, fallback = null) {
    if (unsaved.has(key)) return unsaved.get(key).value;
    try {
      const raw = globalThis.localStorage?.getItem(fullKey(key));
      if (raw === null || raw === undefined) return fallback;
      const value = JSON.parse(raw);
      return value ?? fallback;
    } catch {
      return fallback;
    }
  },
  /** Save `value`, stamped now (or `savedAt`, ms); false when the browser refused (storage full
   * or off): then it is kept in memory and SAVE_REFUSED fired. */
  set(key, value, savedAt = Date.now()) {
    const batch = new Batch();
    batch.write(key, value, savedAt);
    if (batch.commit().length === 0) return true;
    refused(key, value, savedAt);
    return false;
  },
  /** Save many items, [key, value, savedAt ms] each (an import keeps each item's own time), in
   * one pass: the time index is read and written once, not once per item (30,000 items took
   * minutes that way), and the page is given a frame every SLICE_MS, `onProgress(done)` told.
   * Resolves to the keys the browser refused; nothing is kept of them (the file still has them). */
  async setMany(entries, onProgress = () => {}) {
    const batch = new Batch();
    let slice = 1_000; // then as many as this device writes in SLICE_MS
    for (let done = 0; done < entries.length;) {
      const began = performance.now();
      const end = Math.min(entries.length, done + slice);
      for (const [key, value, savedAt] of entries.slice(done, end)) batch.write(key, value, savedAt);
      slice = Math.max(100, Math.round((end - done) * SLICE_MS / Math.max(1, performance.now() - began)));
      done = end;
      if (done < entries.length) {
        onProgress(done);
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      }
    }
    return batch.commit();
  },
  remove(key) {
    unsaved.delete(key);
    try {
      globalThis.localStorage?.removeItem(fullKey(key));
      const times = savedTimes();
      if (key in times) {
        delete times[key];
        globalThis.localStorage.setItem(SAVED_AT, JSON.stringify(times));
      }
    } catch { /* storage unavailable */ }
  },
  /** When each item was last saved (key -> ms; none for an item saved before times were kept),
   * read once for a pass over the whole work (export, merge). */
  savedTimes() {
    const times = savedTimes();
    for (const [key, { savedAt }] of unsaved) times[key] = savedAt;
    for (const key of Object.keys(times)) if (!Number.isFinite(times[key])) delete times[key];
    return times;
  },
  /** The keys of every item of this site on this device, and those only in memory. */
  keys() {
    const keys = new Set(unsaved.keys());
    try {
      const storage = globalThis.localStorage;
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        if (key.startsWith(prefix) && key !== SAVED_AT) keys.add(key.slice(prefix.length));
      }
    } catch { /* storage unavailable: only what is in memory */ }
    return [...keys];
  },
  /** How many items the browser refused in this visit and only memory holds. */
  get unsavedCount() { return unsaved.size; },
  /** Whether `chars` more characters would still fit (tried with a probe, then taken back). */
  hasRoomFor(chars) {
    const probe = fullKey("room-probe"); // no colon after the prefix: never taken for an item
    try {
      globalThis.localStorage.setItem(probe, "x".repeat(chars));
      return true;
    } catch {
      return false;
    } finally {
      try { globalThis.localStorage.removeItem(probe); } catch { /* nothing was written */ }
    }
  },
  /** Forget every item of this site on this device (other sites' items stay). */
  clear() {
    unsaved.clear();
    try {
      for (const key of this.keys()) globalThis.localStorage.removeItem(fullKey(key));
      globalThis.localStorage.removeItem(SAVED_AT);
    } catch { /* storage unavailable */ }
  },
};

/** This visit's own flags (sessionStorage: gone with the tab), e.g. a dismissed notice. */
export const visitFlags = {
  get(name) {
    try { return sessionStorage.getItem(fullKey(name)) === "1"; } catch { return false; }
  },
  set(name) {
    try { sessionStorage.setItem(fullKey(name), "1"); } catch { /* not remembered */ }
  },
};

/** Fired on the document when the reader's stored work changed as a whole (imported, erased). */
export const WORK_CHANGED = "pathshala:work-changed";
