"""The plugin's two kinds of error: one that stops the build (its message starts with
``page:line``), and one raised inside a block, to which the caller adds the page and line."""

from __future__ import annotations


class LessonError(Exception):
    """An authoring mistake or a failed build step; the message starts with ``page:line``."""


class LineError(ValueError):
    """A mistake at one line of a page's Markdown (a fence, a cell's options, a value macro): the
    message says what is wrong, ``line`` where; whoever knows the page writes ``page:line: …``."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line

    def at(self, src: str) -> str:
        return f"{src}:{self.line}: {self}" if self.line else f"{src}: {self}"


class BlockError(ValueError):
    """A mistake inside one block (a component, a run block, a claim, a macro): the message says
    what is wrong; whoever read the block from the page adds its page and line, and ``body_line``
    when the mistake is at one line of the body (1 = the line after the opening fence)."""

    def __init__(self, message: str, body_line: int = 0):
        super().__init__(message)
        self.body_line = body_line
