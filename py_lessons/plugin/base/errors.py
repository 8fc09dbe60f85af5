"""The plugin's two kinds of error: one that stops the build (its message starts with
``page:line``), and one raised inside a block, to which the caller adds the page and line."""

from __future__ import annotations


class LessonError(Exception):
    """An authoring mistake or a failed build step; the message starts with ``page:line``."""


class BlockError(ValueError):
    """A mistake inside one block (a component, a run block, a claim, a macro): the message says
    what is wrong; whoever read the block from the page adds its page and line."""
