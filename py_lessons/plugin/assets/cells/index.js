// The cells' entry point (a module script of every page): each cell of the page gets its
// behaviour (cell.js), a page of several cells its Run all / Restart (page-controls.js), a share
// link its code (share.js), and the reader's trail is recorded (run-log.js). With instant
// navigation the new page's cells are enhanced the same way, and the one worker is kept.
import { onSwappedPage } from "../lib/dom.js";
import { strings, format } from "../lib/text.js";
import { cellOf, enhanceCell, sharedWorker } from "./cell.js";
import { PageControls } from "./page-controls.js";
import { followTrail } from "./run-log.js";
import { holdFirstInstall, keepFetched, saveData } from "../site/offline.js";
import { PYTHON_FETCHED } from "../python/python-worker.js";
import { ShareError, readShareFragment, sharedCode } from "./share.js";

// What Python fetched (before the service worker controlled the page, on a first visit) is kept
// offline like the page's own files; every page loads this module, explorables' pages included.
document.addEventListener(PYTHON_FETCHED, ({ detail }) => keepFetched(detail));

// Big packages are fetched only when the reader reaches a cell that needs them.
const LOAD_ON_INTERACTION = ["matplotlib"];

function enhance(scope = document) {
  const fresh = [];
  for (const root of scope.querySelectorAll(".pycell[data-cell-id]:not([data-enhanced])")) {
    root.dataset.enhanced = "";
    fresh.push(enhanceCell(root));
  }
  const lessonCells = fresh.filter((cell) => cell.root.dataset.cellKind !== "exercise");
  // one cell has its own buttons; the page's controls are for pages of several
  if (lessonCells.length > 1 && !scope.querySelector("[data-page-controls]")) new PageControls(lessonCells, LOAD_ON_INTERACTION);
  if (fresh.length && !saveData) {
    // Start Python and the small packages its cells import (numpy) before the first Run, so it
    // does not wait for the whole download: the worker's downloads and CPU are off the page's
    // thread. A first visit installs the service worker after this (it keeps what Python fetched
    // then). A reader who asked the browser to save data pays for Python only when reaching for a cell.
    const codes = fresh.map((cell) => cell.code);
    holdFirstInstall(new Promise((done) => sharedWorker().warm(codes, LOAD_ON_INTERACTION, { done })));
  }
}

/** A share link opened on this page (share.js): its cell shows the shared code. A link that cannot
 * be used (a cell this page does not have, corrupt or too large) says why and changes nothing. */
async function openShareLink() {
  try {
    const target = readShareFragment(location.hash);
    if (!target) return;
    const root = document.querySelector(`.pycell[data-cell-id="${CSS.escape(target.cellId)}"]`);
    if (!root || !cellOf(root)) {
      showShareProblem(format("share.error.unknown", { id: target.cellId }));
      return;
    }
    const code = await sharedCode(target.data);
    if (!root.isConnected) return; // the reader went on to another page meanwhile
    document.querySelector("[data-share-problem]")?.remove();
    cellOf(root).showShared(code);
  } catch (error) {
    if (!(error instanceof ShareError)) throw error;
    showShareProblem(strings[error.reason === "too-large" ? "share.error.too_large" : "share.error.corrupt"]);
  }
}

function showShareProblem(text) {
  let note = document.querySelector("[data-share-problem]");
  if (!note) {
    note = document.createElement("p");
    note.className = "pycell-share-problem";
    note.setAttribute("role", "alert");
    note.dataset.shareProblem = "";
    const title = document.querySelector(".md-content h1");
    if (title) title.after(note);
    else (document.querySelector(".md-content__inner") ?? document.body).prepend(note);
  }
  note.textContent = text;
  note.scrollIntoView({ block: "center" });
}

function onPage() {
  enhance();
  followTrail();
  openShareLink();
}

onPage();
addEventListener("hashchange", openShareLink);
// mkdocs-material's instant navigation swaps the page without reloading scripts: enhance the new
// page's cells, keeping the one worker (and everything it has loaded) alive across lessons, and
// drop the runs the previous page left behind.
onSwappedPage(() => {
  sharedWorker().dropOrphans();
  onPage();
});
