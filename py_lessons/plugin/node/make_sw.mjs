// Writes the site's service worker with Workbox (npm workbox-build): every file of the built site
// is precached with a content revision, so after one visit the whole course, Pyodide and its
// wheels included, works with the server gone. A new build changes revisions; the new worker
// takes over at once and deletes the caches of older builds (no stale-cache trap).
//   node make_sw.mjs SITE_DIR CACHE_ID NODE_MODULES   (the plugin's npm packages: dependencies.py)
import { createRequire } from "node:module";
import path from "node:path";

const [siteDir, cacheId, nodeModules] = process.argv.slice(2);
const { generateSW } = createRequire(path.resolve(nodeModules) + path.sep)("workbox-build");
const { count, size, warnings } = await generateSW({
  globDirectory: siteDir,
  globPatterns: ["**/*.{html,js,mjs,css,json,wasm,whl,zip,woff,woff2,ttf,svg,png,ico,xml}"],
  globIgnores: ["sw.js", "workbox-*.js", "**/*.map", "sitemap.xml*"],
  swDest: `${siteDir}/sw.js`,
  cacheId,
  inlineWorkboxRuntime: true, // no workbox-sw fetched from a CDN
  maximumFileSizeToCacheInBytes: 32 * 1024 * 1024, // pyodide.asm.wasm is about 10 MB
  cleanupOutdatedCaches: true,
  skipWaiting: true,
  clientsClaim: true,
  directoryIndex: "index.html",
  ignoreURLParametersMatching: [/.*/],
  mode: "production",
  sourcemap: false,
});
for (const warning of warnings) console.error(warning);
console.log(JSON.stringify({ count, size }));
