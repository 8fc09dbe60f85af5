"""The one catalogue of reader-facing text (Bangla): the build's HTML, the page's scripts (as a
generated module) and the runtime's own messages (stepper inputs, in the reader's Pyodide) all
read ``strings.bn.json`` beside this file. Standard library only."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from .numbers import bn_digits

CATALOGUE = Path(__file__).with_name("strings.bn.json")


@lru_cache(maxsize=None)
def catalogue() -> dict[str, str]:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


# a number, or a number already written as text ("0.01", "1,234"): shown in Bangla digits, as
# lib/text.js's format() does, so no message mixes two scripts of digits; names and ids stay
_NUMERIC = re.compile(r"[-+\u2212]?[0-9][0-9.,]*")


def _shown(value):
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    return bn_digits(value) if numeric or (isinstance(value, str) and _NUMERIC.fullmatch(value)) else value


def t(key: str, **values) -> str:
    text = catalogue()[key]
    return text.format(**{name: _shown(value) for name, value in values.items()}) if values else text
