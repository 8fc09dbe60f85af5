"""A lesson to take away: the page as a Jupyter notebook (``.ipynb``) and as a Python file (``.py``),
and the page's links to them. No MkDocs here: the engine calls in and writes the files.

The page model (page/model.py) gives the page's fences with their lines. The Markdown between code
becomes markdown cells: formulas stay TeX (Jupyter renders ``$...$`` and ``$$...$$`` itself),
glossary marks become their words, admonitions and content tabs (which Jupyter does not know)
become a bold title over their dedented body, and a closed collapsible block (``??? "title"``, as
the page shows it closed) stays closed: its text inside <details> under its title, its code cells
collapsed (``metadata.jupyter.source_hidden``). Each ``pycell`` and each exercise's starter becomes
a code cell with its cell id in ``metadata.pathshala.cell_id`` (download.js swaps in the reader's
saved edits by it); a cell meant to fail is tagged ``raises-exception`` (Jupyter's own tag, so Run
all goes on past it). Components become what a learner in Jupyter can use (each kind says what:
``Component.notebook``): a stepper's rows as a table, a question's text (a hidden answer inside
<details>), a short note where the page has something only a browser shows (a slider, real-run
tables); progress marks are dropped.

The ``.py`` is the same notebook in the "percent" format that VS Code, Spyder and Jupytext read:
``# %%`` starts a cell, Markdown is commented out. nbformat-v4 JSON is written directly (a small,
stable format; the tests validate it with nbformat), so the build needs no Jupyter packages.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import PurePosixPath

from typing import Callable

from ..base.strings import t
from ..page.cells import FENCE_LANGUAGE
from ..page.model import Block, PageModel
from .components.base import NotebookPart

RAISES_TAG = "raises-exception"   # Jupyter and nbconvert run on past a cell tagged so
PYTHON_CELL = "# %%"              # a cell of the percent format starts with this line
_RUN_NOTE_KINDS = {"run-table", "run-chart", "run-provenance", "run-index"}   # run-claim shows nothing
_CONTAINER = re.compile(r"^(?P<indent> *)(?P<kind>!!!|\?\?\?\+?|===)[ \t]+(?P<rest>.*)$")   # admonition, details, tab
_TITLE = re.compile(r'"([^"]*)"')
_MARKDOWN_DIV = re.compile(r"^\s*<div\b[^>]*\bmarkdown\b[^>]*>\s*$")                # md_in_html wrappers
_DIV_END = re.compile(r"^\s*</div>\s*$")
_GLOSSARY_OR_CODE = re.compile(r"(`+).+?\1|\[\[([a-z][a-z0-9_-]*)(?:\|([^\]\n]+))?\]\]")


@dataclass
class LessonFiles:
    folder: str      # the page's folder in the site: "lessons/optimization/"
    name: str        # "optimization": optimization.ipynb and optimization.py in that folder
    notebook: str    # nbformat-v4 JSON
    python: str


PartOf = Callable[[Block], "NotebookPart | None"]   # what a component becomes (Components.notebook)


def lesson_files(page: PageModel, markdown: str, terms: dict[str, dict], part_of: PartOf) -> LessonFiles | None:
    """The page's notebook and .py, or None for a page without code. ``markdown``: the page as the
    page model read it (value macros filled in); ``terms``: the glossary (key -> term)."""
    parts = {block.line: part_of(block) for block in page.components}
    if not page.cells and not any(part and part.code is not None for part in parts.values()):
        return None
    notebook = lesson_notebook(page, markdown, terms, parts)
    return LessonFiles(_folder(page.url), _name(page.src),
                       json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", python_script(notebook))


def joined(parts: list[LessonFiles], src: str, url: str) -> LessonFiles:
    """A lesson of several parts as one notebook and one .py, beside its first part (``src`` at
    ``url``) and named as its files would be: the first part's cells, then each later part's
    without its own opening note."""
    notebooks = [json.loads(files.notebook) for files in parts]
    notebook = notebooks[0]
    for later in notebooks[1:]:
        notebook["cells"].extend(later["cells"][1:])
    notebook["metadata"]["pathshala"]["page"] = url
    return LessonFiles(_folder(url), _name(src), json.dumps(notebook, ensure_ascii=False, indent=1) + "\n",
                       python_script(notebook))


def lesson_file_name(src: str) -> str:
    """The lesson's files' name: its folder's ("optimization"), from its first part's source."""
    return _name(src)


def _folder(url: str) -> str:
    """"lessons/x/" -> itself; "lessons/x.html" (no directory URLs) -> "lessons/"; the root: ""."""
    if not url or url.endswith("/"):
        return url
    parent = PurePosixPath(url).parent.as_posix()
    return "" if parent == "." else parent + "/"


def _name(src: str) -> str:
    path = PurePosixPath(src)
    return (path.parent.name or "index") if path.stem == "index" else path.stem


# -- the notebook --------------------------------------------------------------------------
def lesson_notebook(page: PageModel, markdown: str, terms: dict[str, dict], parts: dict[int, NotebookPart | None]) -> dict:
    """``parts``: what each component (by its line) becomes."""
    lines, closed = _text_lines(markdown.split("\n"), page, terms)
    cells_by_line = {spec.line: spec for spec in page.cells}
    blocks_by_line = {block.line: block for block in page.blocks}
    title = next((line[2:].strip() for line in lines if line and line.startswith("# ")), page.slug)
    cells = [_markdown_cell(t("download.intro", title=title))]
    text: list[tuple[str, str | None]] = []   # a line of text, and the closed box it is in (its title)

    def add(entries, box: str | None = None) -> None:
        text.extend((entry, box) for entry in entries)

    def flush() -> None:
        groups: list[tuple[str | None, list[str]]] = []   # runs of lines in the same closed box (or none)
        for entry, box in text:
            if not groups or groups[-1][0] != box:
                groups.append((box, []))
            kept = groups[-1][1]  # one blank line between paragraphs is enough
            if entry.strip() or not kept or (kept[-1].strip() and not kept[-1].endswith("\n")):
                kept.append(entry)
        parts = []
        for box, kept in groups:
            source = "\n".join(kept).strip("\n")
            if source.strip():
                parts.append(f"<details><summary>{escape(box)}</summary>\n\n{source}\n\n</details>" if box else source)
        if parts:
            cells.append(_markdown_cell("\n\n".join(parts)))
        text.clear()

    cursor = 0
    for fence in page.fences:
        start, end = fence.line - 1, min(fence.end, len(lines))
        for number in range(cursor, start):
            if lines[number] is not None:
                add([lines[number]], closed[number])
        cursor = end
        box = closed[start] if start < len(closed) else None
        spec = cells_by_line.get(fence.line) if fence.name == FENCE_LANGUAGE else None
        block = blocks_by_line.get(fence.line)
        if spec is not None:
            flush()
            cells.append(_code_cell(spec.code, spec.cell_id, raises=bool(spec.raises), hidden=box is not None))
        elif block is not None and parts.get(block.line) and parts[block.line].code is not None:
            part = parts[block.line]
            add(["", _plain_glossary(part.text, terms), ""], box)
            flush()
            cells.append(_code_cell(part.code, part.cell_id, raises=True, hidden=box is not None))
        elif block is not None:
            part = parts.get(block.line)
            note = part.text if part else (t("download.runs") if block.kind in _RUN_NOTE_KINDS else None)
            note = note and _plain_glossary(note, terms)
            last = next((line for line, _ in reversed(text) if line.strip()), None)
            if note and note != last:  # one note for a run of run tables
                add(["", note, ""], box)
        else:  # any other fence (an example, another language) is part of the text, kept whole
            add(["\n".join(line for line in lines[start:end] if line is not None)], box)
    for number in range(cursor, len(lines)):
        if lines[number] is not None:
            add([lines[number]], closed[number])
    flush()
    return {
        "nbformat": 4, "nbformat_minor": 4,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                     "language_info": {"name": "python"}, "pathshala": {"page": page.url}},
        "cells": cells,
    }


def _source(text: str) -> list[str]:
    """Lines, each with its newline, as Jupyter writes a cell's source (no other line breaks count)."""
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def _markdown_cell(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _source(source)}


