"""Which characters of a page's Markdown are prose a reader reads.

Both functions return the page with everything else blanked to spaces: the result has the same
length and the same line breaks, so a match's offset (and line) in it is its offset in the page.

* :func:`outside_code` blanks code: every fence except the component blocks (an example in a
  ```` ````markdown ```` fence stays an example) and inline code. Value macros are quoted there.
* :func:`reader_text` blanks also what is markup, not words: math, HTML tags and comments, link
  targets, glossary keys, value macros, attribute lists, bare URLs, front matter, and in a
  component block everything but its text fields (question, answer, caption…). The prose checks
  (prose_checks.py) read this.
"""

from __future__ import annotations

import re

from .fences import Fence, read_fences

# The YAML keys of component blocks whose values are reader-facing text (the rest is ids, code,
# settings); glossary.yml's definitions too.
TEXT_FIELDS = frozenset({"question", "text", "explain", "items", "answer", "hints", "prompt", "caption",
                         "definition"})

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*\n", re.DOTALL)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_MARKUP = re.compile("|".join((
    r"<!--.*?-->",                                        # HTML comment
    r"\$\$.+?\$\$",                                       # display math
    r"\\\[.+?\\\]|\\\(.+?\\\)",                           # \[ … \] and \( … \) math
    r"(?<![\\$])\$(?![\s$])(?:[^$\\\n]|\\.)+?(?<![\s\\])\$",  # inline $ … $ math
    r"\{\{.*?\}\}",                                       # a value macro
    r"</?[A-Za-z][^<>]*>",                                # an HTML tag and its attributes
    r"\]\([^()\s]*(?:\([^()\s]*\))?[^()\s]*(?:\s+\"[^\"]*\")?\)",  # a link's target: ](url "title")
    r"^[ \t]*\[[^\]\n]+\]:[ \t]*\S.*$",                   # a link reference definition
    r"\[\[[a-z][a-z0-9_-]*\|?",                           # a glossary mark's key: [[key| or [[key
    r"\{[ \t]*:?[ \t]*(?:[#.][^{}\n]*|markdown[ \t]*)\}",  # an attribute list: { #id .class }
    r"\bhttps?://[^\s)>\]]+",                             # a bare URL
)), re.DOTALL | re.MULTILINE)
_YAML_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<key>[A-Za-z_][\w-]*):(?:[ \t]+|$)")
_YAML_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+")
# a key and its value in a flow mapping: a quoted string, or plain text up to the next , or }
_FLOW_PAIR = re.compile(r"""(?P<key>[A-Za-z_][\w-]*):[ \t]*(?P<value>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,{}]*)""")


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _blank_span(chars: list[str], start: int, end: int) -> None:
    for index in range(start, end):
        if chars[index] != "\n":
            chars[index] = " "


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(match.end() for match in re.finditer("\n", text))
    return starts


def _blank_regex(text: str, pattern: re.Pattern) -> str:
    return pattern.sub(lambda match: _blank(match.group(0)), text)


def outside_code(markdown: str, fences: list[Fence], component_kinds) -> str:
    """The page with code fences (all but component blocks, whose fence lines alone go; code fenced
    inside a block's text, like an answer's example, goes too) and inline code blanked."""
    chars = list(markdown)
    lines = markdown.split("\n")
    starts = _line_starts(markdown) + [len(markdown) + 1]

    def blank_lines(first: int, last: int) -> None:  # 0-based, inclusive
        last = min(last, len(lines) - 1)
        if first <= last:
            _blank_span(chars, starts[first], starts[last + 1] - 1)

    for fence in fences:
        first, last = fence.line - 1, fence.end - 1
        if fence.name not in component_kinds:
            blank_lines(first, last)
            continue
        blank_lines(first, first)
        blank_lines(last, last)
        for inner in read_fences("\n".join(lines[first + 1:last])):
            blank_lines(first + inner.line, first + inner.end)
    return _blank_regex("".join(chars), _INLINE_CODE)


def text_fields_only(yaml_text: str, fields=TEXT_FIELDS) -> str:
    """A YAML mapping's text with everything blanked but the values of ``fields`` (and the items
    and continuation lines under them): a line reads as belonging to the last key above it."""
    out = []
    current = None
    scalar_indent = None  # inside a block scalar (key: |) opened at this indentation
    for line in yaml_text.split("\n"):
        indent = len(line) - len(line.lstrip(" \t"))
        if scalar_indent is not None and (not line.strip() or indent > scalar_indent):
            out.append(line if current in fields else _blank(line))  # a code line may look like a key
            continue
        scalar_indent = None
        key = _YAML_KEY.match(line)
        if key:
            current = key["key"]
            value = line[key.end():]
            if re.fullmatch(r"[|>][-+]?[ \t]*", value):
                scalar_indent = indent
            out.append(_blank(line[:key.end()]) + (value if current in fields else _blank(value)))
            continue
        item = _YAML_ITEM.match(line)
        keep = current in fields
        if item and line[item.end():].lstrip().startswith("{"):  # - {text: "…", correct: true}
            out.append(_blank(line[:item.end()]) + _flow_text_fields(line[item.end():], fields))
        elif item:
            out.append(_blank(line[:item.end()]) + (line[item.end():] if keep else _blank(line[item.end():])))
        else:
            out.append(line if keep else _blank(line))
    return "\n".join(out)


def _flow_text_fields(flow: str, fields) -> str:
    """A one-line flow mapping with everything blanked but the values of ``fields``."""
    kept = [" "] * len(flow)
    for match in _FLOW_PAIR.finditer(flow):
        if match["key"] in fields:
            start, end = match.span("value")
            kept[start:end] = flow[start:end]
    return "".join(kept)


def _strip_yaml_quotes(text: str) -> str:
    """Block-scalar markers and the quotes around a YAML value are not words."""
    return re.sub(r"(?<=[ \t])[|>][-+]?[ \t]*$|(?<=[ \t])[\"']|[\"'][ \t]*$", lambda match: _blank(match.group(0)),
                  text, flags=re.MULTILINE)


def reader_text(markdown: str, fences: list[Fence], component_kinds) -> str:
    """Only the words a reader reads (see the module's docstring)."""
    text = outside_code(markdown, fences, component_kinds)
    front = _FRONT_MATTER.match(text)
    if front:
        text = _blank(front.group(0)) + text[front.end():]
    lines = text.split("\n")
    for fence in fences:
        if fence.name in component_kinds:
            body = slice(fence.line, fence.end - 1)
            if body.start < body.stop:  # an empty block has no body: "".split() would add a line
                lines[body] = _strip_yaml_quotes(text_fields_only("\n".join(lines[body]))).split("\n")
    text = "\n".join(lines)
    # a glossary mark's closing brackets, once its key is gone
    return re.sub(r"\]\]", "  ", _blank_regex(text, _MARKUP))


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
