// The page's own controls, above its first cell: Run all and Restart Python.
import { makeButton } from "../lib/dom.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { sharedWorker } from "./cell.js";

/** The page's own controls, above its first cell: Run all (every cell in page order, so each
 * session's cells build on each other, stopping at the first unexpected error) and Restart
 * Python (a fresh Python: no variable, import or setting survives). Exercise editors are the
 * reader's answers, not the lesson's code: Run all leaves them alone. */
export class PageControls {
  /** `skip`: packages loaded only when the reader reaches a cell that needs them. */
  constructor(cells, skip) {
    this.cells = cells;
    this.skip = skip;
    this.root = document.createElement("div");
    this.root.className = "pycell-page";
    this.root.dataset.pageControls = "";
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", strings["page.cells.label"]);
    this.runAllButton = makeButton("run-all", "page.run_all");
    this.restartButton = makeButton("restart", "page.restart");
    this.status = document.createElement("p");
    this.status.className = "pycell-page-status";
    this.status.setAttribute("role", "status");
    this.status.dataset.status = "";
    this.root.append(this.runAllButton, this.restartButton, this.status);
    this.runAllButton.addEventListener("click", () => this.runAll());
    this.restartButton.addEventListener("click", () => this.restart());
    // before the block that holds the first cell (a cell may sit inside a tab or an admonition),
    // in the slot the build left there: a child put straight into the article restyles the whole
    // lesson (render/own_blocks.py)
    const first = cells[0].root;
    const article = first.closest("article") ?? first.parentElement;
    let block = first;
    while (block.parentElement && block.parentElement !== article) block = block.parentElement;
    const slot = block.previousElementSibling;
    if (slot?.matches("[data-page-controls-slot]")) slot.append(this.root);
    else block.before(this.root);
  }

  async runAll() {
    if (this.busy) return;
    this.busy = true;
    this.runAllButton.disabled = true;
    const total = this.cells.length;
    this.root.dataset.state = "running";
    let ending = format("page.run_all.done", { total: bnDigits(total) });
    for (const [index, cell] of this.cells.entries()) {
      if (!this.root.isConnected) return; // the reader went to another page: its cells stay as they are
      this.status.textContent = format("page.run_all.progress", { n: bnDigits(index + 1), total: bnDigits(total) });
      const result = await cell.run();
      if (result.stopped) { ending = strings["page.run_all.interrupted"]; break; }
      const expected = cell.root.dataset.raises;
      // input() that cannot wait for the keyboard (not isolated yet) is not the lesson's error
      const skipped = result.error === "InputNotAvailable";
      if (!result.ok && !skipped && !(expected === "any" || expected === result.error)) {
        ending = format("page.run_all.stopped", { n: bnDigits(index + 1) });
        cell.root.scrollIntoView({ block: "center" });
        break;
      }
    }
    this.status.textContent = ending;
    this.root.dataset.state = "idle";
    this.runAllButton.disabled = false;
    this.busy = false;
  }

  restart() {
    sharedWorker().restart(this.cells.map((cell) => cell.code), this.skip);
    this.status.textContent = strings["page.restart.done"];
  }
}
