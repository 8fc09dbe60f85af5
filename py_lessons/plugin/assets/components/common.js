// Shared helpers of the lesson components: the string catalogue, Bangla digits, and localStorage
// that never throws (absent, full or corrupt storage falls back to defaults silently).
import strings from "../strings.js";
import { storageNamespace } from "../site.js";

const BN = "০১২৩৪৫৬৭৮৯";
export const bnDigits = (value) => String(value).replace(/[0-9]/g, (d) => BN[d]);
export const format = (key, values = {}) => strings[key].replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
export { strings };

const fullKey = (key) => `${storageNamespace}:${key}`;

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
  set(key, value) {
    try { globalThis.localStorage?.setItem(fullKey(key), JSON.stringify(value)); } catch { /* storage unavailable */ }
  },
  remove(key) {
    try { globalThis.localStorage?.removeItem(fullKey(key)); } catch { /* storage unavailable */ }
  },
};

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
