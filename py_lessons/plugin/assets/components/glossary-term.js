// A glossary term in a lesson (render/glossary.py): its definition shows in place. A mouse shows
// it on hover and the keyboard on focus (components.css); a touch has neither, and a tap followed
// the term's link out of the lesson. Now the first tap opens the definition as a sheet at the
// bottom of the screen; a second tap on the term goes on to the glossary; a tap elsewhere or
// Escape closes it.
import { enhanceAll, onSwappedPage } from "../lib/dom.js";

let open = null; // the term whose definition is open

function close() {
  if (!open) return;
  delete open.dataset.open;
  open = null;
}

class GlossaryTerm {
  constructor(link) {
    const wrap = link.closest(".pz-term-wrap");
    let touched = false;
    link.addEventListener("pointerdown", (event) => { touched = event.pointerType === "touch"; });
    link.addEventListener("click", (event) => {
      if (!touched || wrap === open) return; // a mouse, a key, or the second tap: the link as usual
      event.preventDefault();
      event.stopPropagation(); // nor the theme's instant navigation, which follows links itself
      close();
      wrap.dataset.open = "";
      open = wrap;
    });
  }
}

document.addEventListener("click", (event) => { if (open && !open.contains(event.target)) close(); });
document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
onSwappedPage(() => { open = null; }); // the old term is gone

export function enhance() {
  enhanceAll('.pz-term[data-component="glossary-term"]', GlossaryTerm);
}
