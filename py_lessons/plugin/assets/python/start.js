// Pyodide start-up, written once: the reader's worker (worker.js, over fetch) and the build-time
// runner (execute/node/run_cells.mjs, over the file system) both call these, so both run the same
// py_lessons.runtime on the same staged files with the same settings and fonts.

/**
 * @typedef {{readText(name: string): Promise<string>, readBytes(name: string): Promise<Uint8Array>}} StagedFiles
 *   Files of the staged Pyodide folder, by name relative to it.
 */

/** The staged folder's manifest (py_lessons/plugin/ship/staging.py writes it). */
export const MANIFEST = "pathshala-manifest.json";
export async function readManifest(files) {
  return JSON.parse(await files.readText(MANIFEST));
}

// Pyodide ends every loadPackage with importlib.invalidate_caches(), and Python 3.12's zip importer
// then reads its whole archive's directory again: once per package directory of the standard
// library it has imported from (a dozen), 100-150 ms of every package load. The standard
// library's zip never changes in a session, so its importers keep the directory they have;
// any other zip (a reader's own) is read again as before.
const STDLIB_READ_ONCE = `
import sys, zipimport
def _read_once():
    stdlib = {path for path in sys.path if path.endswith(".zip")}
    read_again = zipimport.zipimporter.invalidate_caches
    def invalidate_caches(self):
        if self.archive not in stdlib:
            read_again(self)
    zipimport.zipimporter.invalidate_caches = invalidate_caches
_read_once()
del _read_once
`;

/** After `pyodide` started: install the runtime wheel (and the course's own modules), configure
 * py_lessons.runtime. Returns its `session` module (py_lessons.runtime.session). */
export async function startRuntime(pyodide, manifest) {
  pyodide.runPython(STDLIB_READ_ONCE);
  await pyodide.loadPackage(manifest.runtime_packages, { messageCallback: () => {} });
  const session = pyodide.pyimport("py_lessons.runtime.session");
  session.configure();
  return session;
}

/** matplotlib's Bangla font and the font list made for it (call once matplotlib is loaded). */
export async function installFonts(pyodide, session, manifest, files) {
  pyodide.FS.mkdirTree(session.FONT_DIR);
  for (const name of manifest.font_files) {
    pyodide.FS.writeFile(`${session.FONT_DIR}/${name}`, await files.readBytes("fonts/" + name));
  }
  if (manifest.font_cache) session.install_font_cache(await files.readText(manifest.font_cache));
}
