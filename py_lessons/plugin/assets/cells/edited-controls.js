// A cell's "edited" badge (in its toolbar) and "show original" toggle (with its other actions), and the panel with the
// lesson's original code beside the editor (one above the other on a narrow screen).
import { makeButton } from "../lib/dom.js";
import { strings } from "../lib/text.js";

export class EditedControls {
  constructor(cell) {
    this.cell = cell;
    this.badge = document.createElement("span");
    this.badge.className = "pycell-edited";
    this.badge.dataset.editedBadge = "";
    this.badge.title = strings["cell.edited.hint"];
    this.badge.textContent = strings["cell.edited"];
    this.toggle = makeButton("show-original", "cell.original.show");
    this.toggle.setAttribute("aria-expanded", "false");
    cell.more.button.before(this.badge); // the badge stays in sight; the toggle is one of the cell's other actions
    cell.more.add([this.toggle], cell.buttons.reset);
    this.panel = null; // built when first asked for: most cells are never edited (fewer elements at load)
    this.toggle.addEventListener("click", () => this.showOriginal(!this.panel || this.panel.hidden));
  }

  /** The panel with the lesson's original code, beside the editor. */
  makePanel() {
    const cell = this.cell;
    this.panel = document.createElement("figure");
    this.panel.className = "pycell-original";
    this.panel.dataset.original = "";
    this.panel.hidden = true;
    this.panel.id = `${cell.id}-original`;
    this.toggle.setAttribute("aria-controls", this.panel.id);
    const caption = document.createElement("figcaption");
    caption.textContent = strings["cell.original.title"];
    const pre = document.createElement("pre"); // as the build writes a cell's code (render/cell_html.py)
    pre.className = "pycell-code";
    pre.tabIndex = 0; // a scrollable region must be reachable by keyboard
    pre.setAttribute("aria-label", strings["cell.original.title"]);
    pre.textContent = cell.originalCode;
    this.panel.append(caption, pre);
    cell.host.after(this.panel);
  }

  showOriginal(show) {
    if (show && !this.panel) this.makePanel();
    if (this.panel) this.panel.hidden = !show;
    this.cell.root.toggleAttribute("data-original-shown", show);
    this.toggle.setAttribute("aria-expanded", String(show));
    this.toggle.textContent = strings[show ? "cell.original.hide" : "cell.original.show"];
  }

  /** Whether the cell's code differs from the lesson's now. */
  show() {
    const edited = this.cell.code !== this.cell.originalCode;
    this.cell.root.dataset.edited = String(edited);
    this.badge.hidden = this.toggle.hidden = !edited;
    if (!edited) this.showOriginal(false);
  }
}
