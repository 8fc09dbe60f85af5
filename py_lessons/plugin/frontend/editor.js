// Entry point bundled by esbuild into assets/vendor/editor.js: the CodeMirror 6 pieces the
// cells use, from npm (package.json pins them). Our own modules import this one file.
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

export { EditorView, basicSetup } from "codemirror";
export { keymap } from "@codemirror/view";
export { Prec } from "@codemirror/state";
export { python } from "@codemirror/lang-python";

// Python colours with at least 4.5:1 contrast on the light editor background (the default
// style's orange and light greens fall short of WCAG AA, which the accessibility tests check).
export const readableHighlighting = syntaxHighlighting(HighlightStyle.define([
  { tag: tags.keyword, color: "#7b1fa2" },
  { tag: [tags.string, tags.special(tags.string)], color: "#a3190f" },
  { tag: [tags.number, tags.bool, tags.null], color: "#0b6b3a" },
  { tag: tags.comment, color: "#5c6370", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)], color: "#0d47a1" },
  { tag: [tags.operator, tags.punctuation], color: "#37474f" },
  { tag: tags.className, color: "#8a4b00" },
]));
