// A cell's Share (a link that carries its code: share.js), and for code opened from such a link
// the "someone else's code" marker and "back to the lesson's code". Shared code is shown, never
// saved (code-source.js): it becomes the reader's own edit, saved and unmarked, once they change it.
import { makeButton } from "../lib/dom.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { MAX_LINK_LENGTH, SHARE_PREFIX, ShareError, shareLink } from "./share.js";

export class ShareControls {
  constructor(cell) {
    this.cell = cell;
    const share = makeButton("share", "share.button");
    share.title = strings["share.hint"];
    cell.more.add([share], cell.buttons.reset);
    share.addEventListener("click", () => this.share());
    this.marker = this.unshareButton = null; // built when code from a link is first shown
    this.field = null;
  }

  /** Copy a link to the cell's code as it is now; where the clipboard refuses, show the link in a
   * selected read-only field to copy by hand. */
  async share() {
    const cell = this.cell;
    this.field?.remove();
    let link;
    try {
      link = await shareLink(cell.id, cell.code);
    } catch (error) {
      if (!(error instanceof ShareError)) throw error;
      cell.setStatus(format("share.too_large", { limit: bnDigits(MAX_LINK_LENGTH.toLocaleString("en-IN")) }));
      return;
    }
    try {
      await navigator.clipboard.writeText(link);
      cell.setStatus(strings["share.copied"]);
    } catch { // no clipboard (plain http), or permission refused
      this.showField(link);
    }
  }

  showField(link) {
    const cell = this.cell;
    const box = document.createElement("div");
    box.className = "pycell-share-link";
    const label = document.createElement("label");
    const field = document.createElement("input");
    field.id = `${cell.id}-share-link`;
    label.htmlFor = field.id;
    label.textContent = strings["share.field"];
    Object.assign(field, { type: "url", readOnly: true, value: link, spellcheck: false });
    field.dataset.shareLink = "";
    box.append(label, field);
    cell.status.after(box);
    this.field = box;
    cell.setStatus(strings["share.manual"]);
    field.focus();
    field.select();
  }

  /** Code from a share link: shown in the editor, marked as someone else's, neither run nor saved. */
  show(code) {
    const cell = this.cell;
    if (cell.root.dataset.shared === "true" && cell.code === code) return; // the same link, seen again
    cell.source.share(code);
    cell.swapCode(code);
    cell.root.dataset.shared = "true";
    if (!this.marker) this.makeMarker();
    this.marker.hidden = this.unshareButton.hidden = false;
    cell.setStatus(strings["share.opened"]);
    cell.root.scrollIntoView({ block: "start" });
  }

  /** Back to the cell's own code: the lesson's, or the reader's saved edits of it. */
  unshare() {
    const cell = this.cell;
    cell.swapCode(cell.source.unshare());
    this.ended();
    cell.setStatus(strings["share.unshared"]);
    cell.buttons.run.focus(); // the button that had focus is hidden now
    if (location.hash.startsWith(SHARE_PREFIX)) history.replaceState(history.state, "", location.pathname + location.search);
  }

  /** The cell's code is the reader's own again. */
  ended() {
    delete this.cell.root.dataset.shared;
    if (this.marker) this.marker.hidden = this.unshareButton.hidden = true;
  }

  /** "Someone else's code" (stays in sight) and "back to the lesson's code" (first among the other actions). */
  makeMarker() {
    const cell = this.cell;
    this.unshareButton = makeButton("unshare", "share.unshare");
    this.unshareButton.addEventListener("click", () => this.unshare());
    this.marker = document.createElement("span");
    this.marker.className = "pycell-shared";
    this.marker.dataset.sharedMarker = "";
    this.marker.title = strings["share.marker.hint"];
    this.marker.textContent = strings["share.marker"];
    cell.more.button.before(this.marker);
    cell.more.add([this.unshareButton]);
  }
}
