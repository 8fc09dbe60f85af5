"""Find runnable cells in a lesson's Markdown: fenced blocks whose language is ``pycell``.

    ```pycell id="gd-steps" session="gd" raises="ZeroDivisionError" timeout="5"
    print(1 + 1)
    ```

Options: ``id`` (stable hook for tests; default ``<page>-<n>``), ``session`` (cells with the same
name share one namespace; a page can put every cell in one session with ``cell_session: NAME``
in its front matter), ``raises`` (the cell is meant to fail with this exception, or ``any``),
``timeout`` (seconds a run may take), ``stdin`` (the lines ``input()`` reads at build, separated
by ``|``: the build's output shows a sample conversation; in the page the reader types them).
Fences may be indented (inside tabs or admonitions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base.errors import LineError
from .fences import Fence, FenceError, of_kinds

FENCE_LANGUAGE = "pycell"
KNOWN_OPTIONS = {"id", "session", "raises", "timeout", "stdin"}
STDIN_SEPARATOR = "|"
INDEX_OPTION = "cell"  # added by the page model so the renderer finds the cell this fence is

_OPTION = re.compile(r"""([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|\S+)""")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class CellSyntaxError(LineError):
    """A cell fence is malformed, at its line."""


@dataclass
class CellSpec:
    index: int
    code: str
    line: int  # 1-based line of the opening fence in the Markdown source
    cell_id: str
    session: str | None = None
    raises: str | None = None
    timeout: float | None = None
    stdin: list[str] = field(default_factory=list)
    options: dict = field(default_factory=dict)

    @property
    def run_identity(self) -> str:
        """What decides the cell's build output: its code, and the lines input() is given."""
        return self.code if not self.stdin else f"{self.code}\n# stdin: {self.stdin!r}"


def parse_options(text: str, line: int) -> dict[str, str]:
    options: dict[str, str] = {}
    rest = _OPTION.sub("", text).strip()
    if rest:
        raise CellSyntaxError(f"cannot read cell options {rest!r} (write key=\"value\")", line)
    for key, value in _OPTION.findall(text):
        if key not in KNOWN_OPTIONS and key != INDEX_OPTION:
            raise CellSyntaxError(f"unknown cell option {key!r} (known: {', '.join(sorted(KNOWN_OPTIONS))})", line)
        options[key] = value[1:-1] if value[:1] in "\"'" else value
    return options


def cell_specs(fences: list[Fence], page_slug: str, page_session: str | None = None) -> list[CellSpec]:
    """The page's cells, from its top-level ``pycell`` fences (see fences.read_fences)."""
    cells: list[CellSpec] = []
    seen_ids: dict[str, int] = {}
    try:
        blocks = of_kinds(fences, {FENCE_LANGUAGE})
    except FenceError as exc:
        raise CellSyntaxError(str(exc), exc.line) from None
    for index, fence in enumerate(blocks):
        line = fence.line
        options = parse_options(fence.options, line)
        cell_id = options.get("id") or f"{page_slug}-{index + 1}"
        if not _ID.match(cell_id):
            raise CellSyntaxError(f"cell id {cell_id!r} must be lowercase letters, digits, '-' or '_'", line)
        if cell_id in seen_ids:
            raise CellSyntaxError(f"cell id {cell_id!r} is already used on line {seen_ids[cell_id]}", line)
        seen_ids[cell_id] = line
        timeout = options.get("timeout")
        try:
            timeout_value = float(timeout) if timeout is not None else None
        except ValueError:
            raise CellSyntaxError(f"timeout must be a number of seconds, not {timeout!r}", line) from None
        cells.append(CellSpec(index=index, code=fence.body, line=line, cell_id=cell_id,
                              session=options.get("session") or page_session, raises=options.get("raises"),
                              timeout=timeout_value,
                              stdin=options["stdin"].split(STDIN_SEPARATOR) if "stdin" in options else [],
                              options=options))
    return cells


