// A cell's other actions (back to the lesson's code, share, show the original): in the toolbar's
// row on a wide screen, behind "more" on a phone (cells.css decides by the width), so the toolbar
// is one row however many an edit adds. The menu is a popover opened by its button: a tap outside
// or Escape closes it, and so does choosing an action in it.
export class MoreMenu {
  constructor(cell) {
    this.menu = cell.root.querySelector("[data-more-menu]");
    this.button = cell.root.querySelector("[data-more-button]");
    this.button.setAttribute("aria-expanded", "false");
    this.menu.addEventListener("toggle", (event) => this.button.setAttribute("aria-expanded", String(event.newState === "open")));
    this.menu.addEventListener("click", (event) => {
      if (event.target.closest("button") && this.menu.matches(":popover-open")) this.menu.hidePopover();
    });
  }

  /** Put actions first in the menu, or (``after``: one of its actions) right after it. */
  add(elements, after = null) {
    if (after) after.after(...elements);
    else this.menu.prepend(...elements);
  }
}
