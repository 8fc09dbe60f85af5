// Shared helpers of the lesson components: the string catalogue, Bangla digits, and localStorage
// that never throws (absent, full or corrupt storage falls back to defaults silently), with the
// time each item was saved.
import strings from "../strings.js";
import { storageNamespace } from "../site.js";

const BN = "০১২৩৪৫৬৭৮৯";
export const bnDigits = (value) => String(value).replace(/[0-9]/g, (d) => BN[d]);
export const format = (key, values = {}) => strings[key].replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
export { strings };

const prefix = `${storageNamespace}:`;
const fullKey = (key) => `${prefix}${key}`;
// When each item was last saved (ms since 1970), all under one key beside the items, so that the
// items keep the plain JSON they always had (an item saved before times were kept has none).
// "My work" merges two devices by it: per item, the later one wins. Item keys are "KIND:...";
// this one has no colon, so it is never taken for an item.
const SAVED_AT = fullKey("saved-at");

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

/** Fired on the document when the reader's stored work changed as a whole (imported, erased). */
export const WORK_CHANGED = "pathshala:work-changed";

/** Storage key of a component on this page (ids are unique per page, pages by path). */
export const pageKey = (kind, id) => `${kind}:${location.pathname}:${id}`;

/** The loader message for Pyodide's progress events (same text the cells show). */
export function loaderMessage(progress) {
  const percent = progress.total ? Math.round((100 * progress.loaded) / progress.total) : 0;
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  return progress.phase === "core"
    ? format("loader.progress", { percent, loaded: mb(progress.loaded), total: mb(progress.total) })
    : format("loader.packages", { names: progress.names.join(", "), percent });
}

export function enhanceAll(selector, Klass) {
  for (const root of document.querySelectorAll(`${selector}:not([data-enhanced])`)) {
    root.dataset.enhanced = "";
    try { new Klass(root); } catch (error) { console.error(error); }
  }
}

/** Hand `text` to the reader as a downloaded file `name` (a Blob and a hidden a[download]). */
export function offerDownload(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has long started by then
}
