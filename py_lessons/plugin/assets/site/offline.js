// Registers the service worker (sw.js at the site root, written at build by Workbox) that keeps
// the whole course, Pyodide included, usable after one visit with no server at all.
// Precaching downloads the whole site (about 30 MB), so it waits until the reader's first Python
// output has arrived (cells/cell.js fires "pathshala:python-ready") or the page has been open a while:
// it must never compete with the first Run. makeAvailableOffline() starts it at once.
//
// A new build: its worker precaches the new files, then takes over every open page at once
// (skipWaiting + clientsClaim in the worker), so the page learns of it when its controller
// changes from one worker to another, and offers "reload now"; the reload is served the new
// build. Edits and progress live in localStorage, which neither the worker nor the reload touch.
import { strings } from "../lib/text.js";
import { siteRoot as root, storageNamespace } from "../site.js";

const LATEST_START_MS = 20000;
// Instant navigation never loads a page, so a long visit would not look for a new build by itself.
const UPDATE_CHECK_MS = 60 * 60 * 1000;
const supported = "serviceWorker" in navigator && root.protocol.startsWith("http");
let registering = null;

function register() {
  registering ??= navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    return null; // no service worker (private mode, an old browser): the site still works online
  });
  return registering;
}

/** Whether this site's offline copy is complete, and its size in bytes (what Cache Storage holds
 * for it: the precache of this build, Python's start-up snapshot included). */
export async function offlineStatus() {
  const registration = supported ? await navigator.serviceWorker.getRegistration(root.href) : undefined;
  const ready = registration?.scope === root.href && Boolean(registration.active);
  return { ready, bytes: ready ? await precacheBytes() : 0 };
}

/** Precache the whole site now (the reader asked for it) instead of after the first run; resolves
 * with offlineStatus() once the worker has installed, or failed to. */
export async function makeAvailableOffline() {
  const registration = supported ? await register() : null;
  if (registration) await installed(registration);
  return offlineStatus();
}

function installed(registration) {
  const worker = registration.installing || registration.waiting;
  const settled = () => !worker || worker.state === "activated" || worker.state === "redundant";
  return new Promise((resolve) => {
    if (settled()) resolve();
    else worker.addEventListener("statechange", () => { if (settled()) resolve(); });
  });
}

async function precacheBytes() {
  let bytes = 0;
  for (const name of await caches.keys()) {
    // Workbox names its precache "<prefix>-precache-<version>-<scope>"; the prefix is this site's
    if (!name.startsWith(`${storageNamespace}-precache-`) || !name.endsWith(root.href)) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) bytes += (await (await cache.match(request)).blob()).size;
  }
  return bytes;
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
    controller = navigator.serviceWorker.controller;
  });
  const lookForNewBuild = () => navigator.serviceWorker.getRegistration(root.href)
    .then((registration) => registration?.update()).catch(() => {}); // offline: next time
  setInterval(lookForNewBuild, UPDATE_CHECK_MS);
  addEventListener("online", lookForNewBuild);
}

if (supported) {
  watchForUpdates();
  if (navigator.serviceWorker.controller) {
    register(); // already offline-ready (loading this page made the browser look for a newer build)
  } else {
    document.addEventListener("pathshala:python-ready", register, { once: true });
    addEventListener("load", () => setTimeout(register, LATEST_START_MS), { once: true });
  }
}
