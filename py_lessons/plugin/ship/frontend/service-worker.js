// The site's service worker (bundled at build by node/make_sw.mjs with esbuild, its list of the
// site's files injected by workbox-build: URL, SHA-256 and size of each). Two jobs:
// 1. Offline, paid for only as used: every file of the site a page or its Python fetches is kept
//    (the pages read, Pyodide, the packages run), nothing else, so opening one lesson on prepaid
//    data costs what that lesson needs. The whole course is kept only when the reader asks for it
//    (the home page, offline.js: "keep-all"); that choice is remembered, and a new build then
//    fetches what changed, so the copy stays whole. A new build's worker takes over at once: it
//    copies the unchanged files it already has into its own cache (no download), fetches the
//    changed ones among those kept, and deletes the older caches (no stale-cache trap).
//    Every cached file is served only as built: its SHA-256 is checked against the build's list
//    each time (see asBuilt), so nothing that can write Cache Storage (a learner's cell) can
//    change what a page or script of the course is.
// 2. Cross-origin isolation on any static host (the approach of coi-serviceworker): the site's
//    own responses get the COOP/COEP headers, so from the next load on the page may share memory
//    with its Python worker: Stop keeps variables (Pyodide's interrupt buffer) and input() can
//    wait for the reader. Every file is same-origin, so `require-corp` blocks nothing of ours.
import { clientsClaim } from "workbox-core";
import { registerRoute, setDefaultHandler } from "workbox-routing";
import { CacheFirst, NetworkOnly } from "workbox-strategies";

/* global CACHE_ID */ // set by make_sw.mjs: the site's storage namespace, so two sites on one host never share a cache

const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};
// the reader's "keep the whole course" (an entry of the files cache: it moves to each new build's)
const KEEP_ALL = "__keep-the-whole-course__";
// seen: this host sends files as they are (see noteHost); until seen, the course's size counts
// what a host that compresses gets (an entry of the files cache, moved like KEEP_ALL)
const HOST_AS_IS = "__host-sends-files-as-they-are__";
const scope = self.registration.scope;
const files = new Map(self.__WB_MANIFEST.map(({ url, integrity, size }) => [new URL(url, scope).href, { integrity, size }]));
const CACHE_PREFIX = `${CACHE_ID}-files-`;
// one cache per build, named by its list of files (a rebuild that changes nothing keeps its cache)
const cacheNameReady = digest(new TextEncoder().encode(JSON.stringify([...files]))).then(
  (hash) => `${CACHE_PREFIX}${hash.slice(7, 19).replace(/[+/=]/g, "_")}-${scope}`);

/** A cache of this site at this scope (this build's, an older build's, or an older worker's precache). */
const ours = (name) => name.startsWith(`${CACHE_ID}-`) && name.endsWith(scope);

