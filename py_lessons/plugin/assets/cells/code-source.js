// Where a cell's code comes from, composed by preference: code opened from a share link (shown,
// never saved: it is someone else's), else the reader's own saved edit, else the lesson's code
// (the build's <pre>). Every change of the cell's code goes through here, so what is saved and
// what is only shown is decided in one place.
import { pageKey, store } from "../lib/store.js";

export class CodeSource {
  constructor(cellId, original) {
    this.key = pageKey("cell", cellId);
    this.original = original;
    this.shared = null; // the code of a share link being shown, or null
  }

  /** The reader's saved edit, or null. */
  get saved() {
    const value = store.get(this.key);
    return typeof value === "string" ? value : null;
  }

  /** What the cell shows when the page opens (before any share link is read). */
  get initial() { return this.saved ?? this.original; }

  get isShared() { return this.shared !== null; }

  /** The reader changed the code: it is theirs now (shared code they change becomes their edit),
   * saved unless it is the lesson's again. */
  edited(code) {
    this.shared = null;
    if (code === this.original) store.remove(this.key);
    else store.set(this.key, code);
  }

  /** Show a share link's code: nothing is saved. */
  share(code) { this.shared = code; }

  /** Back from a share link: the reader's own code again. */
  unshare() {
    this.shared = null;
    return this.initial;
  }

  /** Forget the reader's edit: the lesson's code again. */
  reset() {
    this.shared = null;
    store.remove(this.key);
    return this.original;
  }
}
