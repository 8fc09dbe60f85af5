"""The catalogue of reader-facing text (``py_lessons/runtime/strings.bn.json``) for the HTML
renderers, and as an ES module for the page's scripts."""

from __future__ import annotations

import json

from ...runtime.catalogue import CATALOGUE, catalogue, t

__all__ = ["CATALOGUE", "catalogue", "t", "as_javascript_module"]


def as_javascript_module() -> str:
    """The catalogue as an ES module, written into the built site for the front end."""
    return "// Generated from py_lessons/runtime/strings.bn.json: edit that file.\nexport default " + json.dumps(
        catalogue(), ensure_ascii=False, indent=1
    ) + ";\n"
