"""The home page's lessons and the reader's stored work, for the front-door and "my work" tests:
what the course's sources say the lessons are, and the learner's localStorage as a page holds it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from support.site import ROOT

SCHEMA = ROOT / "py_lessons" / "plugin" / "schemas" / "work-export.schema.json"
WORDS_PER_MINUTE = 150  # what the home page says it assumes


def namespace(site: Path) -> str:
    text = (site / "assets" / "pathshala" / "site.js").read_text(encoding="utf-8")
    return re.search(r'storageNamespace = "([^"]+)"', text)[1]


def _nav_files(entries) -> list[str]:
    found = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        found += _nav_files(value) if isinstance(value, list) else [value]
    return found


def course_lessons() -> list[dict]:
    """The lessons as the sources define them: folders under lessons/ whose pages (its parts, in
    mkdocs.yml's nav order) include one ending with a ``complete`` block; with the first part's
    summary, and the cells, questions and words of all parts, and each part's url and cells."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    folders: dict[str, list[str]] = {}
    for src in _nav_files(config["nav"]):
        if src.startswith("lessons/"):
            folders.setdefault(src.rsplit("/", 1)[0] + "/", []).append(src)
    lessons = []
    for folder, sources in folders.items():
        texts = [(ROOT / "site" / src).read_text(encoding="utf-8") for src in sources]
        stamp = next((m for text in texts if (m := re.search(r"^```complete\nid: (\S+)\n```", text, re.M))), None)
        if not stamp:
            continue
        parts = [{"url": folder + ("" if src.endswith("/index.md") else src.rsplit("/", 1)[1].removesuffix(".md") + "/"),
                  "cells": re.findall(r'^\s*```pycell id="([^"]+)"', text, re.M)} for src, text in zip(sources, texts)]
        bodies = [text.split("---\n", 2)[2] for text in texts]
        lessons.append({
            "id": stamp[1], "url": folder, "parts": parts,
            "summary": yaml.safe_load(texts[0].split("---\n", 2)[1])["summary"],
            "cells": [cell for part in parts for cell in part["cells"]],
            "questions": [q for text in texts for q in re.findall(r"^\s*```(mcq|ordering)\nid: (\S+)", text, re.M)],
            "words": sum(len([word for word in body.split() if re.search(r"[^\W_]", word)]) for body in bodies),
            "plots": any(re.search(r"^\s*(import|from) matplotlib", code, re.M) for text in texts
                         for _, code in re.findall(r"^([ \t]*)```pycell[^\n]*\n(.*?)^\1```", text, re.M | re.S)),
        })
    return lessons


def work_file(namespace: str, items: list[dict], **changes) -> str:
    """A "my work" file for the site of ``namespace`` holding ``items`` (fields replaced by ``changes``)."""
    data = {"format": "pathshala-work", "version": 1, "site": namespace, "course": "পাঠশালা",
            "exported": "2030-01-01T00:00:00.000Z", "items": items}
    return json.dumps({**data, **changes}, ensure_ascii=False)


def stored(page) -> dict:
    """This course's items in the page's localStorage, namespace removed, values parsed."""
    return page.evaluate("""() => Object.fromEntries(Object.entries(localStorage)
        .filter(([key]) => key.startsWith('pathshala-')).map(([key, value]) => [key.slice(key.indexOf(':') + 1), value]))""")


def precache_manifest(site: Path) -> dict[str, str]:
    """The files the build's sw.js can keep offline: URL (relative to the site) -> integrity ("sha256-...")."""
    sw = (site / "sw.js").read_text(encoding="utf-8")
    listed = dict(re.findall(r'\{"url":"([^"]+)","integrity":"(sha256-[^"]+)","size":\d+\}', sw))
    assert len(listed) > 100, "sw.js lists too few files: its manifest format changed?"
    return listed


def offline_copy(site: Path, as_is: bool = False) -> list[str]:
    """The files of the whole course's offline copy: every file the build's sw.js lists, with one
    of each wheel and the standard library's zip: its stored twin (``stored/NAME`` beside ``NAME``)
    where the host compresses what it sends, else the file as built and no start-up snapshot."""
    listed = precache_manifest(site)
    twins = {url for url in listed if "/stored/" in url and url.replace("/stored/", "/") in listed}
    originals = {twin.replace("/stored/", "/") for twin in twins}
    left_out = twins | {url for url in listed if url.endswith(".bin")} if as_is else originals
    return [url for url in listed if url not in left_out]


def precached_bytes(site: Path, as_is: bool = False) -> int:
    """What the whole course's offline copy weighs (offline_copy), as it is on disk."""
    return sum((site / url).stat().st_size for url in offline_copy(site, as_is))


def open_home(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector('[data-component="progress"][data-enhanced]')
    page.wait_for_selector('[data-component="my-work"] [data-work-actions]:not([hidden])')


def export_work(page) -> tuple[str, dict]:
    """Press "export": the file's name and its JSON."""
    with page.expect_download() as info:
        page.locator('[data-action="export-work"]').click()
    download = info.value
    return download.suggested_filename, json.loads(Path(download.path()).read_text(encoding="utf-8"))


def choose_file(page, tmp_path: Path, content: str | bytes, name: str = "work.json") -> None:
    """Hand the import field a file, as the reader's file picker would."""
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    page.locator('[data-action="import-work"]').set_input_files(str(path))
