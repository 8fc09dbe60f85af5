"""Building sites in tests: this course, and small throw-away sites that use the plugin.

A build is a real ``mkdocs build --strict``, run in the test's own process as the command runs it
(mkdocs.__main__: load the config, the plugins' startup and shutdown around ``build``): what the
command would print is collected from the ``mkdocs`` loggers. In one process the plugin keeps its
build-time Pyodide started between builds on the same staged Pyodide (execute/build_python.py),
so a small site's build takes a second or two instead of ten. ``build_site_subprocess`` is the
command itself, for the few tests that must see it.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from .course import content_state, restore_content

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Built:
    returncode: int
    stderr: str    # what `mkdocs build` would have printed: its log, and why it stopped


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


def build_site(site_dir: Path, config: Path = ROOT / "mkdocs.yml") -> Built:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    collect = _Collect()
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.addHandler(collect)
    logger.setLevel(logging.INFO)
    state = content_state()  # the test process's own course modules are back afterwards
    returncode = 0
    try:
        cfg = load_config(str(config), strict=True, site_dir=str(site_dir))
        cfg.plugins.on_startup(command="build", dirty=False)
        try:
            build(cfg)
        finally:
            cfg.plugins.on_shutdown()
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the command prints it and exits 1
        collect.lines.append(f"Error: {exc}")
        returncode = 1
    finally:
        logger.removeHandler(collect)
        logger.setLevel(level)
        restore_content(state)
    return Built(returncode, "\n".join(collect.lines))


def build_site_subprocess(site_dir: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess:
    """The command a course author types, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "--site-dir", str(site_dir)],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def make_site(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A site of ``pages`` (name -> Markdown) under tmp_path/docs with its own cell cache and only
    NumPy staged; returns its mkdocs.yml."""
    docs = tmp_path / "docs"
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(textwrap.dedent(text), encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(textwrap.dedent(f"""\
        site_name: test
        docs_dir: docs
        theme: {{name: material, font: false}}
        markdown_extensions: [pymdownx.superfences]
        plugins:
          - py_lessons:
              cache_dir: {tmp_path / 'cache'}
              packages: [numpy]
        """), encoding="utf-8")
    return config


def lesson_site(tmp_path: Path, page: str, glossary_text: str = "") -> Path:
    """A home page and ``lesson/index.md`` (sharing the course's cell cache); returns mkdocs.yml."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# home\n", encoding="utf-8")
    (docs / "lesson").mkdir()
    (docs / "lesson" / "index.md").write_text(textwrap.dedent(page), encoding="utf-8")
    if glossary_text:
        (docs / "glossary.yml").write_text(glossary_text, encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(textwrap.dedent(f"""\
        site_name: t
        docs_dir: {docs}
        theme: {{name: material}}
        markdown_extensions: [attr_list, md_in_html, pymdownx.superfences]
        plugins:
          - py_lessons:
              cache_dir: {ROOT / '.cache' / 'py_lessons'}
        """), encoding="utf-8")
    return config


def outputs(site: Path, page: str) -> dict[str, str]:
    """Each cell's build-time output on a built page, as text: cell id -> text."""
    text = (site / page).read_text(encoding="utf-8")
    found = {}
    for cell_id, body in re.findall(r'data-cell-id="([^"]+)".*?<div class="pycell-output" data-output '
                                    r'data-search-exclude>(.*?)</div>', text, re.S):
        found[cell_id] = re.sub(r"<[^>]+>", "", body)
    return found


def lesson_sources(slug: str) -> list[Path]:
    """A lesson's parts, as the course's navigation orders them (``index.md`` first)."""
    import yaml

    class _Loader(yaml.SafeLoader):  # mkdocs.yml may carry !!python tags; the nav needs none of them
        pass
    _Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)["nav"]
    found: list[str] = []

    def walk(entries):
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(value, list):
                walk(value)
            elif isinstance(value, str) and value.startswith(f"lessons/{slug}/"):
                found.append(value)
    walk(nav)
    return [ROOT / "site" / src for src in found]


def lesson_part_urls(slug: str) -> list[str]:
    """Each part's address in the built site: "lessons/SLUG/", "lessons/SLUG/PART/"."""
    return [f"lessons/{slug}/" + ("" if path.stem == "index" else f"{path.stem}/") for path in lesson_sources(slug)]


def lesson_markdown(slug: str) -> str:
    """The whole lesson's Markdown: its parts in order."""
    return "\n".join(path.read_text(encoding="utf-8") for path in lesson_sources(slug))


def lesson_html(built_site: Path, url: str) -> str:
    """The built pages of the lesson at ``url`` ("lessons/SLUG/"), its parts in order."""
    slug = url.strip("/").split("/")[1]
    return "\n".join((built_site / part / "index.html").read_text(encoding="utf-8") for part in lesson_part_urls(slug))
