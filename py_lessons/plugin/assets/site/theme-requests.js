// Two requests of mkdocs-material's own, answered as this course needs them, and one of its
// rewrites made needless (the head's links, below). Runs as a classic script in <head>, before the
// theme's bundle (the plugin writes the tag: ship/writer.py head_tags). The head is diffed on page
// swaps: it patches once.
//
// The sitemap. Instant navigation (one page load, one Python worker for the whole course) only
// follows links listed in sitemap.xml, whose <loc>s must be absolute URLs built from `site_url`.
// This course has no site_url on purpose: it is served from wherever it was copied (a laptop, a
// classroom server, a sub-path such as /course/). So the theme's sitemap request is answered here
// with this site's own pages (the plugin writes their list into this tag) at the address this
// page really came from.
//
// The search index. The theme asks for search/search_index.json as every page loads, parses it
// on the page's thread and has its search worker build the index at once: most of a second of a
// desktop core, several on a phone, on every full page load, in the very seconds Python starts
// (and, put off only until Python is ready, in the moments the reader first runs a cell or moves a
// slider). That request is held here until the reader turns to search: the search toggle (the
// theme opens search through it from its icon, its field and its shortcut keys) or the field. The
// file itself is fetched once the page has settled (site/search.js), so that the offline copy
// keeps it and the theme's request is then answered from the browser's cache.
(() => {
  if (globalThis.__pathshalaThemeRequests) return;
  const script = document.currentScript;
  // a classic script cannot import site.js (siteRoot): this file lives in <base>/assets/pathshala/site/
  const base = new URL("../../../", script.src);
  const pages = JSON.parse(script.dataset.pages);
  const escapeXml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const xml = '<?xml version="1.0" encoding="UTF-8"?>'
    + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    + pages.map((page) => `<url><loc>${escapeXml(new URL(page, base).href)}</loc></url>`).join("")
    + "</urlset>";
  const sitemapAnswer = URL.createObjectURL(new Blob([xml], { type: "text/xml" }));
  const sitemap = new URL("sitemap.xml", base).href;
  const searchIndex = new URL("search/search_index.json", base).href;

  const heldSends = [];
  let indexReleased = false;
  const releaseSearchIndex = () => {
    if (indexReleased) return;
    indexReleased = true;
    for (const send of heldSends.splice(0)) send();
  };
  const turnsToSearch = (event) => {
    const target = event.target;
    if (target instanceof Element && target.matches('[data-md-toggle="search"], .md-search__input')) releaseSearchIndex();
  };
  document.addEventListener("change", turnsToSearch, true);
  document.addEventListener("focusin", turnsToSearch, true);
  globalThis.__pathshalaThemeRequests = true;

  // The head's links, absolute as the parser adds them. The theme's bundle makes every relative
  // address of the page absolute (so that the kept head still points right after instant
  // navigation), by setting each one again: a stylesheet's link set again is read again, its
  // @font-face rules registered again, and the whole page was styled and laid out again inside the
  // bundle's first task (136-140 ms in Lighthouse traces, against 63-80 ms with this).
  // Done here, before the first layout, the theme finds them absolute and leaves them.
  const absolute = /^(?:[a-z]+:)?\/\//i; // the theme's own test
  const settle = (link) => {
    const address = link.getAttribute("href");
    if (!address || absolute.test(address)) return;
    // a stylesheet whose address is set again loads again: the first frame still waits for it
    if (link.rel === "stylesheet") link.setAttribute("blocking", "render");
    link.href = link.href;
  };
  document.head.querySelectorAll("link[href]").forEach(settle);
  const headLinks = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.localName === "link") settle(node);
  });
  headLinks.observe(document.head, { childList: true });
  document.addEventListener("DOMContentLoaded", () => headLinks.disconnect(), { once: true });

  const opened = new WeakMap(); // request -> the address it was opened for
  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    let address = null;
    try { address = new URL(String(url), location.href).href; } catch { /* open() itself says what is wrong */ }
    opened.set(this, address);
    return open.call(this, method, address === sitemap ? sitemapAnswer : url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...body) {
    if (indexReleased || opened.get(this) !== searchIndex) return send.apply(this, body);
    heldSends.push(() => send.apply(this, body));
    return undefined;
  };
})();
