// Entry point bundled by esbuild into assets/vendor/editor.js: the CodeMirror 6 pieces the
// cells use, from npm (package.json pins them). Our own modules import this one file.
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

import { EditorView } from "codemirror";
import { Decoration, GutterMarker, gutterLineClass } from "@codemirror/view";
import { RangeSet, StateEffect, StateField } from "@codemirror/state";

export { EditorView };
export { basicSetup } from "codemirror";
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

// A marked line: the failing line of a run (setErrorLine.of(lineNumber), or null to clear, set by
// cell.js after an error) and the line a step-through shows (setTraceLine, cells/trace-view.js),
// each a line highlight with a marked line number; an edit clears both, since lines move.
export const setErrorLine = StateEffect.define();
export const setTraceLine = StateEffect.define();

class LineNumberMark extends GutterMarker {
  constructor(className) { super(); this.className = className; }
  get elementClass() { return this.className; }
}

function markedLine(effect, lineClass, label) {
  const number = new LineNumberMark(`${lineClass}-number`);
  const field = StateField.define({
    create: () => null,
    update(line, transaction) {
      for (const e of transaction.effects) if (e.is(effect)) line = e.value;
      return transaction.docChanged ? null : line;
    },
  });
  const lineStart = (state) => {
    const line = state.field(field);
    return line && line <= state.doc.lines ? state.doc.line(line).from : null;
  };
  const attributes = label ? { title: label } : {};
  return [
    field,
    EditorView.decorations.compute([field], (state) => {
      const from = lineStart(state);
      return from === null ? Decoration.none
        : Decoration.set([Decoration.line({ class: lineClass, attributes }).range(from)]);
    }),
    gutterLineClass.compute([field], (state) => {
      const from = lineStart(state);
      return from === null ? RangeSet.empty : RangeSet.of([number.range(from)]);
    }),
  ];
}

export const errorLine = (label) => markedLine(setErrorLine, "cm-error-line", label);
export const traceLine = () => markedLine(setTraceLine, "cm-trace-line", null);
