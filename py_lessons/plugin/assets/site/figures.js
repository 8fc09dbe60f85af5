// Figures a phone can read. matplotlib draws for a laptop's column (text of 8-10 pt in a figure
// 460-900 pt wide); shrunk into a 328 px phone column, that text was 5-7 px. Each figure is now
// shown no narrower than keeps its smallest text at MIN_TEXT_PX (its box scrolls sideways, as a
// wide table's does), and a tap (or Enter) opens it alone on the screen at its drawn size, to
// pan and pinch; Escape or the close button closes it. The figure's own SVG is never changed
// (explorables compare it with the build's): its box carries the width.
//
// The build's figures are not in the page's HTML (render/figure_files.py): each is an empty <svg
// data-figure-file> of the figure's size, whose box already has its --figure-min-width. The figure
// is fetched when it comes within two screens of the viewport and put in its place, inline, so
// its text is shaped with the page's Bangla font; once the page is idle the rest are fetched (not
// placed, unless the reader asked to save data), so the browser's own Print finds them all.
import { onSwappedPage } from "../lib/dom.js";
import { strings } from "../lib/text.js";

const MIN_TEXT_PX = 10; // render/figure_files.py computes the build's with the same rule
const BOXES = ".pycell-figure, .pz-explorable-figure, .gpu-run-chart";
const WAITING = "svg[data-figure-file]";
const FIGURES = new URL("../figures/", import.meta.url);
const fetched = new Map(); // file name -> Promise of its SVG text
const ready = new Map();   // file name -> its SVG text, once here

function figureText(name) {
  if (!fetched.has(name)) {
    const text = fetch(new URL(name, FIGURES)).then((response) => {
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      return response.text();
    }).then((svg) => { ready.set(name, svg); return svg; });
    text.catch(() => fetched.delete(name)); // offline and not kept: tried again when next near
    fetched.set(name, text);
  }
  return fetched.get(name);
}

/** The figure in the place of its placeholder (if that is still in a page). */
function place(placeholder, svg) {
  if (!placeholder.isConnected || !placeholder.matches(WAITING)) return;
  const template = document.createElement("template");
  template.innerHTML = svg; // the build's own file, from this site
  const figure = template.content.querySelector("svg");
  if (figure) placeholder.replaceWith(figure);
}

function load(placeholder) {
  const name = placeholder.dataset.figureFile;
  return figureText(name).then((svg) => place(placeholder, svg), (error) => console.error(error));
}

/** Every set-aside figure under `root` in its place (the whole lesson printed, an open figure). */
export function loadFigures(root = document) {
  return Promise.all([...root.querySelectorAll(WAITING)].map(load));
}

const near = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    near.unobserve(entry.target);
    load(entry.target);
  }
}, { rootMargin: "200% 0px" });

function watch(root) {
  if (root.matches?.(WAITING)) near.observe(root);
  for (const placeholder of root.querySelectorAll?.(WAITING) ?? []) near.observe(placeholder);
}

/** Every placeholder of the page, those in a body it holds inert (render/deferred.py) too. */
function allPlaceholders(root = document) {
  return [...root.querySelectorAll(WAITING),
    ...[...root.querySelectorAll("template")].flatMap((template) => allPlaceholders(template.content))];
}

function fetchTheRestWhenIdle() {
  if (navigator.connection?.saveData) return; // the reader pays per byte: only what they scroll to
  const later = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 2000));
  later(() => { for (const placeholder of allPlaceholders()) figureText(placeholder.dataset.figureFile); });
}

// the browser's Print cannot wait: what is here goes in now (fetchTheRestWhenIdle fetched it;
// site/deferred.js, which runs first, has put the hidden bodies in the page)
addEventListener("beforeprint", () => {
  for (const placeholder of document.querySelectorAll(WAITING)) {
    const svg = ready.get(placeholder.dataset.figureFile);
    if (svg) place(placeholder, svg);
  }
});

/** The width at which the figure's smallest text is MIN_TEXT_PX, on its box as --figure-min-width
 * (the build wrote it on the boxes of its own figures). */
function fit(svg) {
  const box = svg.parentElement;
  if (!box.style.getPropertyValue("--figure-min-width")) {
    const width = measuredMinWidth(svg);
    if (!width) return;
    box.style.setProperty("--figure-min-width", `${width}px`);
  }
  if (!box.hasAttribute("tabindex")) box.tabIndex = 0; // it may scroll; Enter opens it
  box.dataset.figureBox = "";
  box.title = strings["figure.open"];
}

function measuredMinWidth(svg) {
  const width = svg.viewBox.baseVal?.width || svg.width.baseVal?.value;
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const size = parseFloat(getComputedStyle(text).fontSize);
    if (size > 0 && text.textContent.trim()) smallest = Math.min(smallest, size);
  }
  if (!width || !Number.isFinite(smallest)) return null;
  return Math.ceil((width * MIN_TEXT_PX) / smallest);
}

let view = null;

async function open(box) {
  await loadFigures(box);
  const svg = box.querySelector(":scope > svg");
  if (!svg) return;
  if (!view) {
    view = document.createElement("dialog");
    view.className = "pz-figure-view";
    view.dataset.figureView = "";
    view.setAttribute("aria-label", strings["figure.view"]);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "pz-button pz-figure-close";
    close.dataset.action = "close-figure";
    close.textContent = strings["figure.close"];
    close.addEventListener("click", () => view.close());
    const stage = document.createElement("div");
    stage.className = "pz-figure-stage";
    view.append(close, stage);
    view.addEventListener("close", () => { stage.replaceChildren(); view.returnTo?.focus(); });
  }
  document.body.append(view); // instant navigation swaps the page's content, not the body's end
  view.returnTo = box;
  view.querySelector(".pz-figure-stage").replaceChildren(svg.cloneNode(true));
  view.showModal();
}

function fitAll(root = document) {
  for (const svg of root.querySelectorAll(`:is(${BOXES}) > svg`)) fit(svg);
}

document.addEventListener("click", (event) => {
  const box = event.target.closest?.("[data-figure-box]");
  if (box && !event.target.closest("a, button")) open(box);
});
document.addEventListener("keydown", (event) => {
  const box = event.target.closest?.("[data-figure-box]");
  if (box && event.target === box && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    open(box);
  }
});
// figures arrive later too: a cell's output, an explorable's new drawing, the next lesson's page
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE || node.closest?.("[data-figure-view]")) continue;
      if (node.matches("svg") && node.parentElement?.matches(BOXES)) fit(node);
      else fitAll(node);
      watch(node);
    }
  }
}).observe(document.body, { childList: true, subtree: true });
fitAll();
watch(document);
if (document.readyState === "complete") fetchTheRestWhenIdle();
else addEventListener("load", fetchTheRestWhenIdle, { once: true });
onSwappedPage(fetchTheRestWhenIdle); // instant navigation: the new page's figures too
