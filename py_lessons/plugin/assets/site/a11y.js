// Accessible names the theme leaves out: the search overlay is a dialog without a name, and the
// instant-navigation progress bar is a progressbar without one. Both live outside the part of
// the page that instant navigation swaps, so naming them once is enough.
import { strings } from "../lib/text.js";

document.querySelector(".md-search[role=dialog]:not([aria-label])")?.setAttribute("aria-label", strings["search.dialog"]);
document.querySelector(".md-progress[role=progressbar]:not([aria-label])")?.setAttribute("aria-label", strings["navigation.progress"]);
