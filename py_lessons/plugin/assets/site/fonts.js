// Every font face of the course's stylesheets, loaded once the page has settled. Instant
// navigation keeps this document, so a face that only a later page uses (the math font, bold or
// Latin-extended text, the figures' bold) was fetched after that page's first layout, and the whole
// page was laid out again when it came: the next lesson's click -> first output took 292 ms with
// that second layout and 198 ms without it (median of 8 each, interleaved, on a 2-core machine).
// What is left to load then is 12 KB on a lesson with formulas, 81 KB on the home page (the math
// font); the offline copy keeps it. Not where the reader asked the browser to save data: there
// each face comes when a page uses it, as before.
import { keepFetched, pageSettled, saveData } from "./offline.js";

const FONT_FILE = /\.woff2?$/;

function fontFilesFetched() {
  return performance.getEntriesByType("resource").map((entry) => entry.name)
    .filter((url) => FONT_FILE.test(new URL(url).pathname));
}

if (!saveData) {
  pageSettled
    .then(() => Promise.all([...document.fonts].filter((face) => face.status === "unloaded")
      .map((face) => face.load().catch(() => null)))) // offline, a face not kept: it comes with a page
    .then(() => keepFetched(fontFilesFetched())); // a first install may list the page's files before these end
}
