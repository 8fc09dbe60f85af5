// Writes the site's service worker: frontend/service-worker.js (the offline copy + cross-origin
// isolation headers) bundled by esbuild with the Workbox modules it imports, then every file of
// the built site (found by workbox-build) listed in it with its SHA-256 and size.
//   node make_sw.mjs SITE_DIR CACHE_ID NODE_MODULES   (the plugin's npm packages: dependencies.py)
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [siteDir, cacheId, nodeModules] = process.argv.slice(2);
const requireThere = createRequire(path.resolve(nodeModules) + path.sep);
const { getManifest } = requireThere("workbox-build");
const esbuild = requireThere("esbuild");
const source = fileURLToPath(new URL("../frontend/service-worker.js", import.meta.url));

// Each listed file with its Subresource Integrity and size: the service worker keeps a fetched file
// only if its bytes match, fetches the whole course with it (the browser checks it), checks every
// cached copy against it before serving it, and tells the reader what the whole course weighs.
// No revision: the integrity is the file's identity (one hash, not two, in the sw.js every learner
// downloads). workbox-build finds the files; their list is written in by hand, because its
// injectManifest keeps only its own fields of an entry.
async function listed(entries) {
  return Promise.all(entries.map(async ({ url }) => {
    const bytes = await readFile(path.join(siteDir, decodeURI(url)));
    return { url, integrity: `sha256-${createHash("sha256").update(bytes).digest("base64")}`, size: bytes.length };
  }));
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
  const { manifestEntries, size, warnings } = await getManifest({
    globDirectory: siteDir,
    // bin: Python's start-up snapshot (kept only as a host sends it compressed: service-worker.js)
    globPatterns: ["**/*.{html,js,mjs,css,json,webmanifest,wasm,whl,zip,woff,woff2,ttf,svg,png,ico,xml,ipynb,py,bin}"],
    globIgnores: ["sw.js", "workbox-*.js", "**/*.map", "sitemap.xml*"], // (the .gz and .br copies are not listed)
    maximumFileSizeToCacheInBytes: 32 * 1024 * 1024, // pyodide.asm.wasm is about 10 MB
  });
  for (const warning of warnings) console.error(warning);
  const code = await readFile(bundled, "utf-8");
  const placeholder = "self.__WB_MANIFEST";
  if (code.split(placeholder).length !== 2) throw new Error(`${source}: ${placeholder} must appear once`);
  await writeFile(`${siteDir}/sw.js`, code.replace(placeholder, JSON.stringify(await listed(manifestEntries))));
  console.log(JSON.stringify({ count: manifestEntries.length, size }));
} finally {
  await rm(work, { recursive: true, force: true });
}
