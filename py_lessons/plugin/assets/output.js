// Writing a program's output into a cell. Text always goes in as text (never parsed as HTML);
// figures are SVG made by matplotlib, parsed as SVG and stripped of anything executable.
function appendText(output, stream, text) {
  const last = output.lastElementChild;
  if (last && last.dataset.stream === stream) {
    last.append(text);
    return;
  }
  const pre = document.createElement("pre");
  pre.className = `pycell-stream pycell-${stream}`;
  pre.dataset.stream = stream;
  pre.textContent = text;
  output.append(pre);
}

function safeSvg(markup) {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return null;
  for (const node of svg.querySelectorAll("script, foreignObject, iframe")) node.remove();
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      const value = attr.value.trim().toLowerCase();
      if (attr.name.startsWith("on") || value.startsWith("javascript:")) node.removeAttribute(attr.name);
    }
  }
  return document.importNode(svg, true);
}

export function renderItem(output, item, strings = {}) {
  if (item.type === "stdout" || item.type === "stderr") {
    appendText(output, item.type, item.text);
  } else if (item.type === "figure") {
    const svg = safeSvg(item.svg);
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

const RUNS_PAGE = new URL("../../runs/", import.meta.url); // site root is two folders up

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
