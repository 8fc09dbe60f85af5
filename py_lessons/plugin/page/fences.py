"""The one reader of fenced blocks in a page's Markdown.

It sees the page as Python-Markdown's superfences does: a fence's body is opaque, so a
```` ```pycell ```` shown as an example inside a longer ```` ````markdown ```` fence is part of
that example, never a cell. Fences may be indented (inside tabs, admonitions or lists).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base.errors import LineError

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")


class FenceError(LineError):
    """A fence that must be closed is not."""


@dataclass(frozen=True)
class Fence:
    name: str      # first word of the info string: "pycell", "mcq", "python"... ("" when bare)
    options: str   # the rest of the info string
    body: str      # the lines inside, with the fence's own indentation removed
    line: int      # 1-based line of the opening fence
    end: int       # 1-based line of the closing fence
    closed: bool = True
    indent: str = ""  # the opening fence's indentation (inside tabs, admonitions, lists)

    def body_in(self, lines: list[str]) -> str:
        """The body as it stands in ``lines`` (the page's lines, perhaps with macros filled in since
        it was read: filling one in never adds a line)."""
        return _dedent(lines[self.line:self.end - 1], self.indent)


def read_fences(markdown: str) -> list[Fence]:
    """Every top-level fence of the page, in order."""
    lines = markdown.split("\n")
    found: list[Fence] = []
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"]
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        name, _, options = info.partition(" ")
        found.append(Fence(name.strip(), options.strip(), _dedent(lines[i + 1 : j], indent), i + 1, j + 1,
                           j < len(lines), indent))
        i = j + 1
    return found


def _dedent(lines: list[str], indent: str) -> str:
    return "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines)


def of_kinds(fences: list[Fence], names) -> list[Fence]:
    """The fences named in ``names``; one of them left open is an error with its line."""
    chosen = [fence for fence in fences if fence.name in names]
    for fence in chosen:
        if not fence.closed:
            raise FenceError(f"the {fence.name} block is never closed", fence.line)
    return chosen
