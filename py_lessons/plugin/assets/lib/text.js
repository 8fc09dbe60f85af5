// Reader-facing text: the one catalogue (strings.js, generated from py_lessons/runtime/
// strings.bn.json), Bangla digits, and the loader's progress message.
import strings from "../strings.js";

export { strings };

const BN = "০১২৩৪৫৬৭৮৯";
export const bnDigits = (value) => String(value).replace(/[0-9]/g, (d) => BN[d]);
// a number, or a number already written as text ("0.01", "11.9", "1,234"): shown in Bangla digits,
// so no message of the catalogue mixes two scripts of digits; names and ids are left as they are
const NUMERIC = /^[-+\u2212]?[0-9][0-9.,]*$/;
const shown = (value) => (typeof value === "number" || NUMERIC.test(value ?? "") ? bnDigits(value) : value ?? "");
export const format = (key, values = {}) => strings[key].replace(/\{(\w+)\}/g, (_, name) => shown(values[name]));

/** The loader message for Pyodide's progress events (same text the cells show). */
export function loaderMessage(progress) {
  const percent = progress.total ? Math.round((100 * progress.loaded) / progress.total) : 0;
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  return progress.phase === "core"
    ? format("loader.progress", { percent, loaded: mb(progress.loaded), total: mb(progress.total) })
    : format(progress.helpers ? "loader.packages.helpers" : "loader.packages", {
      names: progress.names.join(", "), helpers: progress.helpers, percent, loaded: mb(progress.loaded), total: mb(progress.total),
    });
}
