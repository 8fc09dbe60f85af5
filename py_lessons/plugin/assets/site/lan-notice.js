// On a plain-http address that is not localhost (a classroom laptop's Wi-Fi address), the page
// is not a secure context: the browser gives it no service worker (no offline copy, every visit
// downloads Pyodide again) and no SharedArrayBuffer (Stop restarts Python; input() waits only where
// the browser can suspend Python instead, JSPI). The course still works; this notice says, once
// per visit, what is missing and what to do, instead of leaving the reader to find out.
import { visitFlags } from "../lib/store.js";
import { strings } from "../lib/text.js";
import { offline } from "../site.js";

const DISMISSED = "lan-notice-dismissed"; // storage refused: the notice shows on every page load

function showNotice() {
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = new URL("../css/lan-notice.css", import.meta.url).href;
  document.head.append(style);

  const notice = document.createElement("aside");
  notice.className = "pz-lan-notice";
  notice.dataset.lanNotice = "";
  notice.setAttribute("aria-label", strings["host.insecure.label"]);
  const message = document.createElement("p");
  message.setAttribute("role", "status"); // filled in after it is in the page, so it is announced
  const close = document.createElement("button");
  close.type = "button";
  close.className = "pz-button";
  close.dataset.action = "dismiss-lan-notice";
  close.textContent = strings["host.insecure.dismiss"];
  close.addEventListener("click", () => {
    notice.remove();
    visitFlags.set(DISMISSED); // not remembered where storage is refused: it comes back on the next load
  });
  notice.append(message, close);
  // outside what instant navigation swaps, so it stays across lessons until dismissed
  const header = document.querySelector("body > .md-header");
  header ? header.before(notice) : document.body.prepend(notice);
  // input() waits on shared memory where the page is isolated, else by suspending Python (JSPI)
  const suspends = "Suspending" in WebAssembly || "Suspender" in WebAssembly;
  const parts = ["host.insecure.works", ...(offline ? ["host.insecure.offline"] : []),
    suspends ? "host.insecure.python_suspend" : "host.insecure.python", "host.insecure.todo"];
  requestAnimationFrame(() => { message.textContent = parts.map((key) => strings[key]).join(" "); });
}

if (!isSecureContext && location.protocol === "http:" && !visitFlags.get(DISMISSED)) showNotice();
