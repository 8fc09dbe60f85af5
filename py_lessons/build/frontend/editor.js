// Entry point bundled by esbuild into assets/vendor/editor.js: the CodeMirror 6 pieces the
// cells use, from npm (package.json pins them). Our own modules import this one file.
export { EditorView, basicSetup } from "codemirror";
export { keymap } from "@codemirror/view";
export { Prec } from "@codemirror/state";
export { python } from "@codemirror/lang-python";
