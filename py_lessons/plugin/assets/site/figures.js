// Figures a phone can read. matplotlib draws for a laptop's column (text of 8-10 pt in a figure
// 460-900 pt wide); shrunk into a 328 px phone column, that text was 5-7 px. Each figure is now
// shown no narrower than keeps its smallest text at MIN_TEXT_PX (its box scrolls sideways, as a
// wide table's does), and a tap (or Enter) opens it alone on the screen at its drawn size, to
// pan and pinch; Escape or the close button closes it. The figure's own SVG is never changed
// (explorables compare it with the build's): its box carries the width.
import { strings } from "../lib/text.js";

const MIN_TEXT_PX = 10;
const BOXES = ".pycell-figure, .pz-explorable-figure, .gpu-run-chart";

/** The width at which the figure's smallest text is MIN_TEXT_PX, on its box as --figure-min-width. */
function fit(svg) {
  const box = svg.parentElement;
  const width = svg.viewBox.baseVal?.width || svg.width.baseVal?.value;
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const size = parseFloat(getComputedStyle(text).fontSize);
    if (size > 0 && text.textContent.trim()) smallest = Math.min(smallest, size);
  }
  if (!width || !Number.isFinite(smallest)) return;
  box.style.setProperty("--figure-min-width", `${Math.ceil((width * MIN_TEXT_PX) / smallest)}px`);
  if (!box.hasAttribute("tabindex")) box.tabIndex = 0; // it may scroll; Enter opens it
  box.dataset.figureBox = "";
  box.title = strings["figure.open"];
}

let view = null;

function open(box) {
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
    }
  }
}).observe(document.body, { childList: true, subtree: true });
fitAll();
