"""Prose checks: one rendering per term, numbers through the one formatter, no stale references.

The build reads each page's prose (prose.reader_text: not code, math, markup or a component's
settings) and reports, with ``page:line``:

* a variant that ``glossary.yml`` says to avoid (``avoid: [...]`` on the term that is the chosen
  rendering). A Bangla variant matches as a whole word, with its inflections (ওজন, ওজনের,
  ওজনগুলো; never inside বদল or ওজনদার); an English one as a whole word, any case, plural too;
  a variant of several words matches them across a line break;
* a number in exponent form (``3.59e+06``, ``৩.৫৯e+০৬``) or with five or more digits not grouped
  the Indian way (``65504``, ``100,000``): write it with ``{{ … }}`` macros or as ``৬৫,৫০৪``;
* a number in Latin digits in a line of Bangla (``16-bit``, ``0.01``, ``ICLR 2015``): Bangla prose
  writes Bangla digits, so a line never shows both (an English course or line is left alone); Latin digits belong in code, in math and in names (fp16, int8, GPT-2,
  arXiv:1503.02531), and an ordered list's ``1.`` is markup;
* a reference to the sources' numbering (পর্ব ১৭, অধ্যায় ৩, ছবি ১৭.২, Chapter 5, Figure 3.1), a
  lesson number beyond the course's lessons (পাঠ ৯), or a relative link to nothing in the docs.

The glossary's own definitions are checked too. Run only the checks, listing every finding:

    python -m py_lessons.plugin.cli.check_prose site   # site: the docs folder; exit status 1 on findings
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ...runtime.numbers import bn_digits, group_indian
from .fences import read_fences
from .prose import line_of, outside_code, reader_text, text_fields_only

_BANGLA = "\u0980-\u09FF\u200C\u200D"
# what Bangla glues to a noun: plural or classifier, then case, then emphasis (স্তরগুলোতেই)
_BANGLA_INFLECTION = "(?:গুলো|গুলি|দের|রা|টি|টা)?(?:এর|ের|র|কে|তে|য়|য়|ে)?(?:ও|ই)?"
_DIGIT = "0-9০-৯"
_TO_ASCII = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")

_EXPONENT_FORM = re.compile(rf"(?<![A-Za-z_{_DIGIT}.])[{_DIGIT}]+(?:\.[{_DIGIT}]+)?[eE][+\-−]?[{_DIGIT}]+(?![A-Za-z_{_DIGIT}])")
_LONG_NUMBER = re.compile(rf"(?<![A-Za-z_{_DIGIT}.,])[{_DIGIT}]{{5,}}(?![{_DIGIT}]|,[{_DIGIT}])")
_GROUPED_NUMBER = re.compile(rf"(?<![A-Za-z_{_DIGIT}.,])[{_DIGIT}]{{1,3}}(?:,[{_DIGIT}]{{2,3}})+(?![{_DIGIT}])")
# a number standing on its own in Latin digits (grouped or decimal too), not a name's digits: not
# glued to a letter (fp16, 4bit), not after a name's hyphen or colon (GPT-2, arXiv:1503.02531)
_LATIN_NUMBER = re.compile(r"(?<![A-Za-z_0-9.,])(?<![A-Za-z][-:])(?<![eE][-+\u2212])(?:[0-9]{1,3}(?:,[0-9]{2,3})+|[0-9]+)(?:\.[0-9]+)?"
                           r"(?![A-Za-z_0-9]|[.,][0-9])")
_BANGLA_SCRIPT = re.compile("[\u0980-\u09FF]")
_LIST_MARKER = re.compile(r"^([ \t]*(?:[-*+>][ \t]+)*)[0-9]+[.)](?=[ \t])", re.MULTILINE)
_SOURCE_NUMBERING = re.compile(
    rf"(?<![{_BANGLA}])(?:পর্ব|অধ্যায়|অধ্যায়)[ \t]*[{_DIGIT}]+(?![{_DIGIT}])"
    rf"|(?<![{_BANGLA}])ছবি[ \t]*[{_DIGIT}]+\.[{_DIGIT}]+"
    r"|\b(?:chapter|section)[ \t]+\d+|\bfig(?:ure|\.)[ \t]*\d+\.\d+", re.IGNORECASE)
_LESSON_NUMBER = re.compile(rf"(?<![{_BANGLA}])পাঠ[ \t]*(?P<n>[{_DIGIT}]+)(?![{_DIGIT}])")
_LINK = re.compile(r"\]\((?P<target>[^()\s]+)(?:\s+\"[^\"]*\")?\)")
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#|/)", re.IGNORECASE)


LATIN_DIGITS_ADVICE = ("a number in Latin digits in Bangla text: write Bangla digits (১৬-bit, ০.০১), quote it with "
                       "{{ … | bn }}, or put code in `…` and a formula in $…$")


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _blank_regex(text: str, pattern: re.Pattern) -> str:
    return pattern.sub(lambda match: _blank(match.group(0)), text)


@dataclass(frozen=True)
class Finding:
    src: str       # the page (or glossary file) inside the docs folder
    line: int
    found: str     # the words as written
    advice: str    # what to write instead

    def __str__(self) -> str:
        return f"{self.src}:{self.line}: {' '.join(self.found.split())!r}: {self.advice}"


@dataclass(frozen=True)
class _AvoidRule:
    pattern: re.Pattern
    advice: str


def _is_bangla(char: str) -> bool:
    return "\u0980" <= char <= "\u09FF"


def variant_pattern(variant: str) -> re.Pattern:
    """A variant as whole words (see the module's docstring), its words across any white space."""
    body = r"\s+".join(re.escape(word) for word in variant.split())
    start = f"(?<![{_BANGLA}])" if _is_bangla(variant[0]) else "(?<![A-Za-z0-9_])"
    end = f"{_BANGLA_INFLECTION}(?![{_BANGLA}])" if _is_bangla(variant[-1]) else "(?:e?s)?(?![A-Za-z0-9_])"
    return re.compile(start + body + end, re.IGNORECASE)


def avoid_rules(terms: dict[str, dict]) -> list[_AvoidRule]:
    rules = []
    for key, entry in terms.items():
        chosen = re.sub(r"\s*\([^()]*\)$", "", entry["term"])  # "পরিসর (range)": the words before the gloss
        note = f"; {entry['note']}" if entry.get("note") else ""
        for variant in entry.get("avoid", []):
            rules.append(_AvoidRule(variant_pattern(variant), f"write {chosen!r}, not {variant!r} "
                                                              f"(glossary: {key}{note})"))
    return rules


class ProseChecker:
    """The checks of one course: its glossary's rules, its lesson count, its docs folder."""

    def __init__(self, terms: dict[str, dict], component_kinds, docs_dir: Path | None = None,
                 lesson_count: int | None = None):
        self.rules = avoid_rules(terms)
        self.component_kinds = set(component_kinds)
        self.docs_dir = Path(docs_dir) if docs_dir else None
        self.lesson_count = lesson_count

    def check_page(self, markdown: str, src: str) -> list[Finding]:
        fences = read_fences(markdown)
        text = reader_text(markdown, fences, self.component_kinds)
        found = [*self._words(text, src), *self._numbers(text, src), *self._references(text, src)]
        if self.docs_dir is not None:
            found += self._links(markdown, fences, src)
        return sorted(found, key=lambda finding: finding.line)

    def check_glossary(self, yaml_text: str, src: str) -> list[Finding]:
        """The definitions in glossary.yml (everything else there is keys, terms and avoid lists)."""
        text = text_fields_only(yaml_text, {"definition"})
        found = [*self._words(text, src), *self._numbers(text, src), *self._references(text, src)]
        return sorted(found, key=lambda finding: finding.line)

    def _words(self, text: str, src: str):
        for rule in self.rules:
            for match in rule.pattern.finditer(text):
                yield Finding(src, line_of(text, match.start()), match.group(0), rule.advice)

    def _numbers(self, text: str, src: str):
        for match in _EXPONENT_FORM.finditer(text):
            yield Finding(src, line_of(text, match.start()), match.group(0),
                          "a number in exponent form: quote it with {{ … }} (written × 10ⁿ) or write × ১০ⁿ")
        for match in _LONG_NUMBER.finditer(text):
            yield Finding(src, line_of(text, match.start()), match.group(0),
                          f"group it the Indian way: {_indian(match.group(0))} (or quote it with {{{{ … | , }}}})")
        for match in _GROUPED_NUMBER.finditer(text):
            if _misgrouped(match.group(0)):
                yield Finding(src, line_of(text, match.start()), match.group(0),
                              f"group it the Indian way: {_indian(match.group(0).replace(',', ''))}")
        # a number told above is not told again for its digits (65504, 1e-4, Chapter 5)
        told = _blank_regex(_blank_regex(_blank_regex(text, _EXPONENT_FORM), _LONG_NUMBER), _SOURCE_NUMBERING)
        told = _GROUPED_NUMBER.sub(lambda match: _blank(match[0]) if _misgrouped(match[0]) else match[0], told)
        told = _LIST_MARKER.sub(lambda match: match[1] + _blank(match[0][len(match[1]):]), told)
        for match in _LATIN_NUMBER.finditer(told):
            if _in_bangla_line(told, match.start()):  # an English course, or an English line, is left as written
                yield Finding(src, line_of(text, match.start()), match.group(0), LATIN_DIGITS_ADVICE)

    def _references(self, text: str, src: str):
        for match in _SOURCE_NUMBERING.finditer(text):
            yield Finding(src, line_of(text, match.start()), match.group(0),
                          "the sources' numbering means nothing here: name the lesson or section instead")
        if self.lesson_count:
            for match in _LESSON_NUMBER.finditer(text):
                number = int(match["n"].translate(_TO_ASCII))
                if not 1 <= number <= self.lesson_count:
                    yield Finding(src, line_of(text, match.start()), match.group(0),
                                  f"the course has lessons 1 to {self.lesson_count} only")

    def _links(self, markdown: str, fences, src: str):
        text = outside_code(markdown, fences, self.component_kinds)
        folder = PurePosixPath(src).parent
        for match in _LINK.finditer(text):
            target = match["target"]
            if _EXTERNAL.match(target):
                continue
            path = re.split(r"[#?]", target, maxsplit=1)[0]
            if path and not _exists(self.docs_dir, folder, path):
                yield Finding(src, line_of(text, match.start()), target,
                              "a link to nothing in the docs folder (no such page or file)")


def _in_bangla_line(text: str, offset: int) -> bool:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return _BANGLA_SCRIPT.search(text, start, end if end >= 0 else len(text)) is not None


def latin_numbers(text: str) -> list[str]:
    """The numbers of ``text`` written in Latin digits on their own (see the module's docstring)."""
    return [match.group(0) for match in _LATIN_NUMBER.finditer(_blank_regex(text, _EXPONENT_FORM))]


def _misgrouped(written: str) -> bool:
    digits = written.replace(",", "")
    return len(digits) >= 5 and _indian(digits) != written


def _indian(digits: str) -> str:
    """``digits`` grouped the Indian way, in the digits it was written in."""
    grouped = group_indian(digits.translate(_TO_ASCII))
    return bn_digits(grouped) if any(char in "০১২৩৪৫৬৭৮৯" for char in digits) else grouped


def _exists(docs_dir: Path, folder: PurePosixPath, path: str) -> bool:
    target = (docs_dir / folder / path).resolve()
    if target.is_file():
        return True
    return target.is_dir() and any((target / name).is_file() for name in ("index.md", "README.md"))
