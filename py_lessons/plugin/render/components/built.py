"""Pages about the whole course (the review page, the class page, the home page's review line) show
the lessons' questions as their lessons show them: with the values their macros quote filled in
({{ step:… }}, {{ cell:… }}), which exist only once that lesson's cells have run. Such a page is
built before or after its lessons in no set order, so it writes an empty element marked with
what goes in it (``filled``: its content then goes nowhere a search index or a reader sees first)
or, inside a script's JSON, a token (``token``), and the built site's pages are filled in once
every page is built (``fill_site``, from the questions the lesson pages parsed: engine.py's
``built_blocks``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from ...base.errors import LessonError
from ...base.html import md_block, md_inline, text
from ...base.strings import t
from .predict import render as render_predict
from .quiz import render_mcq, render_ordering, revision
from .stepper import render as render_stepper


def block_key(kind: str, page_url: str, cid: str) -> str:
    return f"{kind}:{page_url}:{cid}"


def _class_choices(parsed: dict) -> str:
    return "".join(
        f'<div class="pz-class-choice" data-choice="{n}"><p class="pz-class-choice-text">{md_inline(choice["text"])}</p>'
        + (f'<p class="pz-class-explain-label">{text(t("class.question.explain"))}</p>{md_block(choice["explain"])}'
           if choice["explain"] else "") + "</div>"
        for n, choice in enumerate(parsed.get("choices") or []))


def _question(parsed: dict) -> str:
    """The question as review asks it: its lesson's own HTML (a prediction with its cell's code, a
    stepper at the row before its question)."""
    if "cell" in parsed:
        return render_predict(parsed, with_code=True)
    if "function" in parsed:
        return render_stepper(parsed, reviewing=True)
    return (render_mcq if "choices" in parsed else render_ordering)(parsed)


RENDERERS: dict[str, Callable[[dict], str]] = {
    "question": lambda parsed: _question(parsed),
    "question-text": lambda parsed: md_block(parsed["question"]),
    "class-choices": _class_choices,
    "exercise-text": lambda parsed: md_block(parsed["prompt"].strip().split("\n\n", 1)[0]),
    "revision": revision,
}
TOKEN = re.compile(r"@@pz-built:(?P<renderer>[a-z-]+):(?P<key>[^@\s]+)@@")
ELEMENT = re.compile(r'(?P<open><(?P<tag>[a-z]+)\b[^>]*?) data-pz-built="(?P<renderer>[a-z-]+):(?P<key>[^"]+)"(?P<rest>[^>]*>)</(?P=tag)>')


def token(renderer: str, kind: str, page_url: str, cid: str) -> str:
    """Inside a script's JSON: where the built question's ``renderer`` output (text) goes."""
    assert renderer in RENDERERS
    return f"@@pz-built:{renderer}:{block_key(kind, page_url, cid)}@@"


def filled(tag: str, attrs: str, renderer: str, kind: str, page_url: str, cid: str) -> str:
    """An empty ``<tag attrs>``, its content the built question's ``renderer`` output."""
    assert renderer in RENDERERS
    return f'<{tag}{attrs} data-pz-built="{renderer}:{block_key(kind, page_url, cid)}"></{tag}>'


def fill_site(site_dir: Path, built: dict[str, dict],
              finish: Callable[[str, str, str], str] = lambda html, page_file, key: html) -> int:
    """Every token in the site's pages replaced; returns how many pages changed. ``finish(html,
    page_file, key)`` does to the HTML put in what a page's HTML gets after rendering (glossary terms
    marked, formulas drawn); ``page_file`` is the page's file in the site (``review/index.html``).
    A token whose question no lesson page built is a mistake of the build (a page about the course
    read a question its lesson does not have): it fails with the page named."""
    changed = 0
    for page in site_dir.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        if "pz-built" not in html:
            continue

        def rendered(match: re.Match) -> str:
            parsed = built.get(match["key"])
            if parsed is None:
                raise LessonError(f"{page.relative_to(site_dir)}: no lesson page built the question {match['key']}")
            return RENDERERS[match["renderer"]](parsed)

        page_file = page.relative_to(site_dir).as_posix()
        html = ELEMENT.sub(lambda m: f'{m["open"]}{m["rest"]}{finish(rendered(m), page_file, m["key"])}</{m["tag"]}>', html)
        page.write_text(TOKEN.sub(rendered, html), encoding="utf-8")
        changed += 1
    return changed
