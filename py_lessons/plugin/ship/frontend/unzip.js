// Entry point bundled by esbuild into assets/vendor/unzip.js: fflate's zip reader (npm, pinned in
// package.json; chosen for its size: ~10 KB minified for this one function, no dependencies),
// for a teacher's class page that is handed a zip of learners' files. Loaded only then.
export { unzipSync } from "fflate";
