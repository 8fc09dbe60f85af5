// Render TeX to MathML with KaTeX at build time. stdin: JSON [[tex, display], ...]; stdout: JSON
// [{html} | {error}, ...]. Run by py_lessons/plugin/render/math.py.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(process.argv[2] + "/");
const katex = require("katex");
const jobs = JSON.parse(readFileSync(0, "utf8"));
const out = jobs.map(([tex, display]) => {
  try {
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "mathml" }) };
  } catch (error) {
    return { error: String(error.message || error) };
  }
});
process.stdout.write(JSON.stringify(out));
