"""This course's own modules (site/**/steppers.py), loaded the way the plugin loads them, and the
course's pages as the built site serves them."""

from __future__ import annotations

import sys
from pathlib import Path

from py_lessons.plugin.execute import course_modules as content

ROOT = Path(__file__).resolve().parents[2]


def load_course_content() -> None:
    content.load(content.find_modules(ROOT / "site"))


def content_state():
    from py_lessons.runtime import explorables, steppers
    from py_lessons.runtime.content import CONTENT_PACKAGE

    modules = {name: module for name, module in sys.modules.items() if name.split(".")[0] == CONTENT_PACKAGE}
    return dict(steppers.STEPPERS), dict(explorables.EXPLORABLES), modules


def restore_content(state) -> None:
    """The test process's own course modules (conftest.py) are back once a site's build loaded its own."""
    from py_lessons.runtime import explorables, steppers
    from py_lessons.runtime.content import CONTENT_PACKAGE

    stepper_defs, explorable_defs, modules = state
    steppers.STEPPERS.clear()
    steppers.STEPPERS.update(stepper_defs)
    explorables.EXPLORABLES.clear()
    explorables.EXPLORABLES.update(explorable_defs)
    for name in [name for name in sys.modules if name.split(".")[0] == CONTENT_PACKAGE]:
        del sys.modules[name]
    sys.modules.update(modules)
    package = modules.get(CONTENT_PACKAGE)
    for name, module in modules.items():
        if package is not None and name != CONTENT_PACKAGE:
            setattr(package, name.rsplit(".", 1)[1], module)


def _page_sources() -> dict[str, Path]:
    """Every page's address in the built site (directory URLs) -> its Markdown file."""
    pages = {}
    for path in (ROOT / "site").rglob("*.md"):
        folder = path.parent.relative_to(ROOT / "site").as_posix()
        url = "/" if folder == "." else f"/{folder}/"
        pages[url if path.stem == "index" else f"{url}{path.stem}/"] = path
    return pages


def course_pages() -> list[str]:
    """Every page of the course (site/**/*.md, a lesson's parts too) by its address in the built
    site, "/" first."""
    return sorted(_page_sources())


def course_pages_with_cells() -> list[str]:
    """The pages of course_pages() whose Markdown has runnable cells or code exercises."""
    from py_lessons.plugin.page.fences import read_fences

    found = []
    for url, path in sorted(_page_sources().items()):
        source = path.read_text(encoding="utf-8")
        if any(fence.name in ("pycell", "exercise") for fence in read_fences(source)):
            found.append(url)
    return found
