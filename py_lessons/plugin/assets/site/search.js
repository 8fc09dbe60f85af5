// The theme's search, for Bangla readers.
// - It searches when a key is released in its field (keyup). A word that arrives without one (a
//   phone's Bangla keyboard composing it, paste, autocorrect, voice typing) found nothing until a
//   space was typed; so every change of the field's text is told to the theme as a released key,
//   once the word is composed.
// - It counts results with Latin digits ("8 টা ডকুমেন্ট"): the count is written in Bangla digits,
//   like every other number of the course.
import { bnDigits } from "../lib/text.js";

const field = document.querySelector('[data-md-component="search-query"]');

function searchNow(event) {
  if (event.isComposing) return; // the word is still being composed: its end comes as well
  field.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
}

field?.addEventListener("input", searchNow);
field?.addEventListener("compositionend", searchNow);

const meta = document.querySelector(".md-search-result__meta");
if (meta) {
  new MutationObserver(() => {
    const text = bnDigits(meta.textContent);
    if (text !== meta.textContent) meta.textContent = text; // the next call finds nothing to change
  }).observe(meta, { childList: true, characterData: true, subtree: true });
}
