// The font faces a later page may need, loaded once the page has settled. Instant navigation keeps
// this document, so a face that only a later page uses (the math font on a page without formulas,
// the code font's bold) was fetched after that page's first layout, and the page was laid out
// again when it came: the next lesson's click -> first output took 292 ms with that second layout
// and 198 ms without it (median of 8 each, interleaved, on a 2-core machine).
//
// Only the faces of families this page does not draw with. A face's arrival lays out again every
// text of its family, used or not: the Latin-extended faces of the body text (which one author's
// name on one page needs) cost two layouts of this page's whole text, 30-40 ms each, in the seconds
// Lighthouse counts as blocking. A face of a family this page draws with comes when a page uses it.
// Not where the reader asked the browser to save data: there each face comes when a page uses it.
import { keepFetched, pageSettled, saveData } from "./offline.js";

const FONT_FILE = /\.woff2?$/;

function fontFilesFetched() {
  return performance.getEntriesByType("resource").map((entry) => entry.name)
    .filter((url) => FONT_FILE.test(new URL(url).pathname));
}

/** The faces not yet loaded of the families no text of this page has loaded a face of. */
function facesForLaterPages(faces) {
  const drawn = new Set(faces.filter((face) => face.status !== "unloaded").map((face) => face.family));
  return faces.filter((face) => face.status === "unloaded" && !drawn.has(face.family));
}

if (!saveData) {
  pageSettled
    // offline, a face not kept is no error: it comes with the page that draws with it
    .then(() => Promise.all(facesForLaterPages([...document.fonts]).map((face) => face.load().catch(() => null))))
    .then(() => keepFetched(fontFilesFetched())); // a first install may list the page's files before these end
}
