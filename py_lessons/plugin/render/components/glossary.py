"""``glossary``: every term of the course's glossary, on one page (the glossary page).

    ```glossary
    ```

The terms themselves, and their marks in lessons, are render/glossary.py's.
"""

from __future__ import annotations

from ...base.yaml_blocks import read_block
from ..glossary import render_all
from .base import Component


class Glossary(Component):
    kind = "glossary"

    def parse(self, body, page):
        return read_block(body, self.kind, set())

    def render(self, parsed, page):
        return render_all(self.course.terms)
