// Writing a program's output into a cell. Text always goes in as text (never parsed as HTML);
// figures are SVG from the worker, i.e. from whatever Python the reader ran, so they pass
// through DOMPurify (npm, served from assets/vendor/) before they reach the page.
import DOMPurify from "../../vendor/dompurify/purify.es.mjs";
import { runsPage, siteRoot } from "../site.js";

function appendText(output, stream, text) {
  const last = output.lastElementChild;
  if (last && last.dataset.stream === stream) {
    last.append(text);
    return;
  }
  const pre = document.createElement("pre");
  pre.className = `pycell-stream pycell-${stream}`;
  pre.dataset.stream = stream;
  pre.tabIndex = 0; // a wide line scrolls inside the box (cells.css): the keyboard reaches it too
  pre.textContent = text;
  output.append(pre);
}

// DOMPurify's SVG profile, narrowed to what matplotlib draws with: shapes, text, <defs> and <use>
// (markers). Never kept: animation (SMIL can rewrite an href after sanitizing, and runs
// handlers), foreignObject (HTML inside SVG), <style> (its rules would restyle the whole page)
// and links (a figure is a picture). Event handlers are outside the profile in any letter case.
const FIGURE_PROFILE = {
  USE_PROFILES: { svg: true },
  ADD_TAGS: ["use"],
  ADD_ATTR: ["role"], // role="img": with its aria-label, how screen readers announce a figure
  FORBID_TAGS: ["a", "animate", "animatecolor", "animatemotion", "animatetransform", "set", "discard",
                "foreignobject", "style"],
  RETURN_DOM_FRAGMENT: true,
};
// matplotlib's imshow embeds its pixels as an inline PNG; a raster image can neither run code
// nor load anything.
const PNG_PIXELS = "data:image/png;base64,";
// What could load something in a CSS value (style, fill, clip-path, mask, filter...): only url(#id)
// may stay. Backslashes are refused outright: a CSS escape can spell "url(" without those
// letters, and matplotlib never writes one. Entities are already decoded when the hook runs.
const LOADS_SOMETHING = /url\((?!\s*["']?#)|image(?:-set)?\(|src\(|\\/i;

const purifier = DOMPurify(window); // our own instance: its hook touches no one else's sanitizing

purifier.addHook("uponSanitizeAttribute", (node, attribute) => {
  const { attrName: name, attrValue: value } = attribute;
  if (name === "href" || name === "xlink:href") {
    // Only a reference inside this figure (a glyph, a marker); imshow's pixels on <image>.
    attribute.keepAttr = value.startsWith("#") || (node.nodeName === "image" && value.startsWith(PNG_PIXELS));
  } else if (LOADS_SOMETHING.test(value)) {
    attribute.keepAttr = false;
  }
});

/** The worker's SVG markup as a clean <svg> element for the page, or null when none is left.
 * Its root is the one element CSS lays out as a box of the page: no style or class of its own
 * there (position: fixed, or a class of the theme's, would lift it over the page); the figure's
 * box contains what is left anyway (contain: paint in cells.css and components.css). */
export function sanitizeSvg(markup) {
  const svg = purifier.sanitize(markup, FIGURE_PROFILE)?.firstElementChild;
  if (!(svg instanceof SVGSVGElement)) return null;
  const matplotlib = svg.classList.contains("mpl-figure"); // figures.py's mark, styled by nothing
  svg.removeAttribute("style");
  svg.removeAttribute("class");
  if (matplotlib) svg.setAttribute("class", "mpl-figure");
  return svg;
}

export function renderItem(output, item, strings = {}) {
  if (item.type === "stdout" || item.type === "stderr") {
    appendText(output, item.type, item.text);
  } else if (item.type === "figure") {
    const svg = sanitizeSvg(item.svg);
    if (!svg) return;
    if (strings["cell.figure"]) svg.setAttribute("aria-label", strings["cell.figure"]);
    const box = document.createElement("div");
    box.className = "pycell-figure";
    box.dataset.figure = "";
    box.append(svg);
    output.append(box);
  }
}

export function renderTraceback(output, text) {
  appendText(output, "traceback", text);
}

const RUNS_PAGE = new URL(runsPage, siteRoot);

/** Notes under the output (outside [data-output]), the same ones the build renders. */
export function renderNotes(notes, result, strings) {
  notes.replaceChildren();
  const add = (kind, text) => {
    const p = document.createElement("p");
    p.className = "pycell-note";
    p.dataset.note = kind;
    p.append(text);
    notes.append(p);
    return p;
  };
  if (result.truncated) add("truncated", strings["cell.output.truncated"]);
  if (result.explain && strings[result.explain]) {
    const p = add("explain", "");
    p.classList.add("pycell-explain");
    p.dataset.explain = result.explain;
    const title = document.createElement("strong");
    title.textContent = strings["explain.title"];
    p.append(title, " ", strings[result.explain]);
    if (result.explain === "explain.ModuleNotFoundError.torch") {
      const link = document.createElement("a");
      link.href = RUNS_PAGE.href;
      link.textContent = strings["explain.runs.link"];
      p.append(" ", link);
    }
  }
}
