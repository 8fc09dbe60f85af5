"""``python -m py_lessons.plugin.cli.new_lesson SLUG "Title"``: a new lesson, ready to build.

Writes ``<docs_dir>/lessons/SLUG/`` with ``index.md`` (a NumPy cell, a stepper, a quiz, the
"finished" stamp) and ``steppers.py`` (the stepper's worked calculation, found by convention),
and adds the lesson to the end of the lessons in ``mkdocs.yml``'s nav. Nothing else needs editing.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

SLUG = re.compile(r"^[a-z][a-z0-9-]*[a-z0-9]$")

PAGE = '''# {title}

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


def add_to_nav(config: Path, title: str, path: str) -> None:
    """Insert ``- "title": path`` after the nav's last lesson entry (or at the end of the nav)."""
    lines = config.read_text(encoding="utf-8").split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if re.match(r"^nav:\s*$", line))
    except StopIteration:
        raise SystemExit(f"{config} has no nav: add the page {path} to it by hand") from None
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "-"))):
        end += 1
    nav = range(start + 1, end)
    lessons = [i for i in nav if re.search(r"\blessons/[^/\s]+/index\.md", lines[i])]
    anchor = lessons[-1] if lessons else max((i for i in nav if lines[i].strip()), default=start)
    indent = re.match(r"^\s*", lines[anchor]).group(0) if anchor != start else "  "
    entry = f'{indent}- {_yaml_string(title)}: {path}'
    lines.insert(anchor + 1, entry)
    config.write_text("\n".join(lines), encoding="utf-8")


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scaffold(config: Path, slug: str, title: str) -> Path:
    if not SLUG.match(slug):
        raise SystemExit(f"slug {slug!r}: use lowercase letters, digits and '-' (e.g. linear-regression)")
    folder = docs_dir_of(config) / "lessons" / slug
    if folder.exists():
        raise SystemExit(f"{folder} already exists")
    function = slug.replace("-", "_") + "_mean"
    folder.mkdir(parents=True)
    (folder / "index.md").write_text(PAGE.format(title=title, slug=slug, function=function), encoding="utf-8")
    (folder / "steppers.py").write_text(STEPPERS.format(slug=slug, function=function), encoding="utf-8")
    add_to_nav(config, title, f"lessons/{slug}/index.md")
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="new", description="Scaffold a new lesson and add it to the nav.")
    parser.add_argument("slug", help="the lesson's identity and folder name, e.g. linear-regression")
    parser.add_argument("title", help="the lesson's title in the nav")
    parser.add_argument("--config", default="mkdocs.yml", type=Path, help="the course's mkdocs.yml")
    args = parser.parse_args(argv)
    folder = scaffold(args.config, args.slug, args.title)
    print(f"new lesson: {folder}/index.md (+ steppers.py); added to the nav of {args.config}")


if __name__ == "__main__":
    main(sys.argv[1:])
