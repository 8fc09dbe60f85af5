// Accessible names the theme leaves out: the search overlay is a dialog without a name.
import strings from "./strings.js";

document.querySelector(".md-search[role=dialog]:not([aria-label])")?.setAttribute("aria-label", strings["search.dialog"]);
