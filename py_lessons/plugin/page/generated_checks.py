"""The prose checks on what code wrote for the reader: run tables and charts, steppers,
explorables, and a cell's figures and printed lines.

The page's own prose is checked in its Markdown (prose_checks.py); these texts exist only in the
rendered page, so they are read there, and each finding names the page's line that asks for them
(the block, the cell or the macro naming them) and where the words come from. Checked:

* the glossary's avoided renderings, in any label, and in a printed line that has Bangla words;
* Latin digits: a label with Bangla words or digits writes its numbers in Bangla digits (names
  keep theirs: fp16, int8); a printed line may print Latin digits, but not beside Bangla ones.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..base.html import VOID_ELEMENTS
from .prose_checks import LATIN_DIGITS_ADVICE, Finding, ProseChecker, latin_numbers

# the components whose text comes from code (a run's file, a lesson's steppers.py/explorables.py)
_MADE_BY_CODE = {"run-table": "data-run", "run-chart": "data-run", "stepper": "data-id",
                 "explorable": "data-id"}
# an SVG <title> is the English tooltip the chart keeps beside its Bangla text
_NOT_WORDS = {"code", "pre", "math", "script", "style", "kbd", "samp", "textarea", "title", "desc"}
_BANGLA_WORD = re.compile("[\u0980-\u09E5\u09F0-\u09FF]")
_BANGLA_DIGIT = re.compile("[০-৯]")


class _Texts(HTMLParser):
    """(where, kind, text) of each label and printed line inside what code made."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, tuple[str, str] | None, str]] = []  # tag, its region, its role
        self.found: list[tuple[tuple[str, str], str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID_ELEMENTS:
            return
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        region = None
        component = attrs.get("data-component")
        if component in _MADE_BY_CODE:
            region = (component, attrs.get(_MADE_BY_CODE[component]) or "")
        elif "pycell" in classes and "data-cell-id" in attrs:
            region = ("cell", attrs["data-cell-id"])
        role = "printed" if "pycell-stream" in classes else "figure" if "mpl-figure" in classes else ""
        self.stack.append((tag, region, role))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        regions = [region for _, region, _ in self.stack if region]
        if not regions or not data.strip():
            return
        roles = {role for _, _, role in self.stack if role}
        tags = {tag for tag, _, _ in self.stack}
        region = regions[-1]
        if "printed" in roles:
            self.found.append((region, "printed", data))
        elif region[0] != "cell" or "figure" in roles:  # a cell's code and buttons are not its output
            if not tags & _NOT_WORDS:
                self.found.append((region, "label", data))


def _origin(region: tuple[str, str]) -> str:
    kind, name = region
    if kind.startswith("run-"):
        return f"a {kind} of run {name!r} (its labels: gpu_runs/experiments, gpu_runs/results/{name}.json)"
    if kind == "cell":
        return f"the output of cell {name!r}"
    return f"{kind} {name!r} (the lesson's {kind}s.py)"


def _line_naming(source: str, name: str) -> int:
    """The page's first line that names the block, cell or run (1 when none does)."""
    if name:
        for number, line in enumerate(source.split("\n"), 1):
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", line):
                return number
    return 1


def check_generated(checker: ProseChecker, html: str, source: str, src: str) -> list[Finding]:
    """The findings in ``html`` (a rendered page) of texts code made; ``source`` is the page's
    Markdown, to name the line that asked for each."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    found = []
    for region, kind, text in parser.found:
        line = _line_naming(source, region[1])
        origin = _origin(region)
        pieces = text.split("\n") if kind == "printed" else [text]
        for piece in pieces:
            has_words = bool(_BANGLA_WORD.search(piece))
            if kind == "label" or has_words:
                for rule in checker.rules:
                    for match in rule.pattern.finditer(piece):
                        found.append(Finding(src, line, match.group(0), f"in {origin}: {rule.advice}"))
            mixed = _BANGLA_DIGIT.search(piece) if kind == "printed" else has_words or _BANGLA_DIGIT.search(piece)
            if mixed:
                for number in latin_numbers(piece):
                    found.append(Finding(src, line, f"{number} in {' '.join(piece.split())[:80]!r}",
                                         f"in {origin}: {LATIN_DIGITS_ADVICE}"))
    return found
