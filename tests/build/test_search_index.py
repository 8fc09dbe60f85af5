"""What the built site's search index holds (search/search_index.json, mkdocs-material's): the
lessons' prose, and none of the course's controls, glossary tooltips or figures, so that a
result's snippet is text of the lesson."""

from __future__ import annotations

import json
import re

import yaml

from py_lessons.runtime.catalogue import t
from support.site import ROOT

# what the page's controls say (buttons, labels, hints), as the catalogue words them
CONTROL_KEYS = ("cell.run", "cell.stop", "cell.reset", "cell.label", "cell.output.build", "download.title",
                "download.notebook", "quiz.check", "quiz.retry", "quiz.mcq.label", "exercise.check",
                "exercise.solution.show", "stepper.recompute", "stepper.next", "stepper.all",
                "explorable.reset", "complete.button", "predict.show")


def _index(built_site) -> list[dict]:
    return json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def _glued(text: str, words: str) -> list[str]:
    """Where ``words`` follows another word with no space between: text of a control or a tooltip
    run into the text around it, as the index holds it (an inflection after it is Bangla grammar)."""
    return [text[max(0, m.start() - 30):m.end()] for m in re.finditer(r"[^\s>(“\"'‘]" + re.escape(words), text)]


def test_the_index_holds_prose_and_no_control_tooltip_or_figure(built_site):
    docs = _index(built_site)
    text = "\n".join(doc["text"] for doc in docs)
    assert {key: _glued(text, t(key)) for key in CONTROL_KEYS if _glued(text, t(key))} == {}
    assert t("cell.label") + t("cell.run") not in text  # the cell's toolbar
    glossary = yaml.safe_load((ROOT / "site" / "glossary.yml").read_text(encoding="utf-8"))
    assert len(glossary) > 10
    # no definition runs into the text before it: a tooltip's into the word it explains, a glossary
    # list's into its term (a snippet read "Adam (অ্যাডাম)Momentum আর ...")
    tooltips = {key: _glued(text, entry["definition"]) for key, entry in glossary.items()}
    assert {key: found for key, found in tooltips.items() if found} == {}
    page = next(doc["text"] for doc in docs if doc["location"] == "glossary/")
    assert all(re.search(re.escape(entry["term"]) + r"\s+" + re.escape(entry["definition"]), page)
               for entry in glossary.values())
    assert not re.search(r"<(svg|text|path|button|label)\b", text)
    # the lessons' prose is all still there: every lesson page has sections with Bangla words in them
    lessons = [doc for doc in docs if doc["location"].startswith("lessons/") and "#" not in doc["location"]]
    assert len(lessons) >= 5 and all(re.search("[\u0980-\u09ff]{3}", doc["text"]) for doc in lessons)
