// When the browser refuses to store the reader's work (its storage for this site is full), the
// reader is told at once, on the page where it happened: the refused items stay in memory
// (lib/store.js), this notice offers them with all the rest as a "my work" file, and closing the
// tab first asks. Nothing is lost silently.
import { SAVE_REFUSED, store } from "../lib/store.js";
import { bnDigits, format, strings } from "../lib/text.js";
import { downloadWork } from "../lib/work-file.js";

let notice = null;

function show() {
  if (notice?.isConnected) {
    notice.querySelector("[data-message]").textContent = format("save.refused.text", { n: bnDigits(store.unsavedCount) });
    return;
  }
  const href = new URL("../css/save-notice.css", import.meta.url).href;
  if (![...document.styleSheets].some((sheet) => sheet.href === href)) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
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
    button("dismiss-save-notice", "save.refused.dismiss", () => notice.remove()));
  notice.append(message, actions, status);
  document.body.append(notice); // outside what instant navigation swaps: it stays across pages
  message.textContent = format("save.refused.text", { n: bnDigits(store.unsavedCount) });
}

document.addEventListener(SAVE_REFUSED, show);
// Closing or reloading the tab would lose what only memory holds: the browser asks first.
addEventListener("beforeunload", (event) => { if (store.unsavedCount) event.preventDefault(); });
