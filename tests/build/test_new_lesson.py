"""`./pathshala new SLUG "Title"` on a copy of the course: the new lesson builds, with its cell's
output, its stepper's rows and its quiz, and nothing outside the new folder and the nav changed."""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
import sys

from support.site import ROOT, build_site, outputs


def _tree(folder):
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def test_new_lesson_needs_nothing_but_its_folder_and_the_nav(tmp_path):
    course = tmp_path / "course"
    course.mkdir()
    shutil.copytree(ROOT / "site", course / "site", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(ROOT / "mkdocs.yml", course / "mkdocs.yml")
    (course / "gpu_runs").mkdir()
    (course / "gpu_runs" / "results").symlink_to(ROOT / "gpu_runs" / "results")
    (course / ".cache").mkdir()
    (course / ".cache" / "py_lessons").symlink_to(ROOT / ".cache" / "py_lessons")  # the course's cell cache
    before = _tree(course / "site")

    done = subprocess.run([sys.executable, "-m", "py_lessons.plugin.cli.new_lesson",
                           "linear-regression", "রৈখিক রিগ্রেশন", "--config", str(course / "mkdocs.yml")],
                          cwd=course, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    after = _tree(course / "site")
    assert after - before == {"lessons/linear-regression/index.md", "lessons/linear-regression/steppers.py"}
    changed = [name for name in before if not filecmp.cmp(ROOT / "site" / name, course / "site" / name, shallow=False)]
    assert changed == []
    old_nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    new_nav = (course / "mkdocs.yml").read_text(encoding="utf-8").split("\n")
    # it comes before the capstone (front matter capstone: true), numbered as the lessons are
    capstone = next(i for i, line in enumerate(old_nav) if "lessons/capstone/index.md" in line)
    assert new_nav[:capstone] == old_nav[:capstone]
    assert new_nav[capstone:capstone + 2] == ['    - "৫ · রৈখিক রিগ্রেশন": lessons/linear-regression/index.md',
                                              '    - "৬ · শেষ কাজ": lessons/capstone/index.md']
    assert new_nav[capstone + 2:] == old_nav[capstone + 1:]
    assert "before '৫ · শেষ কাজ'" in done.stdout
    assert "placeholder summary" in done.stderr  # no --summary: the author is told to write one

    built = build_site(tmp_path / "out", course / "mkdocs.yml")
    assert built.returncode == 0, built.stderr[-4000:]
    page = tmp_path / "out" / "lessons" / "linear-regression" / "index.html"
    assert outputs(tmp_path / "out", "lessons/linear-regression/index.html") == {"linear-regression-mean": "গড়: 5.0\n"}
    html = page.read_text(encoding="utf-8")
    assert 'data-component="stepper"' in html and 'data-function="linear_regression_mean"' in html
    assert "15 / 3" in re.sub(r"<[^>]+>", "", html)  # the stepper's rows, computed from its steppers.py
    assert "গড় হলো ৫" in html                   # a value quoted from the stepper in prose
    assert 'data-component="mcq"' in html and 'data-component="complete" data-id="linear-regression"' in html
    home = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'data-lesson="linear-regression"' in home  # the home page's progress counts it as a lesson
    assert "হোম পাতার কার্ডে এটিই দেখায়" in home       # its card is not blank
