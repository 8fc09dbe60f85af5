"""``python -m py_lessons.plugin.cli.check_prose DOCS_DIR``: the prose checks of a course alone
(page/prose_checks.py), every finding as ``page:line``; exit status 1 when there are any."""

from __future__ import annotations

import sys
from pathlib import Path

from ..base.errors import BlockError
from ..base.layout import SiteLayout
from ..page.lessons import lessons_of
from ..page.prose_checks import Finding, ProseChecker
from ..render import glossary
from ..render.components import Components
from ..render.components.base import Course


def check_docs(docs_dir: Path, layout: SiteLayout = SiteLayout()) -> list[Finding]:
    """Every finding in a docs folder: its Markdown pages and its glossary."""
    docs_dir = Path(docs_dir)
    terms = glossary.load(docs_dir / layout.glossary_file)
    components = Components(Course("", terms, layout))
    pages = sorted(docs_dir.rglob("*.md"))
    sources = {path.relative_to(docs_dir).as_posix(): path.read_text(encoding="utf-8") for path in pages}
    lessons = lessons_of([(src, src, text) for src, text in sources.items()], lessons_folder=layout.lessons_folder,
                         question_kinds=components.question_kinds)
    checker = ProseChecker(terms, components.kinds, docs_dir, len(lessons) or None)
    found = []
    glossary_file = docs_dir / layout.glossary_file
    if glossary_file.is_file():
        found += checker.check_glossary(glossary_file.read_text(encoding="utf-8"), layout.glossary_file)
    for src, text in sources.items():
        found += checker.check_page(text, src)
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m py_lessons.plugin.cli.check_prose DOCS_DIR", file=sys.stderr)
        return 2
    try:
        found = check_docs(Path(args[0]))
    except BlockError as exc:  # a glossary that cannot be read
        print(exc, file=sys.stderr)
        return 2
    for finding in found:
        print(finding)
    print(f"{len(found)} finding(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
