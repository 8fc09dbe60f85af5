"""The plugin as a package: `pip wheel .` gives a wheel with the MkDocs entry point, a licence and
every front-end file the plugin adds to a site, and a site builds from that wheel alone."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from support.site import ROOT, make_site


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    (found,) = out.glob("pathshala-*.whl")
    return found


def test_the_wheel_declares_the_plugin_and_its_licence(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(info).decode()
        entry_points = archive.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "[mkdocs.plugins]\npy_lessons = py_lessons.plugin.mkdocs_adapter:LessonsPlugin" in entry_points
    assert "License-Expression: MIT" in metadata and "Name: pathshala" in metadata
    assert any(line.startswith("Requires-Dist: mkdocs-material") for line in metadata.splitlines())
    tracked = subprocess.run(["git", "ls-files", "py_lessons"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    missing = [name for name in tracked if name not in names and (ROOT / name).exists()]
    assert missing == []  # every source, asset, pin and Node script of the plugin ships


def test_a_site_builds_from_the_wheel_alone(wheel, tmp_path):
    target = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    config = make_site(tmp_path, {"index.md": "# x\n\n```pycell\nprint(6 * 7)\n```\n"})
    env = {**os.environ, "PYTHONPATH": str(target), "NO_MKDOCS_2_WARNING": "1"}
    where = subprocess.run([sys.executable, "-c", "import py_lessons; print(py_lessons.__file__)"], env=env,
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(str(target))  # the wheel's copy, not this checkout's
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d",
                           str(tmp_path / "out")], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "42" in page and 'data-cell-id="index-1"' in page
    shipped = (target / "py_lessons" / "plugin" / "assets" / "cells" / "cell.js").read_bytes()
    assert (tmp_path / "out" / "assets" / "pathshala" / "cells" / "cell.js").read_bytes() == shipped
