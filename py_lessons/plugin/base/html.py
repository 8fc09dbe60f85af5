"""HTML helpers of the renderers: escaping, relative URLs, Markdown inside a block's text."""

from __future__ import annotations

import posixpath
from html import escape

import markdown as _markdown

# elements without an end tag: a parser that keeps a stack of open elements never pushes them
VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                           "track", "wbr"})


def attr(value) -> str:
    return escape(str(value), quote=True)


def text(value) -> str:
    return escape(str(value), quote=False)


def comment(note: str) -> str:
    """``note`` as an HTML comment: what a block that shows nothing (a hidden claim) leaves in the
    page, for a reader of the HTML, and no element a phone would lay out."""
    return "<!-- " + note.replace("--", "- -").replace(">", "&gt;") + " -->"


def relative_url(url: str, from_url: str) -> str:
    """``url`` (inside the site) as seen from the page at ``from_url``, like MkDocs' own helper."""
    if from_url != ".":
        head, tail = posixpath.split(from_url)
        from_url = head if "." in tail else from_url
    rel = posixpath.relpath("/" + url, "/" + from_url)
    return rel + "/" if url.endswith("/") else rel


def root_of(page_url: str) -> str:
    """Relative prefix from the page at ``page_url`` to the site root ("../../" for a lesson)."""
    return "../" * (page_url.count("/") if page_url else 0)


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
