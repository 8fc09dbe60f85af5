"""Building sites in tests: this course, and small throw-away sites that use the plugin."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build_site(site_dir: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess:
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
