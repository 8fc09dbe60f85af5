// Small DOM helpers the page's scripts share.
import { strings } from "./text.js";

/** Give every element matching `selector` (not yet enhanced) its behaviour: `new Klass(root)`. */
export function enhanceAll(selector, Klass) {
  for (const root of document.querySelectorAll(`${selector}:not([data-enhanced])`)) {
    root.dataset.enhanced = "";
    try { new Klass(root); } catch (error) { console.error(error); }
  }
}

/** Run `callback` on each page mkdocs-material's instant navigation swaps in (its `document$`), not
 * on the page the script came with: `document$` replays that page to every subscriber (at
 * DOMContentLoaded, or at once for a script that subscribes later), and the script's own code has
 * already dealt with it; answering the replay too did every page's load-time work twice. A script
 * that acts on what the theme itself mounts for a page (site/a11y.js) needs the replay: it subscribes. */
export function onSwappedPage(callback) {
  let loadedPage = true;
  globalThis.document$?.subscribe?.(() => {
    if (loadedPage) loadedPage = false;
    else callback();
  });
}

/** A cell's toolbar button: its action hook and its Bangla label from the catalogue. */
export function makeButton(action, key) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "pycell-button";
  element.dataset.action = action;
  element.textContent = strings[key];
  return element;
}

/** Hand `text` to the reader as a downloaded file `name` (a Blob and a hidden a[download]). */
export function offerDownload(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has long started by then
}

/** Dispatched on `document` when a body that the page shipped inert (render/deferred.py) is put in
 * its place; `detail` is its parent. Scripts that enhance what they find at load enhance it too. */
export const CONTENT_SHOWN = "pathshala:content-shown";
export const DEFERRED = "template[data-deferred]";

/** The deferred bodies of `parent` (a details, a tab's block, a stepper's rows) in their place. */
export function showDeferred(parent) {
  const bodies = parent.querySelectorAll(`:scope > ${DEFERRED}`);
  if (!bodies.length) return;
  for (const body of bodies) body.replaceWith(body.content);
  document.dispatchEvent(new CustomEvent(CONTENT_SHOWN, { detail: parent }));
}
