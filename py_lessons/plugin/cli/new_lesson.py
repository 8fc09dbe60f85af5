"""``python -m py_lessons.plugin.cli.new_lesson SLUG "Title"``: a new lesson, ready to build.

Writes ``<docs_dir>/lessons/SLUG/`` with ``index.md`` (a NumPy cell, a stepper, a quiz, the
"finished" stamp) and ``steppers.py`` (the stepper's worked calculation, found by convention),
and adds the lesson to ``mkdocs.yml``'s nav: after the last lesson, or before a closing lesson
whose front matter says ``capstone: true`` (``--after``/``--before SLUG`` choose), numbered like
its neighbours ("৫ · Title", the ones after it renumbered) when they are. The home page's card
shows the front matter's ``summary``: ``--summary`` writes it, else a placeholder and a warning.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ...runtime.numbers import bn_digits

SLUG = re.compile(r"^[a-z][a-z0-9-]*[a-z0-9]$")
PLACEHOLDER_SUMMARY = "এই পাঠের এক বাক্যের সারাংশ এখানে লিখুন: হোম পাতার কার্ডে এটিই দেখায়।"
_NAV_ITEM = re.compile(r'^(?P<indent>\s*)- (?P<title>"(?:[^"\\]|\\.)*"|[^:]+):\s*(?P<path>\S*)\s*$')
_LESSON_PATH = re.compile(r"\blessons/(?P<slug>[^/\s]+)/index\.md")
_NUMBER = re.compile(r"^(?P<number>[০-৯]+) · ")

PAGE = '''---
summary: {summary}
---

# {title}

এই পাঠের ভূমিকা এখানে লিখুন: পাঠক কী শিখবেন, আর কেন।

## একটি cell

নিচের code পাতার ভেতরেই চলে; যা দেখছেন তা build-এর সময় এই code চালিয়েই পাওয়া।

```pycell id="{slug}-mean"
import numpy as np

values = np.array([2.0, 4.0, 9.0])
print("গড়:", values.mean())
```

## ধাপে ধাপে হিসাব

```stepper
id: {slug}-mean-steps
function: {function}
editable: true
```

গড় হলো {{{{ step:{function}:mean | .3g | bn }}}}।

## নিজেকে যাচাই করুন

```mcq
id: {slug}-quiz
question: "[২, ৪, ৯]-এর গড় কত?"
choices:
  - text: "৫"
    correct: true
    explain: "যোগফল ১৫, সংখ্যা ৩টি: ১৫ ÷ ৩ = ৫।"
  - text: "৪"
    explain: "৪ মাঝের সংখ্যা (median), গড় নয়।"
```

```complete
id: {slug}
```
'''

STEPPERS = '''"""Worked calculations of the {slug} lesson, shown by its ``stepper`` blocks (found by convention:
the plugin loads every ``steppers.py`` in the docs folder). Standard library only: the same code
runs at build time and in the reader's Pyodide.
"""

from __future__ import annotations

from py_lessons.runtime.steppers import InputSpec, Step, fmt, stepper


@stepper(
    "{function}",
    title="গড়: যোগফলকে সংখ্যার পরিমাণ দিয়ে ভাগ",
    inputs=[InputSpec("values", "সংখ্যাগুলো", (2.0, 4.0, 9.0), kind="floats")],
)
def {function}(values):
    total = sum(values)
    mean = total / len(values)
    steps = [
        Step("যোগফল", " + ".join(fmt(v) for v in values), fmt(total), "সবগুলো সংখ্যা যোগ করুন।"),
        Step("ভাগ", f"{{fmt(total)}} / {{len(values)}}", fmt(mean), "যতগুলো সংখ্যা, ততটি দিয়ে ভাগ।"),
    ]
    return steps, {{"sum": total, "mean": mean}}
'''


def docs_dir_of(config: Path) -> Path:
    match = re.search(r"^docs_dir:\s*['\"]?([^'\"\s#]+)", config.read_text(encoding="utf-8"), re.M)
    return config.parent / (match[1] if match else "docs")


@dataclass
class NavLesson:
    slug: str
    line: int   # the nav line with its title
    end: int    # the line after its entry (a section's last part included)
    title: str  # as written, without quotes


def _nav_range(lines: list[str], config: Path) -> range:
    try:
        start = next(i for i, line in enumerate(lines) if re.match(r"^nav:\s*$", line))
    except StopIteration:
        raise SystemExit(f"{config} has no nav: add the lesson to it by hand") from None
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "-"))):
        end += 1
    return range(start + 1, end)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def nav_lessons(lines: list[str], nav: range) -> list[NavLesson]:
    """The nav's lessons in order: an entry whose page is lessons/SLUG/index.md, or a section whose
    first part is."""
    found = []
    for i in nav:
        path = _LESSON_PATH.search(lines[i])
        if not path:
            continue
        item = _NAV_ITEM.match(lines[i])
        title_line = i if item and item["path"] else next(
            (j for j in range(i - 1, nav.start - 1, -1) if _indent(lines[j]) < _indent(lines[i]) and _NAV_ITEM.match(lines[j])), i)
        title = _NAV_ITEM.match(lines[title_line])
        end = title_line + 1
        while end < nav.stop and lines[end].strip() and _indent(lines[end]) > _indent(lines[title_line]):
            end += 1
        text = title["title"].strip() if title else path["slug"]
        if text.startswith('"'):
            text = re.sub(r"\\(.)", r"\1", text[1:-1])
        found.append(NavLesson(path["slug"], title_line, end, text))
    return found


def _is_capstone(docs: Path, slug: str) -> bool:
    page = docs / "lessons" / slug / "index.md"
    head = page.read_text(encoding="utf-8").split("\n---", 1)[0] if page.is_file() else ""
    return head.startswith("---") and re.search(r"^capstone:\s*true\s*$", head, re.M) is not None


def add_to_nav(config: Path, title: str, slug: str, *, after: str | None = None, before: str | None = None) -> str:
    """Insert the lesson into the nav and return where it went, in words. Without ``after`` or
    ``before`` it follows the last lesson, unless that is a capstone, which it precedes."""
    lines = config.read_text(encoding="utf-8").split("\n")
    nav = _nav_range(lines, config)
    lessons = nav_lessons(lines, nav)
    by_slug = {lesson.slug: lesson for lesson in lessons}
    for wanted in (after, before):
        if wanted is not None and wanted not in by_slug:
            raise SystemExit(f"no lesson {wanted!r} in the nav (lessons: {', '.join(by_slug) or 'none'})")
    if before is None and after is None and lessons and _is_capstone(docs_dir_of(config), lessons[-1].slug):
        before = lessons[-1].slug
    if before is not None:
        at, indent, where = by_slug[before].line, lines[by_slug[before].line], f"before {by_slug[before].title!r}"
    elif lessons:
        last = by_slug[after] if after is not None else lessons[-1]
        at, indent, where = last.end, lines[last.line], f"after {last.title!r}"
    else:
        at, indent, where = nav.stop, "  ", "at the end of the nav"
    indent = re.match(r"^\s*", indent).group(0)
    numbered = bool(lessons) and all(_NUMBER.match(lesson.title) for lesson in lessons)
    lines.insert(at, f"{indent}- {_yaml_string(title)}: lessons/{slug}/index.md")
    if numbered:  # "N · " prefixes follow the new order
        for n, lesson in enumerate(nav_lessons(lines, _nav_range(lines, config)), start=1):
            item = _NAV_ITEM.match(lines[lesson.line])
            bare = _NUMBER.sub("", lesson.title)
            lines[lesson.line] = (f"{item['indent']}- {_yaml_string(f'{bn_digits(n)} · {bare}')}:"
                                  + (f" {item['path']}" if item["path"] else ""))
    config.write_text("\n".join(lines), encoding="utf-8")
    return where + (" (the lessons are numbered: the ones after it were renumbered; prose that names a "
                    "lesson by its number, 'পাঠ N', is not)" if numbered else "")


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scaffold(config: Path, slug: str, title: str, *, summary: str | None = None,
             after: str | None = None, before: str | None = None) -> tuple[Path, str]:
    if not SLUG.match(slug):
        raise SystemExit(f"slug {slug!r}: use lowercase letters, digits and '-' (e.g. linear-regression)")
    folder = docs_dir_of(config) / "lessons" / slug
    if folder.exists():
        raise SystemExit(f"{folder} already exists")
    function = slug.replace("-", "_") + "_mean"
    where = add_to_nav(config, title, slug, after=after, before=before)  # first: it may refuse
    folder.mkdir(parents=True)
    page = PAGE.format(title=title, slug=slug, function=function, summary=_yaml_string(summary or PLACEHOLDER_SUMMARY))
    (folder / "index.md").write_text(page, encoding="utf-8")
    (folder / "steppers.py").write_text(STEPPERS.format(slug=slug, function=function), encoding="utf-8")
    return folder, where


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="new", description="Scaffold a new lesson and add it to the nav.")
    parser.add_argument("slug", help="the lesson's identity and folder name, e.g. linear-regression")
    parser.add_argument("title", help="the lesson's title in the nav")
    parser.add_argument("--summary", help="one sentence for the home page's card (front matter summary:)")
    place = parser.add_mutually_exclusive_group()
    place.add_argument("--after", metavar="SLUG", help="put it after this lesson")
    place.add_argument("--before", metavar="SLUG", help="put it before this lesson")
    parser.add_argument("--config", default="mkdocs.yml", type=Path, help="the course's mkdocs.yml")
    args = parser.parse_args(argv)
    folder, where = scaffold(args.config, args.slug, args.title, summary=args.summary,
                             after=args.after, before=args.before)
    print(f"new lesson: {folder}/index.md (+ steppers.py); in the nav of {args.config} {where}")
    if not args.summary:
        print(f"warning: {folder}/index.md has a placeholder summary: write one sentence there "
              "(or pass --summary): the home page's card shows it", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
