"""The one catalogue of reader-facing text (Bangla), shared by the HTML renderers and the browser."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

CATALOGUE = Path(__file__).with_name("strings.bn.json")


@lru_cache(maxsize=None)
def catalogue() -> dict[str, str]:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


def t(key: str, **values) -> str:
    text = catalogue()[key]
    return text.format(**values) if values else text


def as_javascript_module() -> str:
    """The catalogue as an ES module, written into the built site for the front end."""
    return "// Generated from py_lessons/plugin/strings.bn.json: edit that file.\nexport default " + json.dumps(
        catalogue(), ensure_ascii=False, indent=1
    ) + ";\n"
