// mkdocs-material's instant navigation (one page load, one Python worker for the whole course)
// only follows links listed in sitemap.xml, whose <loc>s must be absolute URLs built from
// `site_url`. This course has no site_url on purpose: it is served from wherever it was copied
// (a laptop, a classroom server, a sub-path such as /course/). So the one sitemap request the
// theme makes is answered here with this site's own pages at the address this page really came
// from. The page list is written into this script tag by the plugin (ship/writer.py head_tags).
// Runs as a classic script in <head>, before the theme's bundle asks for the sitemap.
(() => {
  if (globalThis.__pathshalaSitemap) return; // the head is diffed on page swaps; patch once
  const script = document.currentScript;
  // a classic script cannot import site.js (siteRoot): this file lives in <base>/assets/pathshala/site/
  const base = new URL("../../../", script.src);
  const pages = JSON.parse(script.dataset.pages);
  const escapeXml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const xml = '<?xml version="1.0" encoding="UTF-8"?>'
    + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    + pages.map((page) => `<url><loc>${escapeXml(new URL(page, base).href)}</loc></url>`).join("")
    + "</urlset>";
  const answer = URL.createObjectURL(new Blob([xml], { type: "text/xml" }));
  const sitemap = new URL("sitemap.xml", base).href;
  globalThis.__pathshalaSitemap = answer;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    return open.call(this, method, String(url) === sitemap ? answer : url, ...rest);
  };
})();
