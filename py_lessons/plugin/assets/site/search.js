// The theme's search, for Bangla readers.
// - It builds its index when the reader turns to search (theme-requests.js holds its request until
//   then); the index file is fetched once the page has settled, so the offline copy keeps it.
// - It searches when a key is released in its field (keyup). A word that arrives without one (a
//   phone's Bangla keyboard composing it, paste, autocorrect, voice typing) found nothing until a
//   space was typed; so every change of the field's text is told to the theme as a released key,
//   once the word is composed.
// - It counts results with Latin digits ("8 টা ডকুমেন্ট", "আরও 11টি"): the counts are written in
//   Bangla digits, like every other number of the course.
import { bnDigits } from "../lib/text.js";
import { siteRoot } from "../site.js";
import { keepFetched, pageSettled } from "./offline.js";

// told to the offline copy as well: a first visit's worker may take over before or after it ends
const searchIndex = new URL("search/search_index.json", siteRoot).href;
pageSettled.then(() => fetch(searchIndex, { priority: "low" }))
  .then((response) => response.arrayBuffer())
  .then(() => keepFetched([searchIndex]))
  .catch(() => {}); // offline already: nothing to keep

const field = document.querySelector('[data-md-component="search-query"]');

function searchNow(event) {
  if (event.isComposing) return; // the word is still being composed: its end comes as well
  field.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
}

field?.addEventListener("input", searchNow);
field?.addEventListener("compositionend", searchNow);

// the theme's own counts: results found, and "এই পৃষ্ঠায় আরও 11টি আছে" under a page's first hits
// (never the snippets: a lesson's "fp16" stays as written)
const COUNTS = ".md-search-result__meta, .md-search-result__more summary";
const results = document.querySelector(".md-search-result");
if (results) {
  new MutationObserver(() => {
    for (const count of results.querySelectorAll(COUNTS)) {
      const texts = document.createTreeWalker(count, NodeFilter.SHOW_TEXT);
      while (texts.nextNode()) {
        const text = bnDigits(texts.currentNode.data);
        if (text !== texts.currentNode.data) texts.currentNode.data = text; // the next call finds nothing to change
      }
    }
  }).observe(results, { childList: true, characterData: true, subtree: true });
}
