"""The one catalogue of reader-facing text (Bangla): the build's HTML, the page's scripts (as a
generated module) and the runtime's own messages (stepper inputs, in the reader's Pyodide) all
read ``strings.bn.json`` beside this file. Standard library only."""

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
