"""Shared pieces of the lesson components: finding their fences, reading YAML bodies, HTML helpers.

Every component is a fenced block whose body is YAML, e.g. ```` ```mcq ````, read once by the
page model (page.py), which adds the page and line to every ComponentError.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from html import escape

import markdown as _markdown
import yaml

from ...runtime.numbers import bn_digits
from ..strings import t

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class ComponentError(ValueError):
    """An authoring mistake in a component block; the plugin adds the file name and line."""


def attr(value) -> str:
    return escape(str(value), quote=True)


def text(value) -> str:
    return escape(str(value), quote=False)


def relative_url(url: str, from_url: str) -> str:
    """``url`` (inside the site) as seen from the page at ``from_url``, like MkDocs' own helper."""
    if from_url != ".":
        head, tail = posixpath.split(from_url)
        from_url = head if "." in tail else from_url
    rel = posixpath.relpath("/" + url, "/" + from_url)
    return rel + "/" if url.endswith("/") else rel


def load_yaml(source: str, kind: str) -> dict:
    try:
        data = yaml.safe_load(source) if source.strip() else {}
    except yaml.YAMLError as exc:
        raise ComponentError(f"the {kind} block is not valid YAML: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ComponentError(f"the {kind} block must be a YAML mapping (key: value lines)")
    return data


def check_keys(data: dict, kind: str, required: set[str], optional: set[str]) -> None:
    missing = sorted(required - data.keys())
    if missing:
        raise ComponentError(f"the {kind} block needs {', '.join(missing)}")
    unknown = sorted(data.keys() - required - optional)
    if unknown:
        raise ComponentError(f"the {kind} block has unknown keys {', '.join(unknown)} "
                             f"(known: {', '.join(sorted(required | optional))})")


def component_id(data: dict, kind: str) -> str:
    value = str(data.get("id", ""))
    if not ID_PATTERN.match(value):
        raise ComponentError(f"the {kind} block needs an id of lowercase letters, digits, '-' or '_' (got {value!r})")
    return value


def nonempty_text(data: dict, key: str, kind: str) -> str:
    value = data.get(key)
    if not isinstance(value, (str, int, float)) or not str(value).strip():
        raise ComponentError(f"the {kind} block's {key} must be non-empty text")
    return str(value)


_MD_EXTENSIONS = ["attr_list", "tables", "pymdownx.arithmatex", "pymdownx.highlight", "pymdownx.inlinehilite"]
_MD_CONFIG = {"pymdownx.arithmatex": {"generic": True}}


def md_block(source: str) -> str:
    """Markdown inside a component (question, answer, explanation) as HTML."""
    return _markdown.markdown(str(source), extensions=_MD_EXTENSIONS, extension_configs=_MD_CONFIG)


def md_inline(source: str) -> str:
    html = md_block(source).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return html


def stable_permutation(key: str, n: int) -> list[int]:
    """A shuffled order of range(n) that depends only on ``key`` and is never the identity (n > 1)."""
    order = list(range(n))
    seed = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")
    for i in range(n - 1, 0, -1):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        j = seed % (i + 1)
        order[i], order[j] = order[j], order[i]
    if n > 1 and order == list(range(n)):
        order = order[1:] + order[:1]
    return order


def render_hints(hints: list[str]) -> str:
    """Progressive hints (reveal, exercise): numbered <details>, opened one after another."""
    return "".join(
        f'<details class="pz-hint" data-hint="{n}"><summary data-action="hint">{text(t("reveal.hint", n=bn_digits(n)))}</summary>'
        f"{md_block(hint)}</details>"
        for n, hint in enumerate(hints, start=1)
    )
