// A lesson in parts prints whole. The button at a part's end ("print the whole lesson") fetches the other
// parts (the built pages of this site, from the service worker's copy when it has one), puts each
// one's article in its place before or after this part's, and prints; once printed the page is as
// it was. The parts' cells print as the build wrote them (code, output, figures: fetched first); print.css leaves
// out every control. The browser's own Print prints the part on screen.
import { onSwappedPage } from "../lib/dom.js";
import { strings } from "../lib/text.js";
import { loadFigures } from "./figures.js";

const ADDED = "data-printed-part";

async function articleOf(href) {
  const response = await fetch(href);
  if (!response.ok) throw new Error(String(response.status));
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const article = page.querySelector("article");
  if (!article) throw new Error("no article");
  // one header and one way on, this part's; nothing to run from a copy
  article.querySelectorAll("[data-lesson-parts], .pz-next-part, .pz-parts-print, .pz-download, script").forEach((el) => el.remove());
  const part = document.createElement("section");
  part.setAttribute(ADDED, "");
  part.append(...article.childNodes);
  return part;
}

function removeAdded() {
  document.querySelectorAll(`[${ADDED}]`).forEach((el) => el.remove());
}

async function printLesson(button) {
  const header = document.querySelector("article [data-lesson-parts]");
  const status = button.parentElement.querySelector("[data-print-status]");
  const entries = [...header.querySelectorAll("li[data-part-cells]")];
  const here = entries.findIndex((entry) => !entry.querySelector("a"));
  button.disabled = true;
  status.textContent = strings["print.lesson.working"];
  let parts;
  try {
    parts = await Promise.all(entries.map((entry, k) => (k === here ? null : articleOf(entry.querySelector("a").href))));
  } catch {
    status.textContent = strings["print.lesson.failed"];
    button.disabled = false;
    return;
  }
  const article = document.querySelector("article");
  removeAdded();
  const first = article.querySelector("h1")?.nextSibling ?? article.firstChild;
  parts.slice(0, here).forEach((part) => article.insertBefore(part, first));
  parts.slice(here + 1).forEach((part) => article.append(part));
  await loadFigures(article); // every part's figures, which the pages hold only as their place
  status.textContent = "";
  button.disabled = false;
  button.dataset.state = "ready"; // the whole lesson is in the page (the tests print it from here)
  addEventListener("afterprint", () => { removeAdded(); delete button.dataset.state; }, { once: true });
  globalThis.print();
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.('[data-action="print-lesson"]');
  if (button) printLesson(button);
});
onSwappedPage(removeAdded); // instant navigation: a new page, nothing added
