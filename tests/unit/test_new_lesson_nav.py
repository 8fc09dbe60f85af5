"""Where `./pathshala new` puts a lesson in the nav (py_lessons/plugin/cli/new_lesson.py): the
expected navs are written out by hand."""

from __future__ import annotations

import pytest

from py_lessons.plugin.cli.new_lesson import add_to_nav

NAV = """site_name: t
docs_dir: docs
nav:
  - শুরু: index.md
  - পাঠ:
    - "১ · এক":
      - lessons/one/index.md
      - lessons/one/more.md
    - "২ · দুই": lessons/two/index.md
  - পরিভাষা: glossary/index.md
"""


def _course(tmp_path, nav=NAV, capstone=None):
    (tmp_path / "mkdocs.yml").write_text(nav, encoding="utf-8")
    for slug in ("one", "two"):
        page = tmp_path / "docs" / "lessons" / slug / "index.md"
        page.parent.mkdir(parents=True)
        page.write_text(("---\ncapstone: true\n---\n" if slug == capstone else "") + "# x\n", encoding="utf-8")
    return tmp_path / "mkdocs.yml"


def _lessons(config):
    return [line for line in config.read_text(encoding="utf-8").split("\n") if "lessons/" in line or "·" in line]


def test_after_the_last_lesson_numbered_like_its_neighbours(tmp_path):
    config = _course(tmp_path)
    assert add_to_nav(config, "তিন", "three").startswith("after '২ · দুই'")
    assert _lessons(config) == ['    - "১ · এক":', "      - lessons/one/index.md", "      - lessons/one/more.md",
                                '    - "২ · দুই": lessons/two/index.md', '    - "৩ · তিন": lessons/three/index.md']


def test_before_a_capstone_which_is_renumbered(tmp_path):
    config = _course(tmp_path, capstone="two")
    assert add_to_nav(config, "তিন", "three").startswith("before '২ · দুই'")
    assert _lessons(config)[-2:] == ['    - "২ · তিন": lessons/three/index.md', '    - "৩ · দুই": lessons/two/index.md']


def test_after_a_section_goes_after_its_last_part(tmp_path):
    config = _course(tmp_path)
    add_to_nav(config, "তিন", "three", after="one")
    assert _lessons(config) == ['    - "১ · এক":', "      - lessons/one/index.md", "      - lessons/one/more.md",
                                '    - "২ · তিন": lessons/three/index.md', '    - "৩ · দুই": lessons/two/index.md']


def test_unnumbered_lessons_stay_unnumbered(tmp_path):
    config = _course(tmp_path, NAV.replace("১ · ", "").replace("২ · ", ""))
    add_to_nav(config, "তিন", "three")
    assert _lessons(config)[-1] == '    - "তিন": lessons/three/index.md'


def test_an_unknown_neighbour_is_refused_and_names_the_lessons(tmp_path):
    config = _course(tmp_path)
    with pytest.raises(SystemExit, match="no lesson 'nope' in the nav \\(lessons: one, two\\)"):
        add_to_nav(config, "তিন", "three", before="nope")
    assert config.read_text(encoding="utf-8") == NAV
