// A lesson's sections and parts show the reader's path through it: a section whose every cell has
// run and every question has been answered gets a check mark beside its heading and in the table
// of contents (both sidebars, the phone's drawer too), and a part so finished gets one in the
// lesson's header (render/lesson_parts.py lists each part's cells and questions), counted from
// what is stored, as the home page's progress counts (progress.js); they appear as the reader
// works, and on a later visit.
import { onSwappedPage } from "../lib/dom.js";
import { isAnswered, pageKey, store } from "../lib/store.js";
import { strings } from "../lib/text.js";

const CELLS = '.pycell[data-cell-id]:not([data-cell-kind="exercise"])';
const QUESTIONS = '[data-component="mcq"], [data-component="ordering"]';

/** Each h2 of the article with the cells and questions up to the next one. */
function sections(article) {
  const out = [];
  for (const element of article.querySelectorAll(`h2[id], ${CELLS}, ${QUESTIONS}`)) {
    if (element.matches("h2")) out.push({ heading: element, items: [] });
    else out.at(-1)?.items.push(element);
  }
  return out.filter((section) => section.items.length);
}

const ran = (cellId) => Number.isFinite(store.get(pageKey("cell-run", cellId)));
const answered = (kind, id) => isAnswered(kind, store.get(pageKey(kind, id)));
const done = (item) => (item.matches(CELLS) ? ran(item.dataset.cellId) : answered(item.dataset.component, item.dataset.id));
const words = (list) => (list ? list.split(" ") : []);

/** A part (an entry of the header) is finished when its cells have run and its questions are answered. */
function markParts(header) {
  for (const entry of header.querySelectorAll("li[data-part-cells]")) {
    const cells = words(entry.dataset.partCells);
    const questions = words(entry.dataset.partQuestions).map((question) => question.split(":"));
    const finished = cells.length + questions.length > 0
      && cells.every(ran) && questions.every(([kind, id]) => answered(kind, id));
    entry.toggleAttribute("data-part-done", finished);
    if (finished) entry.title = strings["parts.done"];
    else entry.removeAttribute("title");
  }
}

function mark() {
  const article = document.querySelector("article");
  const header = article?.querySelector("[data-lesson-parts]");
  if (!header) return; // lessons only
  markParts(header);
  for (const { heading, items } of sections(article)) {
    const finished = items.every(done);
    for (const link of document.querySelectorAll(`.md-nav a.md-nav__link[href$="#${CSS.escape(heading.id)}"]`)) {
      link.toggleAttribute("data-section-done", finished);
    }
    heading.toggleAttribute("data-section-done", finished);
    if (finished) heading.title = strings["section.done"];
    else heading.removeAttribute("title");
  }
}

let pending = 0;
const soon = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(mark); };
// a run ends and a question is checked by changing the element's data-state
new MutationObserver(soon).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
mark();
onSwappedPage(soon); // instant navigation: the next lesson's sections
