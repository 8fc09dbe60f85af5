// matplotlib's font list with the Bangla font added, made once by the staged Pyodide itself so
// that no start rescans fonts (see py_lessons/runtime/fonts.py, which this runs on its own: the
// runtime wheel is not needed, and the list depends on nothing of it).
//   node make_font_cache.mjs DIR FONTS_PY NAME   write DIR/NAME (fonts from DIR/fonts/)
import { readFile, readdir, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [dir, fontsModule, name] = process.argv.slice(2);
const indexDir = path.resolve(dir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexDir + "pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: indexDir, stdout: () => {}, stderr: (t) => process.stderr.write(t + "\n") });
await pyodide.loadPackage("matplotlib", { messageCallback: () => {} });
const fonts = pyodide.toPy({});
pyodide.runPython(await readFile(fontsModule, "utf8"), { globals: fonts });
const fontDir = fonts.get("FONT_DIR");
pyodide.FS.mkdirTree(fontDir);
for (const font of await readdir(indexDir + "fonts")) {
  pyodide.FS.writeFile(`${fontDir}/${font}`, new Uint8Array(await readFile(indexDir + "fonts/" + font)));
}
await writeFile(indexDir + name, fonts.get("build_font_cache")());