def _code_cell(code: str, cell_id: str, raises: bool = False, hidden: bool = False) -> dict:
    metadata: dict = {"tags": [RAISES_TAG]} if raises else {}
    if hidden:  # inside a box the page shows closed: JupyterLab and VS Code show the cell collapsed
        metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
    metadata["pathshala"] = {"cell_id": cell_id}  # last: the .py's cell line ends with it
    return {"cell_type": "code", "execution_count": None, "metadata": metadata, "outputs": [],
            "source": _source(code)}


def _text_lines(lines: list[str], page: PageModel, terms: dict[str, dict]) -> tuple[list[str | None], list[str | None]]:
    """The page's lines, one for one (None: a line dropped), with admonitions, collapsible blocks
    and content tabs turned into a bold title over their body, dedented; md_in_html <div> wrappers
    dropped; glossary marks turned into words. Lines inside fences are only dedented with their
    container. Beside them, for each line, the title of the closed collapsible block (``???``) it
    is in, or None; that block's own title line is dropped (the title goes to its <summary>)."""
    inside_fence = {n for fence in page.fences for n in range(fence.line + 1, fence.end)}
    out: list[str | None] = []
    closed: list[str | None] = []
    bodies: list[int] = []  # the body indentation of each open container
    boxes: list[str | None] = []  # beside each: the title if it is a closed collapsible block
    open_divs = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.expandtabs(4)
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and number not in inside_fence:
            while bodies and indent < bodies[-1]:
                bodies.pop()
                boxes.pop()
        strip = bodies[-1] if bodies else 0
        body = line[min(strip, indent):] if line.strip() else ""
        closed.append(next((box for box in reversed(boxes) if box), None))
        if number in inside_fence:
            out.append(body)
            continue
        container = _CONTAINER.match(line)
        if container:
            title = _TITLE.search(container["rest"])
            named = title[1].strip() if title else ""
            shut = container["kind"] == "???"
            out.append(f"**{named}**\n" if named and not shut else None)
            bodies.append(indent + 4)
            boxes.append((_plain_glossary(named, terms) or t("download.closed_box")) if shut else None)
        elif _MARKDOWN_DIV.match(line):
            open_divs += 1
            out.append(None)
        elif open_divs and _DIV_END.match(line):
            open_divs -= 1
            out.append(None)
        else:
            out.append(_plain_glossary(body, terms))
    return out, closed


