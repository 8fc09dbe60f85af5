// The site's service worker (bundled at build by node/make_sw.mjs with esbuild, its precache list
// injected by workbox-build). Two jobs:
// 1. Offline: every file of the built site is precached with a content revision, so after one
//    visit the whole course, Pyodide and its wheels included, works with the server gone; a new
//    build's worker takes over at once and deletes older caches (no stale-cache trap).
//    Every cached file is served only as built: its SHA-256 is checked against the build's
//    manifest each time (see asBuilt), so nothing that can write Cache Storage (a learner's cell)
//    can change what a page or script of the course is.
// 2. Cross-origin isolation on any static host (the approach of coi-serviceworker): the site's
//    own responses get the COOP/COEP headers, so from the next load on the page may share memory
//    with its Python worker: Stop keeps variables (Pyodide's interrupt buffer) and input() can
//    wait for the reader. Every file is same-origin, so `require-corp` blocks nothing of ours.
import { cleanupOutdatedCaches, PrecacheController, PrecacheRoute } from "workbox-precaching";
import { clientsClaim, setCacheNameDetails } from "workbox-core";
import { registerRoute, setDefaultHandler } from "workbox-routing";
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

async function sri(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

setCacheNameDetails({ prefix: CACHE_ID }); // before the precache controller exists
self.skipWaiting();
clientsClaim();
const isolation = { handlerWillRespond: async ({ response }) => isolated(response) };

// A cached copy is used only if its bytes are the build's (make_sw.mjs puts each file's SHA-256 in
// the manifest, which lives in this script: no page or worker can write it). Any other copy is
// deleted and treated as missing: Workbox then fetches the file again with that integrity, which
// the browser checks, and repairs the cache (offline, the request fails instead of serving it).
// Workbox reads the cache through this plugin at install too, so a new build keeps no tampered entry.
const asBuilt = {
  async cachedResponseWillBeUsed({ cacheName, request, cachedResponse }) {
    if (!cachedResponse) return null;
    const expected = precache.getIntegrityForCacheKey(request.url);
    const body = await cachedResponse.arrayBuffer();
    if (expected && (await sri(body)) === expected) {
      const { status, statusText, headers } = cachedResponse;
      return new Response(body, { status, statusText, headers });
    }
    await (await caches.open(cacheName)).delete(request);
    return null;
  },
};
const precache = new PrecacheController({ plugins: [isolation, asBuilt] });
// each file's hash is its revision too: a rebuild that changes a file changes its cache key
precache.precache(self.__WB_MANIFEST.map((entry) => ({ ...entry, revision: entry.integrity })));
registerRoute(new PrecacheRoute(precache, { directoryIndex: "index.html", ignoreURLParametersMatching: [/.*/] }));
cleanupOutdatedCaches();

// What the precache does not hold (sitemap.xml, a file added after this build): from the network,
// with the same headers, so an isolated page never loads a document that is not. Workbox's router
// asks this handler only when no precached file matched.
setDefaultHandler(new NetworkOnly({ plugins: [isolation] }));
