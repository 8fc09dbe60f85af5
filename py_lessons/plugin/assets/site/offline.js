// Registers the service worker (sw.js at the site root, see ship/frontend/service-worker.js) as
// soon as a page opens. It keeps what the reader's visit fetches (the pages read, Python and the
// packages run) and nothing more; the whole course only when the reader asks for it on the home
// page (makeAvailableOffline), which the worker remembers for later builds.
// What the page fetched before the worker controlled it (its first load) is handed to the worker
// once it does; Python's worker is started only after that (cells/index.js waits for
// pageControlled(), at most a few seconds), so its downloads are kept too.
//
// A new build: its worker copies what is kept and fetches what changed, then takes over every
// open page at once (skipWaiting + clientsClaim in the worker), so the page learns of it when its
// controller changes from one worker to another, and offers "reload now"; the reload is served
// the new build. Edits and progress live in localStorage, which neither the worker nor the reload touch.
import { strings } from "../lib/text.js";
import { offline, siteRoot as root } from "../site.js";

// Python waits at most this long for the first install, so a slow network never holds up a Run.
const CONTROL_WAIT_MS = 4000;
// Instant navigation never loads a page, so a long visit would not look for a new build by itself.
const UPDATE_CHECK_MS = 60 * 60 * 1000;
// offline false: this site has no service worker (under `mkdocs serve`)
const supported = offline && "serviceWorker" in navigator && root.protocol.startsWith("http") && globalThis.isSecureContext;
let registering = null;

function register() {
  registering ??= navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    return null; // no service worker (private mode, an old browser): the site still works online
  });
  return registering;
}

/** Resolves once this page is served by the site's worker (so what it fetches from now on is
 * kept), or at once where there is none, or after CONTROL_WAIT_MS. */
export function pageControlled() {
  if (!supported || navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, CONTROL_WAIT_MS);
  });
}

/** Whether the reader asked the browser to save data (Chrome's Lite mode, a data-saver setting). */
export const saveData = Boolean(navigator.connection?.saveData);

async function ask(message, onProgress) {
  const registration = supported ? await register() : null;
  const worker = registration ? (await navigator.serviceWorker.ready).active : null;
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

/** What this page loaded before the worker served it: the page itself and every file it fetched. */
async function keepWhatWasFetched() {
  const urls = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)]
    .filter((url) => url.startsWith(root.href));
  const status = asStatus(await ask({ type: "keep", urls }));
  document.dispatchEvent(new CustomEvent(OFFLINE_CHANGED, { detail: status }));
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

if (supported) {
  watchForUpdates();
  register(); // at once: installing costs sw.js alone, and from then on what is read is kept
}
