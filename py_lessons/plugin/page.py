"""The page model: a lesson page's Markdown read once into its cells, component blocks, run
blocks and cell claims, each with its source line. Every later step (running cells, checking
exercises, quoting values, rendering fences) reads this object; nothing reads the Markdown again
(except to fill in the cell macros once the cells have run: then it is read once more).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Callable

from . import cell_claims
from .cells import CellSpec, CellSyntaxError, cell_specs, tag_cells
from .fences import Fence, FenceError, of_kinds, read_fences


class LessonError(Exception):
    """An authoring mistake or a failed build step; the message starts with ``page:line``."""


@dataclass
class Block:
    kind: str          # "stepper", "mcq", "run-table", ...
    line: int          # 1-based line of the opening fence
    body: str
    parsed: Any = None
    html: str | None = None  # rendered once, when the page's cells have run

    @property
    def key(self) -> tuple[str, str]:
        """How the fence renderer finds the block again: superfences hands it kind and body."""
        return self.kind, self.body.strip()


@dataclass
class PageModel:
    src: str           # path inside the docs folder, e.g. "lessons/optimization/index.md"
    url: str           # the page's URL inside the site, e.g. "lessons/optimization/"
    slug: str          # the lesson's identity: "lessons-optimization" -> cell ids, storage keys
    fences: list[Fence]
    cells: list[CellSpec]
    components: list[Block]
    runs: list[Block]
    results: dict[int, dict] = field(default_factory=dict)  # cell index -> build result
    claims: list[Block] = field(default_factory=list)        # cell-claim blocks (cell_claims.py)

    @property
    def root_url(self) -> str:
        """Relative prefix from this page to the site root ("../../" for a lesson)."""
        return "../" * (self.url.count("/") if self.url else 0)

    def where(self, line: int) -> str:
        return f"{self.src}:{line}"

    def outputs_by_cell_id(self) -> dict[str, dict]:
        return {spec.cell_id: self.results[spec.index] for spec in self.cells if spec.index in self.results}

    def block(self, kind: str, body: str) -> Block | None:
        key = (kind, body.strip())
        return next((b for b in (*self.components, *self.runs, *self.claims) if b.key == key), None)

    def tagged_markdown(self, markdown: str) -> str:
        return tag_cells(markdown, self.cells)


def page_slug(src: str) -> str:
    """"lessons/optimization/index.md" -> "lessons-optimization"; the home page is "index"."""
    slug = PurePosixPath(src).with_suffix("").as_posix().replace("/", "-").lower()
    return "index" if slug == "index" else slug.removesuffix("-index")


def read_page(markdown: str, src: str, url: str, *, page_session: str | None,
              parsers: dict[str, Callable[[str, str], Any]], run_kinds: tuple[str, ...]) -> PageModel:
    """Parse the page once. ``parsers`` maps a component kind to ``parse(body, slug)``; a parser's
    ComponentError (any ValueError) becomes a LessonError naming the page and line."""
    slug = page_slug(src)
    fences = read_fences(markdown)
    try:
        cells = cell_specs(fences, slug, page_session)
        component_fences = of_kinds(fences, set(parsers))
        run_fences = of_kinds(fences, set(run_kinds))
        claim_fences = of_kinds(fences, {cell_claims.KIND})
    except (CellSyntaxError, FenceError) as exc:
        raise LessonError(f"{src}: {exc}") from exc
    components = []
    seen: dict[str, int] = {}
    for fence in component_fences:
        try:
            parsed = parsers[fence.name](fence.body, slug)
        except ValueError as exc:
            raise LessonError(f"{src}:{fence.line}: {exc}") from exc
        cid = parsed.get("id") if isinstance(parsed, dict) else None
        if cid:
            if cid in seen:
                raise LessonError(f"{src}:{fence.line}: component id {cid!r} is already used on line {seen[cid]}")
            seen[cid] = fence.line
        components.append(Block(fence.name, fence.line, fence.body, parsed))
    runs = [Block(fence.name, fence.line, fence.body) for fence in run_fences]
    claims = []
    for fence in claim_fences:
        try:
            claims.append(Block(fence.name, fence.line, fence.body, cell_claims.parse(fence.body)))
        except ValueError as exc:
            raise LessonError(f"{src}:{fence.line}: {cell_claims.KIND}: {exc}") from exc
    return PageModel(src, url, slug, fences, cells, components, runs, claims=claims)
