"""This course's own modules (site/**/steppers.py), loaded the way the plugin loads them."""

from __future__ import annotations

from py_lessons.plugin import content

from .site import ROOT


def load_course_content() -> None:
    content.load(content.find_modules(ROOT / "site"))
