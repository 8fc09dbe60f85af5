"""What every component kind is: a class with its fence's name, how it reads its YAML body, what
it checks once the page's cells have run, its HTML, what it becomes in a downloaded notebook, and
the script that gives it behaviour in the page (``assets/pathshala/components/<script>``).

A new kind is one subclass in a module of this folder (the registry finds it), its script under
assets/pathshala/components/, its rules in assets/pathshala/css/components.css (one stylesheet,
one request), and its strings in the catalogue.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Protocol

from ....runtime.numbers import bn_digits
from ...base.html import md_block, text
from ...base.layout import SiteLayout
from ...base.strings import t
from ...page.lessons import Lesson
from ...page.model import PageModel


@dataclass
class Course:
    """What components know of the course: its name, its terms, its lessons (navigation order)."""
    site_name: str
    terms: dict
    layout: SiteLayout = field(default_factory=SiteLayout)
    lessons: list[Lesson] = field(default_factory=list)


class BuildPython(Protocol):
    """The build's Pyodide, as components use it (execute/build_python.py)."""

    def check_exercise(self, page: PageModel, code: str, checks: str) -> dict: ...

    def call(self, page: PageModel, module: str, function: str, kwargs: dict, imports: str,
             content_sha: str) -> dict: ...


@dataclass(frozen=True)
class NotebookPart:
    """What a component becomes in the lesson's notebook: text (Markdown), and perhaps a code cell."""
    text: str
    code: str | None = None
    cell_id: str | None = None


class Component:
    kind: ClassVar[str]                  # the fence's name: ```mcq
    script: ClassVar[str | None] = None  # its behaviour in the page, under assets/pathshala/components/
    question: ClassVar[bool] = False     # a reader's answer to it counts towards a lesson's progress
    lists_lessons: ClassVar[bool] = False  # it shows the course's lessons
    # For a kind whose reading and HTML need nothing of the page or the course: the functions
    # (body -> parsed, parsed -> HTML) that parse() and render() call.
    read: ClassVar[Callable[[str], Any] | None] = None
    html: ClassVar[Callable[[Any], str] | None] = None

    def __init__(self, course: Course):
        self.course = course

    def parse(self, body: str, page: PageModel) -> Any:
        """The block's body, read and checked; BlockError says what is wrong."""
        return type(self).read(body)

    def check(self, parsed: Any, page: PageModel, python: BuildPython) -> None:
        """Once the page's cells have run: what depends on them (the build's Pyodide may be asked)."""

    def render(self, parsed: Any, page: PageModel) -> str:
        return type(self).html(parsed)

    def notebook(self, parsed: Any) -> NotebookPart | None:
        """None: a learner in Jupyter has no use for it."""
        return None


def stable_permutation(key: str, n: int) -> list[int]:
    """A shuffled order of range(n) that depends only on ``key`` and is never the identity (n > 1)."""
    order = list(range(n))
    seed = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")
    for i in range(n - 1, 0, -1):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        j = seed % (i + 1)
        order[i], order[j] = order[j], order[i]
    if n > 1 and order == list(range(n)):
        order = order[1:] + order[:1]
    return order


def render_hints(hints: list[str]) -> str:
    """Progressive hints (reveal, exercise): numbered <details>, opened one after another."""
    return "".join(
        f'<details class="pz-hint" data-hint="{n}"><summary data-action="hint">{text(t("reveal.hint", n=bn_digits(n)))}</summary>'
        f"{md_block(hint)}</details>"
        for n, hint in enumerate(hints, start=1)
    )
