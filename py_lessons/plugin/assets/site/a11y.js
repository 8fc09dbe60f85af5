// What the theme leaves out for keyboards and screen readers. Accessible names: the search overlay
// is a dialog without a name, and the instant-navigation progress bar is a progressbar without
// one; both live outside the part of the page that instant navigation swaps, so naming them once
// is enough. And tab stops on the blocks that scroll sideways (below).
import { CONTENT_SHOWN } from "../lib/dom.js";
import { strings } from "../lib/text.js";

document.querySelector(".md-search[role=dialog]:not([aria-label])")?.setAttribute("aria-label", strings["search.dialog"]);
document.querySelector(".md-progress[role=progressbar]:not([aria-label])")?.setAttribute("aria-label", strings["navigation.progress"]);

// A code block or a table that scrolls sideways (on a phone, most do) must be reachable from the
// keyboard to be scrolled without a pointer: the theme makes neither focusable, so each one wider
// than its box gets a tab stop (and loses it when the window grows so that it fits). A cell's code
// is a bare <pre> with a stop of its own (render/cell_html.py).
const SCROLLERS = "article pre > code, article .md-typeset__scrollwrap";

function focusableScrollers() {
  const boxes = [...document.querySelectorAll(SCROLLERS)];
  // every width first, then the changes: a change between two reads would lay the page out again
  const scrolls = boxes.map((box) => box.scrollWidth > box.clientWidth + 1);
  boxes.forEach((box, i) => {
    if (scrolls[i] && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.dataset.scrollStop = ""; // ours to take back
    } else if (!scrolls[i] && "scrollStop" in box.dataset) {
      box.removeAttribute("tabindex");
      delete box.dataset.scrollStop;
    }
  });
}

let pending = 0;
const soon = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(focusableScrollers); };
addEventListener("resize", soon);
document.fonts?.ready.then(soon);
// the theme wraps each page's tables and mounts its code blocks as document$ hands it the page, the
// loaded one too (not lib/dom.js onSwappedPage): look again after that, every page
globalThis.document$?.subscribe?.(soon);
document.addEventListener(CONTENT_SHOWN, soon); // an answer or a tab the reader opened
soon();
