// Registers the service worker (sw.js at the site root, written at build by Workbox) that keeps
// the whole course, Pyodide included, usable after one visit with no server at all.
const root = new URL("../../", import.meta.url); // this file lives in <root>/assets/pathshala/

if ("serviceWorker" in navigator && root.protocol.startsWith("http")) {
  addEventListener("load", () => {
    navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
      // No service worker (private mode, an old browser): the site still works online.
    });
  });
}
