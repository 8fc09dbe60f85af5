// The reader's trail through the lessons, for the home page (progress.js): which cells they ran
// and which lesson they visited last, each stored with the time (ms). And the way back: a
// link to "#<cell id>" on a lesson page brings that cell into view.
//
// A cell has run when it leaves the "running" state (cell.js sets data-state on the cell), however
// it was started: its Run button, Shift+Enter, or the page's Run all, which may stop early; an
// exercise's editor is the reader's answer, not one of the lesson's cells, and is not counted.
import { pageKey, store, visitKey } from "../lib/store.js";

const LESSON_CELL = '.pycell[data-cell-id]:not([data-cell-kind="exercise"])';

function recordRuns(mutations) {
  for (const { target, oldValue } of mutations) {
    if (oldValue === "running" && target.dataset.state !== "running" && target.matches(LESSON_CELL)) {
      store.set(pageKey("cell-run", target.dataset.cellId), Date.now());
    }
  }
}

/** On a lesson's page (one with the lesson's header, any of its parts): remember the visit, and
 * show the cell that a "continue" link names. */
export function followTrail() {
  if (!document.querySelector("[data-lesson-parts]")) return;
  store.set(visitKey(), Date.now());
  let id;
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; } // a malformed link
  if (!id || document.getElementById(id)) return; // a heading's anchor: the browser's own job
  const cell = document.querySelector(`.pycell[data-cell-id="${CSS.escape(id)}"]`);
  cell?.scrollIntoView({ block: "center" });
}

// The document element outlives instant navigation's page swaps, so one observer serves the visit.
new MutationObserver(recordRuns).observe(document.documentElement, {
  subtree: true, attributeFilter: ["data-state"], attributeOldValue: true,
});
