// The site's service worker (bundled at build by node/make_sw.mjs with esbuild, its precache list
// injected by workbox-build). Two jobs:
// 1. Offline: every file of the built site is precached with a content revision, so after one
//    visit the whole course, Pyodide and its wheels included, works with the server gone; a new
//    build's worker takes over at once and deletes older caches (no stale-cache trap).
// 2. Cross-origin isolation on any static host (the approach of coi-serviceworker): the site's
//    own responses get the COOP/COEP headers, so from the next load on the page may share memory
//    with its Python worker: Stop keeps variables (Pyodide's interrupt buffer) and input() can
//    wait for the reader. Every file is same-origin, so `require-corp` blocks nothing of ours.
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { setDefaultHandler } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";

/* global CACHE_ID */ // set by make_sw.mjs: the site's storage namespace, so two sites on one host never share a cache

const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

function isolated(response) {
  if (!response || response.type === "opaque" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

setCacheNameDetails({ prefix: CACHE_ID }); // before the precache controller exists
self.skipWaiting();
clientsClaim();
const isolation = { handlerWillRespond: async ({ response }) => isolated(response) };
addPlugins([isolation]);
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: "index.html", ignoreURLParametersMatching: [/.*/] });
cleanupOutdatedCaches();

// What the precache does not hold (sitemap.xml, a file added after this build): from the network,
// with the same headers, so an isolated page never loads a document that is not. Workbox's router
// asks this handler only when no precached file matched.
setDefaultHandler(new NetworkOnly({ plugins: [isolation] }));
