"""The text of a PDF that Chromium printed, Bangla included (pypdf parses the file).

Chromium (Skia) draws a Bangla syllable with glyphs that are not one per character (a vowel sign
before its consonant, a conjunct as one glyph) and writes the syllable's characters in the
/ActualText of a marked-content span around them. Text extractors (pypdf's own too) read only
each glyph's ToUnicode entry, which garbles Bangla; this reads /ActualText where a span has it and
the glyphs' ToUnicode entries elsewhere. Lines end with "\\n" (a run that starts lower on the
page), pages with "\\f"; two runs on one line (two buttons side by side) are kept apart by a space.
"""

from __future__ import annotations

import io
import re

from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject

_HEX = re.compile(r"<([0-9A-Fa-f]+)>")


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\f".join(_page_text(reader, page) for page in reader.pages)


def _page_text(reader, page) -> str:
    fonts = {name: _font_map(font.get_object())
             for name, font in page["/Resources"].get_object().get("/Font", DictionaryObject()).items()}
    out: list[str] = []
    spans: list[str | None] = []  # open marked-content sequences: their /ActualText or None
    font, line_y, new_run = None, None, False
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"Tf":
            font = fonts.get(operands[0])
        elif operator == b"BT":
            new_run = True
        elif operator == b"Tm":
            if line_y is not None and abs(float(operands[5]) - line_y) > 0.5:
                out.append("\n")
            elif new_run and out and not out[-1][-1:].isspace():
                out.append(" ")
            line_y, new_run = float(operands[5]), False
        elif operator == b"BDC":
            properties = operands[1] if isinstance(operands[1], DictionaryObject) else {}
            spans.append(str(properties["/ActualText"]) if "/ActualText" in properties else None)
        elif operator == b"BMC":
            spans.append(None)
        elif operator == b"EMC" and spans:
            actual = spans.pop()
            if actual is not None and not any(span is not None for span in spans):
                out.append(actual)
        elif operator in (b"Tj", b"TJ") and font is not None and not any(span is not None for span in spans):
            strings = operands[0] if operator == b"TJ" else operands
            for item in strings:
                if isinstance(item, (bytes, str)):
                    out.append(_decode(item, font))
    return "".join(out)


def _font_map(font) -> tuple[int, dict[int, str]]:
    """(bytes per character code, code -> text) from the font's ToUnicode CMap."""
    width = 2 if font.get("/Subtype") == "/Type0" else 1
    mapping: dict[int, str] = {}
    if "/ToUnicode" not in font:
        return width, mapping
    cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for source, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            mapping[int(source, 16)] = bytes.fromhex(target).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for first, last, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)",
                                              block):
            start, end = int(first, 16), int(last, 16)
            if target.startswith("["):
                for offset, each in enumerate(_HEX.findall(target)):
                    mapping[start + offset] = bytes.fromhex(each).decode("utf-16-be")
            else:
                base = bytes.fromhex(target[1:-1]).decode("utf-16-be")
                for offset in range(end - start + 1):
                    mapping[start + offset] = base[:-1] + chr(ord(base[-1]) + offset)
    return width, mapping


def _decode(item, font) -> str:
    width, mapping = font
    raw = item.get_original_bytes() if hasattr(item, "get_original_bytes") else bytes(item)
    codes = (int.from_bytes(raw[i:i + width], "big") for i in range(0, len(raw), width))
    return "".join(mapping.get(code, "") for code in codes)
