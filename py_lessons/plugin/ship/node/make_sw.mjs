// Writes the site's service worker: frontend/service-worker.js (offline precache + cross-origin
// isolation headers) bundled by esbuild with the Workbox modules it imports, then every file of
// the built site listed in it with its SHA-256 by workbox-build's injectManifest: the hash is both
// the precache revision and the integrity every cached copy is checked against.
//   node make_sw.mjs SITE_DIR CACHE_ID NODE_MODULES   (the plugin's npm packages: dependencies.py)
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [siteDir, cacheId, nodeModules] = process.argv.slice(2);
const requireThere = createRequire(path.resolve(nodeModules) + path.sep);
const { injectManifest } = requireThere("workbox-build");
const esbuild = requireThere("esbuild");
const source = fileURLToPath(new URL("../frontend/service-worker.js", import.meta.url));

// Subresource Integrity of each listed file: Workbox fetches with it at install (the browser
// checks it) and the service worker checks every cached copy against it before serving it.
async function withIntegrity(entries) {
  const manifest = await Promise.all(entries.map(async (entry) => {
    const bytes = await readFile(path.join(siteDir, decodeURI(entry.url)));
    // revision null: the service worker uses the integrity as the revision (one hash, not two, in
    // the sw.js every learner downloads)
    return { ...entry, revision: null, integrity: `sha256-${createHash("sha256").update(bytes).digest("base64")}` };
  }));
  return { manifest, warnings: [] };
}

const work = await mkdtemp(path.join(os.tmpdir(), "py-lessons-sw-"));
try {
  const bundled = path.join(work, "sw.js");
  await esbuild.build({
    entryPoints: [source],
    bundle: true,
    format: "iife",
    minify: true,
    legalComments: "none",
    nodePaths: [path.resolve(nodeModules)],
    // Workbox's development code is dropped; the cache names carry this site's id.
    define: { "process.env.NODE_ENV": '"production"', CACHE_ID: JSON.stringify(cacheId) },
    outfile: bundled,
    logLevel: "error",
  });
  const { count, size, warnings } = await injectManifest({
    swSrc: bundled,
    swDest: `${siteDir}/sw.js`,
    globDirectory: siteDir,
    // python-snapshot.gz: Python's start-up snapshot (gzip by itself; other .gz files are copies)
    globPatterns: ["**/*.{html,js,mjs,css,json,webmanifest,wasm,whl,zip,woff,woff2,ttf,svg,png,ico,xml,ipynb,py}",
      "**/python-snapshot.gz"],
    globIgnores: ["sw.js", "workbox-*.js", "**/*.map", "sitemap.xml*"],
    maximumFileSizeToCacheInBytes: 32 * 1024 * 1024, // pyodide.asm.wasm is about 10 MB
    manifestTransforms: [withIntegrity],
  });
  for (const warning of warnings) console.error(warning);
  console.log(JSON.stringify({ count, size }));
} finally {
  await rm(work, { recursive: true, force: true });
}
