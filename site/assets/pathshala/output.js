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

export function renderItem(output, item) {
  if (item.type === "stdout" || item.type === "stderr") {
    appendText(output, item.type, item.text);
  } else if (item.type === "figure") {
    const svg = safeSvg(item.svg);
    if (!svg) return;
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
