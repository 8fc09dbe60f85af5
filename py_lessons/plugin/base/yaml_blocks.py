"""The one reader of block bodies: every component, run block and claim is a fenced block whose
body is a YAML mapping (```` ```mcq ````, ```` ```run-table ````, ```` ```cell-claim ````)."""

from __future__ import annotations

import re

import yaml

from .errors import BlockError

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def load_yaml(source: str, kind: str) -> dict:
    """The body as a mapping ({} when empty)."""
    try:
        data = yaml.safe_load(source) if source.strip() else {}
    except yaml.YAMLError as exc:  # told at its own line, in words, without the parser's echo of the text
        mark = getattr(exc, "problem_mark", None)
        what = "; ".join(part for part in (getattr(exc, "context", None), getattr(exc, "problem", None)) if part)
        where = f" (column {mark.column + 1})" if mark else ""
        raise BlockError(f"the {kind} block is not valid YAML: {what or exc}{where}",
                         mark.line + 1 if mark else 0) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BlockError(f"the {kind} block must be a YAML mapping (key: value lines)")
    return data


def check_keys(data: dict, kind: str, required: set[str], optional: set[str]) -> None:
    missing = sorted(required - data.keys())
    if missing:
        raise BlockError(f"the {kind} block needs {', '.join(missing)}")
    unknown = sorted(data.keys() - required - optional)
    if unknown:
        raise BlockError(f"the {kind} block has unknown keys {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(required | optional))})")


def read_block(source: str, kind: str, required: set[str], optional: set[str] = frozenset()) -> dict:
    """``load_yaml`` then ``check_keys``: the usual start of reading a block."""
    data = load_yaml(source, kind)
    check_keys(data, kind, set(required), set(optional))
    return data


def block_id(data: dict, kind: str) -> str:
    value = str(data.get("id", ""))
    if not ID_PATTERN.match(value):
        raise BlockError(f"the {kind} block needs an id of lowercase letters, digits, '-' or '_' (got {value!r})")
    return value


def nonempty_text(data: dict, key: str, kind: str) -> str:
    value = data.get(key)
    if not isinstance(value, (str, int, float)) or not str(value).strip():
        raise BlockError(f"the {kind} block's {key} must be non-empty text")
    return str(value)
