// When the browser refuses to store the reader's work (its storage for this site is full), the
// reader is told at once, on the page where it happened: the refused items stay in memory
// (lib/store.js), this notice offers them with all the rest as a "my work" file, and closing the
// tab first asks. Nothing is lost silently.
import { SAVE_REFUSED, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { downloadWork } from "../lib/work-file.js";

let notice = null;

/** The notice's stylesheet, loaded (or failed): shown before it, the notice sat unstyled at the foot of
 * a long page, out of the reader's sight, until the file arrived. */
function styled() {
  const href = new URL("../css/save-notice.css", import.meta.url).href;
  const link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((element) => element.href === href)
    ?? document.head.appendChild(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
  if (link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

function show() {
  const text = format("save.refused.text", { n: bnDigits(store.unsavedCount) });
  if (notice) {
    notice.querySelector("[data-message]").textContent = text;
    return;
  }
  notice = document.createElement("aside");
  notice.className = "pz-save-notice";
  notice.dataset.saveNotice = "";
  notice.setAttribute("aria-label", strings["save.refused.label"]);
  const message = document.createElement("p");
  message.dataset.message = "";
  message.setAttribute("role", "alert");
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  const button = (action, key, onClick) => {
    const element = Object.assign(document.createElement("button"), { type: "button", className: "pz-button" });
    element.dataset.action = action;
    element.textContent = strings[key];
    element.addEventListener("click", onClick);
    return element;
  };
  const actions = document.createElement("div");
  actions.className = "pz-actions";
  actions.append(button("export-unsaved", "work.export", () => { status.textContent = downloadWork(); }),
    button("dismiss-save-notice", "save.refused.dismiss", () => { notice.remove(); notice = null; }));
  notice.append(message, actions, status);
  const shown = notice;
  styled().then(() => {
    if (notice !== shown) return; // dismissed meanwhile
    document.body.append(shown); // outside what instant navigation swaps: it stays across pages
  });
  message.textContent = text;
}

document.addEventListener(SAVE_REFUSED, show);
// Closing or reloading the tab would lose what only memory holds: the browser asks first.
addEventListener("beforeunload", (event) => { if (store.unsavedCount) event.preventDefault(); });