def _plain_glossary(line: str, terms: dict[str, dict]) -> str:
    """``[[key|words]]`` -> words, ``[[key]]`` -> the term; left alone inside inline code."""
    def words(match: re.Match) -> str:
        if match[1]:
            return match[0]
        return match[3] or terms.get(match[2], {}).get("term", match[2])

    return _GLOSSARY_OR_CODE.sub(words, line)


# -- the .py -------------------------------------------------------------------------------
def python_script(notebook: dict) -> str:
    """The notebook in the percent format: ``# %% [markdown]`` cells commented out, and ``# %%``
    code cells whose line ends with their metadata (``pathshala={"cell_id": ...}``, as Jupytext
    writes cell metadata), so the page can find each cell's code by id."""
    sections = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            commented = "\n".join(f"# {line}".rstrip() for line in source.split("\n"))
            sections.append(f"{PYTHON_CELL} [markdown]\n{commented}\n")
        else:
            options = "".join(f" {key}={json.dumps(value, ensure_ascii=False)}" for key, value in cell["metadata"].items())
            sections.append(f"{PYTHON_CELL}{options}\n{source.rstrip(chr(10))}\n")
    return "\n".join(sections)


# -- the page's control --------------------------------------------------------------------
def download_control(name: str, prefix: str = "") -> str:
    """Links to the two files ``prefix + name`` (they work without JS); download.js shows the
    choice between the lesson's code and the reader's edits, and builds the file with the edits in
    the page."""
    href = escape(("" if prefix == "./" else prefix) + name)  # "./": the files are beside the page
    name = escape(name)
    return (
        '<div class="pz-download" data-download role="group" aria-labelledby="pz-download-title">'
        f'<p class="pz-download-title" id="pz-download-title">{escape(t("download.title"))}</p>'
        '<fieldset class="pz-download-choice" data-download-choice hidden>'
        f'<legend>{escape(t("download.choice"))}</legend>'
        f'<label><input type="radio" name="pz-download-code" value="lesson" checked> {escape(t("download.choice.lesson"))}</label>'
        f'<label><input type="radio" name="pz-download-code" value="mine"> {escape(t("download.choice.mine"))}</label>'
        "</fieldset>"
        f'<a class="pycell-button pz-download-link" href="{href}.ipynb" download="{name}.ipynb" '
        f'data-action="download-notebook">{escape(t("download.notebook"))}</a>'
        f'<a class="pycell-button pz-download-link" href="{href}.py" download="{name}.py" '
        f'data-action="download-python">{escape(t("download.python"))}</a>'
        '<p class="pz-download-status" role="status" data-download-status></p>'
        "</div>"
    )
