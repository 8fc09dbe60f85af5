"""Find runnable cells in a lesson's Markdown: fenced blocks whose language is ``pycell``.

    ```pycell id="gd-steps" session="gd" raises="ZeroDivisionError" timeout="5"
    print(1 + 1)
    ```

Options: ``id`` (stable hook for tests; default ``<page>-<n>``), ``session`` (cells with the same
name share one namespace; a page can put every cell in one session with ``cell_session: NAME``
in its front matter), ``raises`` (the cell is meant to fail with this exception, or ``any``),
``timeout`` (seconds a run may take). Fences may be indented (inside tabs or admonitions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FENCE_LANGUAGE = "pycell"
KNOWN_OPTIONS = {"id", "session", "raises", "timeout"}
INDEX_OPTION = "cell"  # added by tag_cells so the renderer finds the cell this fence is

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*" + FENCE_LANGUAGE + r"(?=[ \t]|$)(?P<opts>.*)$")
_OPTION = re.compile(r"""([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|\S+)""")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class CellSyntaxError(ValueError):
    """A cell fence is malformed; the message names the line."""


@dataclass
class CellSpec:
    index: int
    code: str
    line: int  # 1-based line of the opening fence in the Markdown source
    cell_id: str
    session: str | None = None
    raises: str | None = None
    timeout: float | None = None
    options: dict = field(default_factory=dict)


def parse_options(text: str, line: int) -> dict[str, str]:
    options: dict[str, str] = {}
    rest = _OPTION.sub("", text).strip()
    if rest:
        raise CellSyntaxError(f"line {line}: cannot read cell options {rest!r} (write key=\"value\")")
    for key, value in _OPTION.findall(text):
        if key not in KNOWN_OPTIONS and key != INDEX_OPTION:
            raise CellSyntaxError(f"line {line}: unknown cell option {key!r} (known: {', '.join(sorted(KNOWN_OPTIONS))})")
        options[key] = value[1:-1] if value[:1] in "\"'" else value
    return options


def _fence_blocks(markdown: str):
    """Yield (start line index, end line index, indent, header options text, code) per pycell fence."""
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence = match["indent"], match["fence"]
        close = re.compile(rf"^{re.escape(indent)}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise CellSyntaxError(f"line {i + 1}: pycell fence is never closed")
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
        yield i, j, indent, match["opts"], "\n".join(body)
        i = j + 1


def find_cells(markdown: str, page_slug: str, page_session: str | None = None) -> list[CellSpec]:
    cells: list[CellSpec] = []
    seen_ids: dict[str, int] = {}
    for index, (start, _end, _indent, opts, code) in enumerate(_fence_blocks(markdown)):
        line = start + 1
        options = parse_options(opts, line)
        cell_id = options.get("id") or f"{page_slug}-{index + 1}"
        if not _ID.match(cell_id):
            raise CellSyntaxError(f"line {line}: cell id {cell_id!r} must be lowercase letters, digits, '-' or '_'")
        if cell_id in seen_ids:
            raise CellSyntaxError(f"line {line}: cell id {cell_id!r} is already used on line {seen_ids[cell_id]}")
        seen_ids[cell_id] = line
        timeout = options.get("timeout")
        try:
            timeout_value = float(timeout) if timeout is not None else None
        except ValueError:
            raise CellSyntaxError(f"line {line}: timeout must be a number of seconds, not {timeout!r}") from None
        cells.append(
            CellSpec(
                index=index,
                code=code,
                line=line,
                cell_id=cell_id,
                session=options.get("session") or page_session,
                raises=options.get("raises"),
                timeout=timeout_value,
                options=options,
            )
        )
    return cells


def tag_cells(markdown: str) -> str:
    """Add ``cell="N"`` to each pycell fence header so the fence renderer knows which cell it is."""
    lines = markdown.split("\n")
    for index, (start, _end, _indent, _opts, _code) in enumerate(list(_fence_blocks(markdown))):
        lines[start] = f'{lines[start]} {INDEX_OPTION}="{index}"'
    return "\n".join(lines)
