// The theme searches when a key is released in its search field (keyup). A word that arrives
// without one (a phone's Bangla keyboard composing it, paste, autocorrect, voice typing) found
// nothing until a space was typed; so every change of the field's text is told to the theme as
// a released key, once the word is composed.
const field = document.querySelector('[data-md-component="search-query"]');

function searchNow(event) {
  if (event.isComposing) return; // the word is still being composed: its end comes as well
  field.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
}

field?.addEventListener("input", searchNow);
field?.addEventListener("compositionend", searchNow);
