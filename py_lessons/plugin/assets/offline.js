// Registers the service worker (sw.js at the site root, written at build by Workbox) that keeps
// the whole course, Pyodide included, usable after one visit with no server at all.
// Precaching downloads the whole site (about 30 MB), so it waits until the reader's first Python
// output has arrived (cells.js fires "pathshala:python-ready") or the page has been open a while:
// it must never compete with the first Run.
const root = new URL("../../", import.meta.url); // this file lives in <root>/assets/pathshala/
const LATEST_START_MS = 20000;

function register() {
  navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    // No service worker (private mode, an old browser): the site still works online.
  });
}

if ("serviceWorker" in navigator && root.protocol.startsWith("http")) {
  if (navigator.serviceWorker.controller) {
    register(); // already offline-ready: just look for a newer build
  } else {
    let started = false;
    const start = () => { if (!started) { started = true; register(); } };
    document.addEventListener("pathshala:python-ready", start, { once: true });
    addEventListener("load", () => setTimeout(start, LATEST_START_MS), { once: true });
  }
}
