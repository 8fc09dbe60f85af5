// "Take this lesson with you": the build writes the lesson as a Jupyter notebook and a Python file
// beside the page and links them under its title (py_lessons/plugin/render/notebook.py); the links
// work without this script. Here the reader may choose their own edits instead of the lesson's code:
// the page fetches the built file, puts each edited cell's saved code (code-source.js) in place of the
// lesson's, matched by cell id, and hands the result over as a download.
import { enhanceAll, offerDownload, onSwappedPage } from "../lib/dom.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { CodeSource } from "./code-source.js";

/** The reader's saved edit of a cell, or null. */
const savedEdit = (cellId) => (cellId ? new CodeSource(cellId, null).saved : null);

/** A notebook's code cells carry their cell id in metadata.pathshala.cell_id. */
function notebookWithEdits(text) {
  const notebook = JSON.parse(text);
  let edited = 0;
  for (const cell of notebook.cells) {
    const code = cell.cell_type === "code" ? savedEdit(cell.metadata?.pathshala?.cell_id) : null;
    if (code === null) continue;
    cell.source = code.match(/[^\n]*\n|[^\n]+$/g) ?? []; // lines, as Jupyter writes them
    edited += 1;
  }
  return { text: `${JSON.stringify(notebook, null, 1)}\n`, edited };
}

// In the .py a cell starts with a "# %%" line; a code cell's line ends with its metadata,
// pathshala={"cell_id": ...}, and its code runs to the blank line before the next cell.
const CELL_METADATA = / pathshala=(\{.*\})$/;

function pythonWithEdits(text) {
  let edited = 0;
  const cells = text.split(/\n(?=# %%)/).map((cell) => {
    const header = cell.slice(0, cell.indexOf("\n"));
    const metadata = CELL_METADATA.exec(header);
    const code = metadata ? savedEdit(JSON.parse(metadata[1]).cell_id) : null;
    if (code === null) return cell;
    edited += 1;
    return `${header}\n${code.replace(/\n+$/, "")}\n`;
  });
  return { text: cells.join("\n"), edited };
}

const KINDS = {
  "download-notebook": { withEdits: notebookWithEdits, type: "application/x-ipynb+json" },
  "download-python": { withEdits: pythonWithEdits, type: "text/x-python" },
};

class DownloadControl {
  constructor(root) {
    this.root = root;
    this.status = root.querySelector("[data-download-status]");
    root.querySelector("[data-download-choice]").hidden = false;
    for (const link of root.querySelectorAll("[data-action]")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.download(link);
      });
    }
  }

  async download(link) {
    const kind = KINDS[link.dataset.action];
    const mine = this.root.querySelector('input[value="mine"]').checked;
    let text;
    try {
      const response = await fetch(link.href);
      if (!response.ok) throw new Error(String(response.status));
      text = await response.text();
    } catch {
      this.status.textContent = strings["download.failed"];
      return;
    }
    const name = link.getAttribute("download");
    if (!mine) {
      offerDownload(text, name, kind.type);
      this.status.textContent = format("download.done", { file: name });
      return;
    }
    const { text: edited, edited: count } = kind.withEdits(text);
    const file = count ? name.replace(/(\.\w+)$/, "-edited$1") : name;
    offerDownload(edited, file, kind.type);
    this.status.textContent = count
      ? format("download.done.mine", { file, count: bnDigits(count) })
      : format("download.done.unedited", { file });
  }
}

enhanceAll("[data-download]", DownloadControl);
// instant navigation swaps the page without reloading scripts: the new page's control
onSwappedPage(() => enhanceAll("[data-download]", DownloadControl));