function isolated(response) {
  if (!response || response.type === "opaque" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...hash))}`;
}

/** The site's file a request asks for (its list's URL: no query, a folder's index.html), or null. */
function fileOf(url) {
  const plain = new URL(url);
  plain.search = "";
  plain.hash = "";
  if (plain.pathname.endsWith("/")) plain.pathname += "index.html";
  return files.has(plain.href) ? plain.href : null;
}

/** A copy whose bytes are the build's, as a fresh response; null for any other (deleted). */
async function asBuiltCopy(cache, key, response) {
  if (!response) return null;
  const body = await response.arrayBuffer();
  if ((await digest(body)) === files.get(key).integrity) {
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  }
  await cache.delete(key);
  return null;
}

/** Python's start-up snapshot (.bin, 25 MB as taken) is worth keeping only as a host that serves
 * the build's compressed copies sends it (3.3 MB brotli, 5 MB gzip); where a host sends it as it
 * is, the page cancels it and fetches its gzip copy instead (python/snapshot.js), and this worker
 * keeps neither (that host starts Python the normal way offline). */
const isSnapshot = (url) => new URL(url).pathname.endsWith(".bin");
/** Files the build always ships compressed copies of: how one arrives tells how this host sends files. */
const isProbe = (url) => isSnapshot(url) || new URL(url).pathname.endsWith("/pathshala-manifest.json");
const sentAsIs = (response) => ["", "identity"].includes(response.headers.get("content-encoding") ?? "");
/** Remember how this host sends files (a probe's response); true if the response is refused (a
 * snapshot sent as it is: cancelled). */
async function noteHost(cache, url, response) {
  if (!isProbe(url)) return false;
  const marker = new URL(HOST_AS_IS, scope).href;
  if (!sentAsIs(response)) {
    await cache.delete(marker);
    return false;
  }
  await cache.put(marker, new Response("1"));
  if (!isSnapshot(url)) return false;
  await response.body?.cancel();
  return true;
}
// Each wheel and the standard library ship twice (ship/stored_twins.py): as built, and as a stored
// twin in stored/ that a host which compresses sends in fewer bytes. The page's Python takes one
// of each pair, by how the host sends files; this worker keeps and counts that one.
const originalOf = (key) => key.replace(/\/stored\/(?=[^/]*$)/, "/");
const twins = new Set([...files.keys()].filter((key) => originalOf(key) !== key && files.has(originalOf(key))));
const withTwin = new Set([...twins].map(originalOf));
/** A file this host's pages never fetch (unless the host changed): not kept, not counted. */
const notThisHosts = (key, asIs) => (asIs ? twins.has(key) || isSnapshot(key) : withTwin.has(key));

const toFile = { cacheKeyWillBeUsed: async ({ request }) => fileOf(request.url) };
const isolation = { handlerWillRespond: async ({ response }) => isolated(response) };
// A cached copy is used only if its bytes are the build's (the list lives in this script: no page
// or worker can write it); any other copy is deleted and the file fetched again. A fetched file is
// kept only if its bytes are the build's (a host serving another build's file is not cached).
const asBuilt = {
  async cachedResponseWillBeUsed({ cacheName, request, cachedResponse }) {
    return asBuiltCopy(await caches.open(cacheName), request.url, cachedResponse);
  },
  async cacheWillUpdate({ request, response }) {
    if (!response?.ok || response.status !== 200) return null;
    if (await noteHost(await caches.open(await cacheNameReady), request.url, response)) return null;
    const bytes = await response.clone().arrayBuffer();
    return (await digest(bytes)) === files.get(fileOf(request.url))?.integrity ? response : null;
  },
};

self.skipWaiting();
clientsClaim();

let keptFiles = null; // a CacheFirst on this build's cache, once its name is known
cacheNameReady.then((cacheName) => {
  keptFiles = new CacheFirst({ cacheName, plugins: [toFile, asBuilt, isolation] });
});
registerRoute(
  ({ request, url }) => request.method === "GET" && !request.headers.has("range") && fileOf(url.href) !== null,
  async (options) => { await cacheNameReady; return keptFiles.handle(options); });
// What the site's list does not hold (sitemap.xml, a file added after this build): from the
// network, with the same headers, so an isolated page never loads a document that is not.
setDefaultHandler(new NetworkOnly({ plugins: [isolation] }));

/** What any page may load later, kept with the first page read: the course's scripts and styles
 * (components load where a page has one), the code editor (fetched when the reader reaches for a
 * cell) and its sanitiser, and the tab's icon (the browser fetches it itself, so no page lists
 * it among what it loaded); under 1 MB before compression. */
function shell() {
  const folders = ["assets/pathshala/", "assets/vendor/editor.js", "assets/vendor/dompurify/", "assets/images/favicon.png"].map((part) => new URL(part, scope).href);
  return [...files.keys()].filter((key) => folders.some((folder) => key.startsWith(folder)));
}

/** Fetch the file with its integrity (the browser checks it) and keep it: from the browser's HTTP
 * cache if it is there and still the build's (a page's first load fetched it moments ago), else
 * from the server. */
async function download(cache, key, asked = key) {
  const { integrity } = files.get(key);
  const response = await fetch(new Request(asked, { integrity })).catch(
    () => fetch(new Request(key, { integrity, cache: "no-cache" })));
  if (!response.ok) throw new Error(`${key}: ${response.status}`);
  if (await noteHost(cache, key, response)) return;
  await cache.put(key, response);
}

async function keptCount(cache) {
  const keys = new Set((await cache.keys()).map((request) => request.url));
  let count = 0;
  let bytes = 0;
  let total = 0;
  let totalBytes = 0;
  const asIs = keys.has(new URL(HOST_AS_IS, scope).href);
  for (const [key, { size }] of files) {
    const kept = keys.has(key);
    if (!kept && notThisHosts(key, asIs)) continue;
    total += 1;
    totalBytes += size;
    if (kept) { count += 1; bytes += size; }
  }
  return { count, bytes, total, totalBytes, keepAll: keys.has(new URL(KEEP_ALL, scope).href) };
}

// A new build: what the older caches hold and is unchanged is copied; what was kept and changed
// (or everything, if the reader chose the whole course) is fetched. A failed fetch fails the
// install: the older build's worker stays, with its complete copy.
self.addEventListener("install", (event) => event.waitUntil((async () => {
  const current = await cacheNameReady;
  const cache = await caches.open(current);
  const older = (await caches.keys()).filter((name) => name !== current && ours(name));
  const keepAllKey = new URL(KEEP_ALL, scope).href;
  const asIsKey = new URL(HOST_AS_IS, scope).href;
  let keepAll = Boolean(await cache.match(keepAllKey));
  const wanted = new Set();
  for (const name of older) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      if (request.url === keepAllKey) { keepAll = true; continue; }
      if (request.url === asIsKey) { await cache.put(asIsKey, new Response("1")); continue; }
      // a Workbox precache of the builds before this worker keys its files with a revision query
      const key = fileOf(request.url);
      if (!key || (await cache.match(key))) continue;
      const copy = await asBuiltCopy(cache, key, await old.match(request));
      if (copy) await cache.put(key, copy);
      else wanted.add(key); // kept, and changed in this build
    }
  }
  if (keepAll) {
    await cache.put(keepAllKey, new Response("1"));
    const asIs = Boolean(await cache.match(asIsKey));
    for (const key of files.keys()) if (!notThisHosts(key, asIs) && !(await cache.match(key))) wanted.add(key);
  }
  for (const key of wanted) await download(cache, key);
})()));

self.addEventListener("activate", (event) => event.waitUntil((async () => {
  const current = await cacheNameReady;
  for (const name of await caches.keys()) {
    if (name !== current && ours(name)) await caches.delete(name);
  }
})()));

// Messages from offline.js, each answered on its port:
//   {type: "status"}                    -> {kept, keptBytes, total, totalBytes, keepAll}
//   {type: "keep", urls}                -> the same, after keeping those of the site's files (what
//                                          the page fetched before this worker controlled it) and
//                                          the shell()
//   {type: "keep-all"}                  -> the same, after keeping every file (remembered);
//                                          {type: "progress", bytes} (kept so far) meanwhile
//   {type: "keep-all", off: true}       -> the choice forgotten (what is kept stays)
self.addEventListener("message", (event) => {
  const port = event.ports[0];
  if (!port || !["status", "keep", "keep-all"].includes(event.data?.type)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(await cacheNameReady);
    const { type, urls = [], off = false } = event.data;
    let failed = false;
    // [key, the URL it was asked by] (a folder's page is in the HTTP cache under the folder's URL)
    const keep = async (wanted) => {
      let { bytes } = await keptCount(cache);
      for (const [key, asked] of new Map(wanted)) {
        try {
          if (!(await asBuiltCopy(cache, key, await cache.match(key)))) {
            await download(cache, key, asked);
            bytes += files.get(key).size;
          }
        } catch {
          failed = true;
        }
        if (type === "keep-all") port.postMessage({ type: "progress", bytes });
      }
    };
    // a probe first: which copy of a file is kept (and what the rest costs) depends on how this host sends files
    const keepForThisHost = async (wanted) => {
      await keep(wanted.filter(([key]) => isProbe(key) && !isSnapshot(key)));
      const asIs = Boolean(await cache.match(new URL(HOST_AS_IS, scope).href));
      await keep(wanted.filter(([key]) => !notThisHosts(key, asIs)));
    };
    if (type === "keep") {
      await keepForThisHost([...shell().map((key) => [key, key]), ...urls.filter(fileOf).map((url) => [fileOf(url), url])]);
    }
    if (type === "keep-all" && off) await cache.delete(new URL(KEEP_ALL, scope).href);
    else if (type === "keep-all") {
      await cache.put(new URL(KEEP_ALL, scope).href, new Response("1"));
      const have = new Set((await cache.keys()).map((request) => request.url));
      await keepForThisHost([...files.keys()].filter((key) => !have.has(key)).map((key) => [key, key]));
    }
    const { count, bytes, total, totalBytes, keepAll } = await keptCount(cache);
    port.postMessage({ type: "status", kept: count, keptBytes: bytes, total, totalBytes, keepAll, failed });
  })());
});
