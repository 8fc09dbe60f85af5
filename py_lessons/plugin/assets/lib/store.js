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

/** A component's or a cell's item on a page (ids are unique per page, pages by path):
 * cell (edited code), cell-run (when it last ran, ms), mcq, ordering, exercise, predict. */
export const pageKey = (kind, id, page = location.pathname) => `${kind}:${page}:${id}`;
/** When the reader last visited a lesson page (ms). */
export const visitKey = (page = location.pathname) => `visit:${page}`;
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

export const store = {
  get(key, fallback = null) {
    try {
      const raw = globalThis.localStorage?.getItem(fullKey(key));
      if (raw === null || raw === undefined) return fallback;
      const value = JSON.parse(raw);
      return value ?? fallback;
    } catch {
      return fallback;
    }
  },
  /** Save `value`, stamped now (or `savedAt`, ms: an imported item keeps its own time); false
   * when the browser refused (storage full or off). */
  set(key, value, savedAt = Date.now()) {
    try {
      globalThis.localStorage.setItem(fullKey(key), JSON.stringify(value));
      const times = savedTimes();
      times[key] = savedAt;
      globalThis.localStorage.setItem(SAVED_AT, JSON.stringify(times));
      return true;
    } catch {
      return false;
    }
  },
  remove(key) {
    try {
      globalThis.localStorage?.removeItem(fullKey(key));
      const times = savedTimes();
      if (key in times) {
        delete times[key];
        globalThis.localStorage.setItem(SAVED_AT, JSON.stringify(times));
      }
    } catch { /* storage unavailable */ }
  },
  /** When the item was last saved (ms), or null if it was saved before times were kept. */
  savedAt(key) {
    const time = savedTimes()[key];
    return Number.isFinite(time) ? time : null;
  },
  /** The keys of every item of this site on this device. */
  keys() {
    try {
      const storage = globalThis.localStorage;
      const keys = [];
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        if (key.startsWith(prefix) && key !== SAVED_AT) keys.push(key.slice(prefix.length));
      }
      return keys;
    } catch {
      return [];
    }
  },
  /** Forget every item of this site on this device (other sites' items stay). */
  clear() {
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
