"""A small site with explorable figures (build and browser tests): one ``explorables.py`` shared by
every test, so the Pyodide staged for it (its runtime wheel carries the module) is staged once."""

from __future__ import annotations

from pathlib import Path

from .site import lesson_site

EXPLORABLES_PY = '''\
from py_lessons.runtime.explorables import Param, explorable


@explorable("wave", title="ঢেউ", params=[
    Param("cycles", "কত বার ঘোরে", minimum=1, maximum=5, step=1, default=2),
    Param("shift", "সরণ", minimum=-1, maximum=1, step=0.25, default=0, unit="রেডিয়ান"),
])
def wave(cycles, shift):
    import math
    import matplotlib.pyplot as plt

    if cycles == 5:
        raise ValueError("পাঁচ বার ঘোরানো যাবে না")
    xs = [i / 40 for i in range(41)]
    plt.figure(figsize=(3, 2))
    plt.plot(xs, [math.sin(2 * math.pi * cycles * x + shift) for x in xs])


@explorable("bad_range", title="x", params=[Param("x", "এক্স", minimum=2, maximum=1, step=0.5, default=1.5)])
def bad_range(x):
    raise AssertionError("never drawn")


@explorable("off_grid_default", title="x", params=[Param("x", "এক্স", minimum=0, maximum=1, step=0.1, default=0.33)])
def off_grid_default(x):
    raise AssertionError("never drawn")


@explorable("draws_nothing", title="x", params=[Param("x", "এক্স", minimum=0, maximum=1, step=0.5, default=0)])
def draws_nothing(x):
    return None


@explorable("always_raises", title="x", params=[Param("x", "এক্স", minimum=0, maximum=1, step=0.5, default=0)])
def always_raises(x):
    return 1 / x
'''


def explorable_site(tmp_path: Path, page: str) -> Path:
    """``lesson/index.md`` = ``page`` with EXPLORABLES_PY beside it; returns mkdocs.yml."""
    config = lesson_site(tmp_path, page)
    (tmp_path / "docs" / "lesson" / "explorables.py").write_text(EXPLORABLES_PY, encoding="utf-8")
    return config
