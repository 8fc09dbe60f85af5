"""The glossary: terms defined once in ``site/glossary.yml``, marked in lessons as ``[[key]]``.

    gradient:
      term: Gradient (গ্রেডিয়েন্ট)
      definition: ...
      avoid: [ঢাল-সংখ্যা]   # optional: renderings the prose checks (page/prose_checks.py) flag in lessons
      note: ...             # optional: why (shown with each finding)

In a lesson, ``[[gradient]]`` shows the term, ``[[gradient|গ্রেডিয়েন্টের]]`` shows other words;
both get a tooltip with the definition and a link to the glossary page, and the page ends with
the list of the terms it used (post-processing of the page's HTML: :func:`mark_terms`). The
``glossary`` component (components/glossary.py) renders the whole glossary on a page.
A term used but not defined fails the build.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ...runtime.numbers import format_number
from ..base.errors import BlockError
from ..base.html import attr, relative_url, text
from ..base.strings import t
from ..base.yaml_blocks import ID_PATTERN

MARK = re.compile(r"\[\[([a-z][a-z0-9_-]*)(?:\|([^\]\n]+))?\]\]")
# A marked term's behaviour on touch (its definition in place, not the link out of the lesson):
# loaded like a component's script where a page has a term.
SCRIPTS = {"glossary-term": "glossary-term.js"}
# Parts of the page HTML where [[...]] is left alone: code, preformatted text, formulas, scripts.
_SKIP = re.compile(r"(<(pre|code|script|style|textarea)\b.*?</\2>|<(span|div) class=\"arithmatex\">.*?</\3>|<[^>]+>)",
                   re.DOTALL)
_STRIDE = _SKIP.groups + 1  # re.split returns each text piece followed by every group


def load(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise BlockError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise BlockError(f"{path}: must map each term key to its term and definition")
    terms = {}
    for key, entry in data.items():
        if not ID_PATTERN.match(str(key)) or not str(key)[0].isalpha():
            raise BlockError(f"{path}: term key {key!r} must be lowercase letters, digits, '-' or '_'")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and entry[k].strip()
                                                  for k in ("term", "definition")):
            raise BlockError(f"{path}: term {key!r} needs a term and a definition")
        terms[str(key)] = {"term": entry["term"].strip(), "definition": " ".join(entry["definition"].split()),
                           **_avoid(path, str(key), entry)}
    return terms


def _avoid(path: Path, key: str, entry: dict) -> dict:
    """A term's ``avoid`` list (renderings the prose checks flag) and the ``note`` saying why."""
    avoid, note = entry.get("avoid", []), entry.get("note", "")
    if not isinstance(avoid, list) or not all(isinstance(v, str) and v.strip() for v in avoid):
        raise BlockError(f"{path}: term {key!r}: avoid must be a list of words or phrases")
    if not isinstance(note, str):
        raise BlockError(f"{path}: term {key!r}: note must be text")
    unknown = set(entry) - {"term", "definition", "avoid", "note"}
    if unknown:
        raise BlockError(f"{path}: term {key!r}: unknown field(s) {', '.join(sorted(unknown))}")
    return {"avoid": [" ".join(v.split()) for v in avoid], "note": " ".join(note.split())}


def used_terms(html: str) -> list[str]:
    keys = []
    for piece in _SKIP.split(html)[::_STRIDE]:
        for match in MARK.finditer(piece or ""):
            if match[1] not in keys:
                keys.append(match[1])
    return keys


def mark_terms(html: str, terms: dict, glossary_href: str, page_slug: str) -> tuple[str, list[str]]:
    """Replace each [[key]] outside code by a term with its tooltip; return the HTML and keys used."""
    used: list[str] = []
    missing = [key for key in used_terms(html) if key not in terms]
    if missing:
        raise BlockError(f"glossary term(s) {', '.join(missing)} used but not defined in the glossary file")
    counter = 0

    def replace(match: re.Match) -> str:
        nonlocal counter
        key, shown = match[1], match[2]
        counter += 1
        if key not in used:
            used.append(key)
        tip = f"pz-tip-{page_slug}-{key}-{counter}"
        entry = terms[key]
        return (
            f'<span class="pz-term-wrap"><a class="pz-term" data-component="glossary-term" data-id="{attr(key)}" '
            f'href="{attr(glossary_href)}#term-{attr(key)}" aria-describedby="{attr(tip)}">{text(shown or entry["term"])}</a>'
            # the term's name heads the sheet a tap opens, away from the word (components.css); not a
            # <span>: the search plugin ends an excluded element at the first end tag of its name
            f'<span class="pz-tip" role="tooltip" id="{attr(tip)}"><b class="pz-tip-term">{text(entry["term"])}</b>'
            f'{text(entry["definition"])}</span></span>'
        )

    parts = _SKIP.split(html)
    out = []
    for index in range(0, len(parts), _STRIDE):
        out.append(MARK.sub(replace, parts[index] or ""))
        if index + 1 < len(parts):
            out.append(parts[index + 1])
    return "".join(out), used


def render_list(keys: list[str], terms: dict, anchors: bool) -> str:
    rows = []
    for key in keys:
        anchor = f' id="term-{attr(key)}"' if anchors else ""
        rows.append(f'<dt{anchor}>{text(terms[key]["term"])}</dt>\n<dd>{text(terms[key]["definition"])}</dd>')
    rows = "\n".join(rows)  # the search index reads the text: a term must not run into its definition
    return f'<dl class="pz-glossary">{rows}</dl>'


def render_page_list(keys: list[str], terms: dict) -> str:
    """The page's terms at its end, folded (each one's definition is already a tap away in the
    text: a list of screens would bury the page's end); printed open."""
    count = t("glossary.count", n=format_number(len(keys), bangla=True))
    return (f'<details class="pz-glossary-section" data-component="glossary-list" data-id="page">'
            f'<summary><h2 id="pz-glossary-heading">{text(t("glossary.heading"))}</h2> '
            f'<span class="pz-glossary-count">{text(count)}</span></summary>'
            f'{render_list(keys, terms, anchors=False)}</details>')


def render_all(terms: dict) -> str:
    keys = sorted(terms, key=lambda k: terms[k]["term"].lower())
    return f'<div data-component="glossary-all" data-id="all">{render_list(keys, terms, anchors=True)}</div>'

