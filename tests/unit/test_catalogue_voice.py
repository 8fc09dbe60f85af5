"""The platform's catalogue (runtime/strings.bn.json) speaks with the course's one voice: the
glossary's chosen renderings and Bangla digits, as the lessons' prose is checked at build."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from py_lessons.plugin.page.prose_checks import avoid_rules, latin_numbers
from py_lessons.runtime.catalogue import CATALOGUE

GLOSSARY = Path(__file__).resolve().parents[2] / "site" / "glossary.yml"
BANGLA = re.compile("[\u0980-\u09FF]")
PLACEHOLDER = re.compile(r"\{\w+\}")


def catalogue_texts() -> dict[str, str]:
    return {key: PLACEHOLDER.sub(" ", value) for key, value in json.loads(CATALOGUE.read_text("utf-8")).items()
            if isinstance(value, str)}


def test_no_message_uses_a_rendering_the_glossary_avoids():
    rules = avoid_rules(yaml.safe_load(GLOSSARY.read_text("utf-8")))
    found = [(key, match.group(0)) for key, text in catalogue_texts().items()
             for rule in rules for match in rule.pattern.finditer(text)]
    assert found == []


def test_a_bangla_message_writes_no_latin_digits():
    found = [(key, number) for key, text in catalogue_texts().items() if BANGLA.search(text)
             for number in latin_numbers(text)]
    assert found == []
