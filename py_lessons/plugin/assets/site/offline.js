// Registers the service worker (sw.js at the site root, see ship/frontend/service-worker.js). It
// keeps what the reader's visit fetches (the pages read, Python and the packages run) and nothing
// more; the whole course only when the reader asks for it on the home page (makeAvailableOffline),
// which the worker remembers for later builds.
// A first visit installs it only once the page has settled (loaded, and Python's start-up done
// where the page began one; holdFirstInstall): installing, and keeping files as they stream, costs
// the CPU that Python's start-up needs (a second of a desktop's first output). What the page and
// its Python fetched before the worker controlled it is then handed to the worker, which keeps it
// from the browser's HTTP cache (keepWhatWasFetched, keepFetched).
//
// A new build: its worker copies what is kept and fetches what changed, then takes over every
// open page at once (skipWaiting + clientsClaim in the worker), so the page learns of it when its
// controller changes from one worker to another, and offers "reload now"; the reload is served
// the new build. Edits and progress live in localStorage, which neither the worker nor the reload touch.
import { strings } from "../lib/text.js";
import { offline, siteRoot as root } from "../site.js";

// A first install waits for what the page holds it for at most this long (a start-up that never
// ends must not leave the course without its offline copy).
const FIRST_INSTALL_HOLD_MS = 20000;
// Instant navigation never loads a page, so a long visit would not look for a new build by itself.
const UPDATE_CHECK_MS = 60 * 60 * 1000;
// offline false: this site has no service worker (under `mkdocs serve`)
const supported = offline && "serviceWorker" in navigator && root.protocol.startsWith("http") && globalThis.isSecureContext;
let registering = null;
let registered;
// the registration, once made (a first visit's waits for the page to settle)
const registration = new Promise((resolve) => { registered = resolve; });

function register() {
  registering ??= navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    return null; // no service worker (private mode, an old browser): the site still works online
  });
  registered(registering);
  return registering;
}

// What a first install waits for besides the page's load (holdFirstInstall), and the files fetched
// outside the worker's control that it is to keep once it controls the page (keepFetched).
const holds = [];
const fetchedOutside = new Set();
// those fetched after the hand-over, not yet handed to the worker (handOverFetched)
const notHandedOver = new Set();
let firstInstallDone = false;

/** A first visit's worker is installed only after `promise` settles (at most FIRST_INSTALL_HOLD_MS):
 * call it before the page's load event (a module script's first run). */
export function holdFirstInstall(promise) {
  holds.push(Promise.race([promise, new Promise((resolve) => setTimeout(resolve, FIRST_INSTALL_HOLD_MS))]));
}

/** Site files the first install's look at the page's network list may miss: fetched by someone it
 * does not show (Python's worker), or ending after it (search.js's index): kept like the page's
 * own files, once the worker controls the page. */
export function keepFetched(urls) {
  const fresh = urls.filter((url) => url.startsWith(root.href) && !fetchedOutside.has(url));
  if (!supported || !fresh.length) return;
  for (const url of fresh) fetchedOutside.add(url);
  if (!firstInstallDone) return; // the hand-over takes them (keepWhatWasFetched)
  for (const url of fresh) notHandedOver.add(url);
  idle().then(handOverFetched);
}

/** Hand the worker what was fetched since the hand-over: once the page is idle, or at once when the
 * reader leaves it (pagehide), since a page gone before its idle moment would leave them to be
 * fetched again (matplotlib's wheels: megabytes). The worker keeps them after the page is gone. */
function handOverFetched() {
  if (!notHandedOver.size) return;
  const urls = [...notHandedOver];
  notHandedOver.clear();
  keep(urls);
}

// a moment when the page has nothing else to do (or 2 s at most)
const idle = () => new Promise((resolve) => {
  if (globalThis.requestIdleCallback) requestIdleCallback(resolve, { timeout: 2000 });
  else setTimeout(resolve, 0);
});

/** Whether the reader asked the browser to save data (Chrome's Lite mode, a data-saver setting). */
export const saveData = Boolean(navigator.connection?.saveData);

