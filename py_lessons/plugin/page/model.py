"""The page model: a lesson page's Markdown read once into its cells and blocks (components, run
blocks, cell claims), each with its source line. Every later step (running cells, checking
exercises, quoting values, rendering fences) reads this object; nothing reads the page again.

A block is found again by identity: the Markdown handed to the site generator carries
``cell="N"`` on each cell's fence and ``block="N"`` on each block's, and the fence renderer
looks them up by that number (:meth:`PageModel.cell_of`, :meth:`PageModel.block_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from ..base.errors import BlockError, LessonError
from ..base.html import root_of
from . import claims
from .cells import INDEX_OPTION, CellSpec, CellSyntaxError, cell_specs
from .fences import Fence, FenceError, of_kinds, read_fences

BLOCK_OPTION = "block"  # added to a block's fence so the renderer finds the block it is


@dataclass
class Block:
    kind: str          # "stepper", "mcq", "run-table", "cell-claim"...
    line: int          # 1-based line of the opening fence
    index: int         # its place among the page's blocks: the ``block="N"`` of its fence
    fence: Fence
    body: str          # the YAML body (cell macros filled in once the page's cells have run)
    parsed: Any = None
    html: str | None = None  # rendered once, when the page's cells have run


@dataclass
class PageModel:
    src: str           # path inside the docs folder, e.g. "lessons/optimization/index.md"
    url: str           # the page's URL inside the site, e.g. "lessons/optimization/"
    slug: str          # the lesson's identity: "lessons-optimization" -> cell ids, storage keys
    fences: list[Fence]
    cells: list[CellSpec]
    blocks: list[Block]                                       # every block of the kinds read, in page order
    components: list[Block] = field(default_factory=list)   # of those: the components
    runs: list[Block] = field(default_factory=list)         # ... the run blocks
    claims: list[Block] = field(default_factory=list)       # ... the cell claims (parsed when read)
    results: dict[int, dict] = field(default_factory=dict)  # cell index -> build result

    @property
    def root_url(self) -> str:
        """Relative prefix from this page to the site root ("../../" for a lesson)."""
        return root_of(self.url)

    def where(self, line: int, error: Exception | None = None) -> str:
        """``page:line``; for an error inside a block whose fence is at ``line``, the body's line."""
        return f"{self.src}:{line + getattr(error, 'body_line', 0)}"

    def outputs_by_cell_id(self) -> dict[str, dict]:
        return {spec.cell_id: self.results[spec.index] for spec in self.cells if spec.index in self.results}

    def quoted(self, markdown: str) -> None:
        """The blocks' bodies as they stand in ``markdown``: the page with its cell macros filled
        in (lines do not move)."""
        lines = markdown.split("\n")
        for block in self.blocks:
            block.body = block.fence.body_in(lines)

    def tagged_markdown(self, markdown: str) -> str:
        """``markdown`` with each cell's and block's number on its fence's first line."""
        lines = markdown.split("\n")
        for spec in self.cells:
            lines[spec.line - 1] = f'{lines[spec.line - 1]} {INDEX_OPTION}="{spec.index}"'
        for block in self.blocks:
            lines[block.line - 1] = f'{lines[block.line - 1]} {BLOCK_OPTION}="{block.index}"'
        return "\n".join(lines)

    def cell_of(self, options: dict) -> CellSpec:
        try:
            return self.cells[int(options[INDEX_OPTION])]
        except (KeyError, ValueError, IndexError) as exc:
            raise LessonError(f"{self.src}: a pycell fence could not be matched to a cell of the page: {exc}") from exc

    def block_of(self, kind: str, options: dict) -> Block:
        try:
            block = self.blocks[int(options[BLOCK_OPTION])]
        except (KeyError, ValueError, IndexError):
            block = None
        if block is None or block.kind != kind or block.html is None:
            raise LessonError(f"{self.src}: a {kind} block was not found in the page model")
        return block


def page_slug(src: str) -> str:
    """"lessons/optimization/index.md" -> "lessons-optimization"; the home page is "index"."""
    slug = PurePosixPath(src).with_suffix("").as_posix().replace("/", "-").lower()
    return "index" if slug == "index" else slug.removesuffix("-index")


def read_page(markdown: str, src: str, url: str, *, page_session: str | None,
              component_kinds, run_kinds) -> PageModel:
    """Read the page once: its cells, and its blocks of the kinds given (their bodies are parsed
    later, once the page's cells have run, except cell claims: what they select is asked of the
    cells as they run)."""
    slug = page_slug(src)
    fences = read_fences(markdown)
    kinds = {**{kind: "component" for kind in component_kinds}, **{kind: "run" for kind in run_kinds},
             claims.KIND: "claim"}
    try:
        cells = cell_specs(fences, slug, page_session)
        chosen = of_kinds(fences, set(kinds))
    except (CellSyntaxError, FenceError) as exc:
        raise LessonError(exc.at(src)) from exc
    page = PageModel(src, url, slug, fences, cells, [])
    for fence in chosen:
        block = Block(fence.name, fence.line, len(page.blocks), fence, fence.body)
        page.blocks.append(block)
        {"component": page.components, "run": page.runs, "claim": page.claims}[kinds[fence.name]].append(block)
    for block in page.claims:
        try:
            block.parsed = claims.parse(block.body)
        except BlockError as exc:
            raise LessonError(f"{src}:{block.line + exc.body_line}: {claims.KIND}: {exc}") from exc
    return page
