// What the page hides at load ships inert (render/deferred.py): the body of a closed <details> and
// every tab but the one shown are each a <template data-deferred>, so a phone does not style, lay
// out or keep them. A body is put in its place the moment the reader opens it: on the summary's
// click (before the browser opens the details, so it opens with its body), on any other opening
// (the keyboard, a script, the theme's print), on the change of a tab's radio input (before it is
// drawn); and every body before the page is printed, since Print cannot wait. (A stepper's later
// rows are deferred too: components/stepper.js shows them when the reader steps on.)
import { CONTENT_SHOWN, DEFERRED, onSwappedPage, showDeferred as show } from "../lib/dom.js";

let codeBlocks = 0;

/** The theme's copy button on a code block that arrived after the theme looked for them (its
 * clipboard listener is the page's, so a button of its shape is all it needs). */
function copyButtons(root) {
  const config = JSON.parse(document.getElementById("__config")?.textContent || "{}");
  if (!config.features?.includes("content.code.copy")) return;
  for (const code of root.querySelectorAll("pre > code")) {
    const pre = code.parentElement;
    if (pre.querySelector(".md-code__nav") || pre.closest(".no-copy, .pycell")) continue;
    pre.id ||= `__code_shown_${codeBlocks++}`;
    const nav = Object.assign(document.createElement("nav"), { className: "md-code__nav" });
    const button = Object.assign(document.createElement("button"), {
      className: "md-code__button", title: config.translations?.["clipboard.copy"] ?? "" });
    button.dataset.clipboardTarget = `#${pre.id} > code`;
    button.dataset.mdType = "copy";
    nav.append(button);
    pre.insertBefore(nav, code);
  }
}

/** Every deferred body in the page in its place (printing, the whole lesson printed). */
export function showAll() {
  let bodies;
  while ((bodies = document.querySelectorAll(DEFERRED)).length) {
    for (const body of bodies) if (body.isConnected) show(body.parentElement);
  }
}

document.addEventListener("click", (event) => {
  const summary = event.target.closest?.("summary");
  if (summary?.parentElement?.matches("details")) show(summary.parentElement);
}, true);
// toggle does not bubble: listened for while it goes down to its details
document.addEventListener("toggle", (event) => { if (event.target.open) show(event.target); }, true);
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input.matches?.(".tabbed-set > input[type=radio]")) return;
  const set = input.parentElement;
  const index = [...set.querySelectorAll(":scope > input")].indexOf(input);
  const block = set.querySelectorAll(":scope > .tabbed-content > .tabbed-block")[index];
  if (block) show(block);
}, true);
addEventListener("beforeprint", showAll);
document.addEventListener(CONTENT_SHOWN, (event) => copyButtons(event.detail));
// a details open in the page as built (or opened before this script ran)
for (const details of document.querySelectorAll("details[open]")) show(details);
onSwappedPage(() => { for (const details of document.querySelectorAll("details[open]")) show(details); });