async function ask(message, onProgress) {
  const made = supported ? await registration : null;
  const worker = made ? (await navigator.serviceWorker.ready).active : null;
  if (!worker) return null;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }) => {
      if (data.type === "progress") onProgress?.(data);
      else resolve(data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

function asStatus(answer) {
  if (!answer) return { ready: false, keepAll: false, bytes: 0, totalBytes: 0, failed: false };
  const { kept, keptBytes, total, totalBytes, keepAll, failed } = answer;
  return { ready: kept === total, keepAll, bytes: keptBytes, totalBytes, failed };
}

/** What this device keeps of the course: `bytes` of the `totalBytes` the whole course takes,
 * `ready` when that is all of it, `keepAll` when the reader chose the whole course. */
export async function offlineStatus() {
  return asStatus(await ask({ type: "status" }));
}

/** Keep the whole course on this device (the reader asked for it), remembered for later builds;
 * `onProgress({done, total})` as files arrive. Resolves with offlineStatus() once done or failed. */
export async function makeAvailableOffline(onProgress) {
  return asStatus(await ask({ type: "keep-all" }, onProgress));
}

/** Forget the choice: what is kept stays, later builds keep only what is read. */
export async function stopKeepingAll() {
  return asStatus(await ask({ type: "keep-all", off: true }));
}

/** Fired on document with offlineStatus() as its detail when what the device keeps has changed. */
export const OFFLINE_CHANGED = "pathshala:offline-changed";

async function keep(urls) {
  const status = asStatus(await ask({ type: "keep", urls }));
  document.dispatchEvent(new CustomEvent(OFFLINE_CHANGED, { detail: status }));
  return status;
}

let firstVisitWasKept;
/** Resolves with offlineStatus() once a first visit's files are kept (never on a later visit,
 * whose worker kept them as they came). */
export const firstVisitKept = new Promise((resolve) => { firstVisitWasKept = resolve; });

/** What this page and its Python loaded before the worker served it: the page itself and every
 * file they fetched. */
function keepWhatWasFetched() {
  firstInstallDone = true;
  const urls = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name), ...fetchedOutside]
    .filter((url) => url.startsWith(root.href));
  return keep(urls).then(firstVisitWasKept);
}

function showUpdateNotice() {
  if (document.querySelector("[data-update-notice]")) return;
  const notice = document.createElement("div");
  notice.className = "pz-update-notice";
  notice.dataset.updateNotice = "";
  const message = document.createElement("p");
  message.setAttribute("role", "status"); // filled in after it is in the page, so it is announced
  const button = (label, action, onClick) => {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "pz-button";
    element.dataset.action = action;
    element.textContent = strings[label];
    element.addEventListener("click", onClick);
    return element;
  };
  notice.append(message, button("update.reload", "reload-now", () => location.reload()),
    button("update.later", "dismiss-update", () => notice.remove()));
  document.body.append(notice);
  requestAnimationFrame(() => { message.textContent = strings["update.available"]; });
}

function watchForUpdates() {
  let controller = navigator.serviceWorker.controller; // null -> a worker is the first install, not news
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controller) showUpdateNotice();
    else keepWhatWasFetched();
    controller = navigator.serviceWorker.controller;
  });
  const lookForNewBuild = () => navigator.serviceWorker.getRegistration(root.href)
    .then((registration) => registration?.update()).catch(() => {}); // offline: next time
  setInterval(lookForNewBuild, UPDATE_CHECK_MS);
  addEventListener("online", lookForNewBuild);
}

/** Resolves once the page has settled: loaded, what it held a first install for settled (Python's
 * start-up, where the page began one; holdFirstInstall), and then a moment of idle. */
export const pageSettled = (async () => {
  if (document.readyState !== "complete") await new Promise((resolve) => addEventListener("load", resolve, { once: true }));
  await Promise.all(holds);
  await idle();
})();

if (supported) {
  watchForUpdates();
  addEventListener("pagehide", handOverFetched);
  // a returning reader's worker: at once (it looks for a new build); a first visit's: once settled
  if (navigator.serviceWorker.controller) register();
  else pageSettled.then(register);
}
