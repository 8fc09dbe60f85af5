"""Explorable figures without a build: the registry, parameter checks, values on the step grid,
rendering in CPython, the content modules found by convention, and the block's parser/HTML.
Expected values are written out by hand (grid points, Bangla digits) or computed another way."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import matplotlib
import pytest

from support.site import ROOT
from py_lessons.plugin.execute import course_modules as content
from py_lessons.plugin.ship import runtime_wheel
from py_lessons.plugin.execute.cache import call_key
from py_lessons.plugin.render.components import explorable as block
from py_lessons.plugin.base.errors import BlockError as ComponentError
from py_lessons.runtime import explorables, session
from py_lessons.runtime.explorables import EXPLORABLES, ExplorableError, Param, describe, render, validate

matplotlib.use("agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture()
def register():
    """Register test explorables; each is forgotten after the test."""
    added = []

    def add(name, params, func, title="পরীক্ষা"):
        explorables.explorable(name, title=title, params=params)(func)
        added.append(name)

    yield add
    for name in added:
        EXPLORABLES.pop(name, None)


def line(a, b):
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [b, a + b])
    return fig


SLOPE = Param("a", "ঢাল", minimum=-1, maximum=1, step=0.1, default=0.5)
COUNT = Param("b", "সংখ্যা", minimum=0, maximum=10, step=2, default=4, unit="টি")


# -- registry and parameter checks --------------------------------------------------------

def test_a_name_or_a_parameter_registered_twice_is_refused(register):
    register("t_twice", [SLOPE, COUNT], line)
    with pytest.raises(RuntimeError, match="registered twice"):
        register("t_twice", [SLOPE, COUNT], line)
    with pytest.raises(RuntimeError, match="duplicate parameter"):
        register("t_dup", [SLOPE, SLOPE], line)
    with pytest.raises(RuntimeError, match="may not be called 'name'"):
        register("t_name", [Param("name", "নাম", 0, 1, 1, 0)], lambda name: None)
    with pytest.raises(RuntimeError, match="may not be called 'frame'"):
        register("t_frame", [Param("frame", "ফ্রেম", 0, 1, 1, 0)], lambda frame: None)


def test_describe_gives_each_parameter_with_its_grid_decimals(register):
    register("t_describe", [SLOPE, COUNT], line)
    spec = describe("t_describe")
    assert spec["title"] == "পরীক্ষা"
    assert [(p["name"], p["places"], p["default"]) for p in spec["params"]] == [("a", 1, 0.5), ("b", 0, 4)]
    assert isinstance(spec["params"][1]["default"], int)


@pytest.mark.parametrize("param, key", [
    (Param("x", "এক্স", minimum=1, maximum=1, step=0.5, default=1), "explorable.param.bad_range"),
    (Param("x", "এক্স", minimum=2, maximum=1, step=0.5, default=1), "explorable.param.bad_range"),
    (Param("x", "এক্স", minimum=0, maximum=1, step=0, default=0), "explorable.param.bad_step"),
    (Param("x", "এক্স", minimum=0, maximum=1, step=-0.5, default=0), "explorable.param.bad_step"),
    (Param("x", "এক্স", minimum=0, maximum=1, step=0.3, default=0), "explorable.param.max_off_grid"),
    (Param("x", "এক্স", minimum=0, maximum=1, step=0.5, default=1.5), "explorable.param.default_outside"),
    (Param("x", "এক্স", minimum=0, maximum=1, step=0.1, default=0.25), "explorable.param.default_off_grid"),
    (Param("x", "এক্স", minimum=0, maximum=float("inf"), step=0.1, default=0), "explorable.param.not_number"),
])
def test_a_bad_parameter_is_reported_in_bangla_naming_it(register, param, key):
    register("t_bad", [param], lambda x: None)
    with pytest.raises(ExplorableError) as info:
        describe("t_bad")
    message = str(info.value)
    assert message.startswith("“এক্স” (x): ")
    # the catalogue's sentence for that mistake, whatever numbers it quotes
    fixed = re.split(r"\{\w+\}", json.loads((ROOT / "py_lessons/runtime/strings.bn.json").read_text("utf-8"))[key])
    assert all(part in message for part in fixed if part.strip())


def test_parameters_and_the_functions_arguments_must_match(register):
    register("t_missing", [SLOPE], line)  # line also needs b
    with pytest.raises(ExplorableError, match="“b” আর্গুমেন্টের কোনো Param নেই"):
        describe("t_missing")
    register("t_extra", [SLOPE, COUNT, Param("c", "সি", 0, 1, 1, 0)], line)
    with pytest.raises(ExplorableError, match="“c” নামে কোনো আর্গুমেন্ট নেয় না"):
        describe("t_extra")
    register("t_kwargs", [SLOPE, COUNT], lambda a, **rest: None)
    assert [p["name"] for p in describe("t_kwargs")["params"]] == ["a", "b"]


def test_an_unknown_explorable_is_reported():
    with pytest.raises(ExplorableError, match="অজানা explorable: “no_such”"):
        describe("no_such")


def test_a_misspelled_explorable_is_answered_with_the_closest_name(register):
    register("t_slope_line", [SLOPE, COUNT], line)
    with pytest.raises(ExplorableError, match="অজানা explorable: “t_slope_lin”; আপনি কি “t_slope_line” বোঝাতে চেয়েছেন"):
        describe("t_slope_lin")


# -- values on the grid -------------------------------------------------------------------

def test_values_snap_onto_their_grid_point_and_missing_ones_take_the_default(register):
    register("t_grid", [SLOPE, COUNT], line)
    # 0.1 + 0.2 is 0.30000000000000004 in binary floating point; the grid point is 0.3
    assert validate("t_grid", {"a": 0.1 + 0.2}) == {"a": 0.3, "b": 4}
    assert validate("t_grid", {"a": "-0.7", "b": 10.0}) == {"a": -0.7, "b": 10}
    assert type(validate("t_grid", {"b": 6.0})["b"]) is int  # a whole-number grid gives ints
    assert validate("t_grid", {"a": -1e-17})["a"] == 0.0 and str(validate("t_grid", {"a": -1e-17})["a"]) == "0.0"
    assert list(validate("t_grid", {"b": 2, "a": 1})) == ["a", "b"]  # the registered order


@pytest.mark.parametrize("values, pattern", [
    ({"c": 1}, r"“t_grid”-এ “c” নামে কোনো প্যারামিটার নেই \(আছে: a, b\)"),
    ({"a": 0.25}, r"“ঢাল” \(a\): মান ০\.২৫ ধাপের মাপে পড়ে না"),
    ({"b": 3}, r"“সংখ্যা” \(b\): মান ৩ ধাপের মাপে পড়ে না"),
    ({"a": 1.1}, r"“ঢাল” \(a\): মান −১\.০ থেকে ১\.০-এর মধ্যে হতে হবে, ১\.১ নয়"),
    ({"b": -2}, r"“সংখ্যা” \(b\): মান ০ থেকে ১০-এর মধ্যে হতে হবে, −২ নয়"),
    ({"a": "অনেক"}, r"“ঢাল” \(a\): “অনেক” কোনো সংখ্যা নয়"),
    ({"a": True}, r"“ঢাল” \(a\): “True” কোনো সংখ্যা নয়"),
    ({"a": float("nan")}, r"“ঢাল” \(a\): মান −১\.০ থেকে ১\.০-এর মধ্যে হতে হবে, nan নয়"),
])
def test_a_bad_value_is_reported_in_bangla_naming_the_parameter(register, values, pattern):
    register("t_grid", [SLOPE, COUNT], line)
    with pytest.raises(ExplorableError, match=pattern):
        validate("t_grid", values)


def test_value_text_is_bangla_digits_at_the_grid_decimals_with_the_unit():
    assert explorables.value_text(SLOPE, -0.5) == "−০.৫"
    assert explorables.value_text(SLOPE, 1) == "১.০"
    assert explorables.value_text(COUNT, 10) == "১০ টি"
    assert explorables.value_text(Param("lr", "η", 0.05, 1.05, 0.05, 0.1), 0.3) == "০.৩০"


# -- rendering (CPython; the build and the page render in Pyodide) ----------------------

def test_render_draws_the_same_svg_for_the_same_values_and_closes_its_figures(register):
    register("t_line", [SLOPE, COUNT], line)
    open_before = plt.get_fignums()
    first = render("t_line", a=0.3)
    assert first["values"] == {"a": 0.3, "b": 4}
    assert first["svg"].startswith('<svg class="mpl-figure" role="img" ')
    assert render("t_line", a=0.1 + 0.2) == first  # snapped first, so byte-identical
    assert render("t_line", a=0.4)["svg"] != first["svg"]
    assert plt.get_fignums() == open_before


def _size_pt(svg: str) -> tuple[float, float]:
    width, height = re.search(r'<svg [^>]*width="([0-9.]+)pt" height="([0-9.]+)pt"', svg).groups()
    return float(width), float(height)


def titled(n):
    """A title that runs past the figure's right edge by a length the parameter sets: n = 2 has
    the longest, which no corner of the range (0, 4) shows."""
    fig, ax = plt.subplots(figsize=(2, 1.5))
    ax.plot([0, 1], [0, 1])
    ax.set_title("ক" * (30 if n == 2 else 4 + 2 * n), loc="left")
    return fig


def stacked(n):
    """``titled`` over a low second panel whose label rises from its bottom: the label's box is
    where matplotlib put it only if its y, which the SVG writer counts downwards, is read so."""
    fig, (ax, low) = plt.subplots(2, 1, figsize=(2, 3))
    ax.plot([0, 1], [0, 1])
    ax.set_title("ক" * (30 if n == 2 else 4 + 2 * n), loc="left")
    low.set_ylabel("খ" * 9, loc="bottom")
    return fig


def two_lines(n):
    """``titled`` with a label of two lines, whose lines matplotlib draws one by one without their
    Text artist: each is measured itself."""
    fig = titled(n)
    fig.axes[0].set_ylabel("খ" * 6 + "\n" + "গ" * 4)
    return fig


def _tight_size(n, draw=titled):
    """What matplotlib's own tight cut of that figure measures (the reference), its ticks in
    Bangla digits as every shown figure's are."""
    import io
    from py_lessons.runtime.figures import bangla_ticks

    fig = draw(n)
    bangla_ticks(fig)
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    return _size_pt(buffer.getvalue())


@pytest.mark.parametrize("draw", [titled, stacked, two_lines])
def test_every_position_is_drawn_into_one_frame_which_the_page_sends_back(register, draw):
    register("t_titled", [Param("n", "দৈর্ঘ্য", minimum=0, maximum=4, step=1, default=1)], draw)
    first = render("t_titled", n=1)
    assert render("t_titled", n=3)["frame"] == first["frame"]  # a property of the explorable
    # the frame spans the longest title of the defaults and the corners (n = 4), at every position
    widest = _tight_size(4, draw)
    for n in (0, 1, 3, 4):
        assert _size_pt(render("t_titled", n=n)["svg"]) == pytest.approx(widest, abs=0.05)
    assert _tight_size(1, draw)[0] < widest[0] - 20  # so n = 1 alone would have drawn narrower
    # the page sends the frame back: same values, same bytes as the build's figure
    assert render("t_titled", frame=first["frame"], n=1) == first
    assert plt.get_fignums() == []


def test_a_label_that_would_reach_outside_the_frame_is_drawn_tight_instead(register):
    register("t_titled", [Param("n", "দৈর্ঘ্য", minimum=0, maximum=4, step=1, default=1)], titled)
    frame = render("t_titled")["frame"]
    longest = render("t_titled", frame=frame, n=2)["svg"]
    assert _size_pt(longest) == pytest.approx(_tight_size(2), abs=0.05)
    assert _size_pt(longest)[0] > (frame[2] - frame[0]) * 72 + 50  # the frame would have cut the title


def test_a_corner_the_function_cannot_draw_is_left_out_of_the_frame(register):
    def refuses_four(n):
        if n == 4:
            raise ValueError("চার নয়")
        return titled(n)

    register("t_refuses", [Param("n", "দৈর্ঘ্য", minimum=0, maximum=4, step=1, default=1)], refuses_four)
    assert _size_pt(render("t_refuses", n=1)["svg"]) == pytest.approx(_tight_size(1), abs=0.05)  # n = 0 and 1 alike
    with pytest.raises(ExplorableError, match="চার নয়"):
        render("t_refuses", n=4)


@pytest.mark.parametrize("frame", [[0, 0, 1], [0, 0, -1, 1], [0, 0, float("nan"), 1], "0 0 1 1", [0, 0, True, 1]])
def test_a_frame_that_is_not_four_ordered_numbers_is_refused(register, frame):
    register("t_line", [SLOPE, COUNT], line)
    with pytest.raises(ValueError, match="frame"):
        render("t_line", frame=frame)


def test_render_ignores_what_a_readers_cell_did_to_matplotlibs_settings(register):
    register("t_line", [SLOPE, COUNT], line)
    plain = render("t_line")["svg"]
    with matplotlib.rc_context({"lines.linewidth": 9, "axes.facecolor": "#ff0000"}):
        assert render("t_line")["svg"] == plain


def test_a_function_may_draw_on_the_current_figure(register):
    def on_current(a):
        plt.figure(figsize=(2, 1.5))
        plt.plot([0, 1], [0, a])

    register("t_current", [SLOPE], on_current)
    assert "<path" in render("t_current", a=1)["svg"]
    assert plt.get_fignums() == []


def test_a_function_that_raises_or_draws_nothing_is_reported_and_leaves_no_figure(register):
    def raises(a):
        plt.figure()
        return 1 / 0

    register("t_raises", [SLOPE], raises)
    register("t_nothing", [SLOPE], lambda a: None)
    register("t_empty", [SLOPE], lambda a: plt.figure())
    with pytest.raises(ExplorableError, match=r"“t_raises” চিত্রটি আঁকতে গিয়ে Python-এ ত্রুটি হলো: ZeroDivisionError"):
        render("t_raises")
    for name in ("t_nothing", "t_empty"):
        with pytest.raises(ExplorableError, match=f"“{name}” ফাংশন কোনো চিত্র আঁকেনি"):
            render(name)
    assert plt.get_fignums() == []


def test_session_call_answers_with_the_value_or_the_error(register):
    register("t_line", [SLOPE, COUNT], line)
    ok = json.loads(session.call("py_lessons.runtime.explorables", "render", json.dumps({"name": "t_line", "b": 2})))
    assert ok["ok"] and ok["value"]["values"] == {"a": 0.5, "b": 2}
    bad = json.loads(session.call("py_lessons.runtime.explorables", "render", json.dumps({"name": "t_line", "b": 3})))
    assert bad == {"ok": False, "error": "ExplorableError", "message": str(_error(lambda: validate("t_line", {"b": 3})))}


def _error(action):
    try:
        action()
    except Exception as exc:  # noqa: BLE001
        return exc
    raise AssertionError("no error")


def test_the_runtime_module_imports_the_standard_library_only():
    code = ("import sys\nbefore = set(sys.modules)\nimport py_lessons.runtime.explorables\n"
            "new = set(sys.modules) - before\n"
            "print(sorted(n for n in new if n.split('.')[0] not in sys.stdlib_module_names"
            " and n.split('.')[0] != 'py_lessons'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- content modules, by convention --------------------------------------------------------

FIGURES_PY = ("from py_lessons.runtime.explorables import Param, explorable\n\n"
              "@explorable('t_found', title='t', params=[Param('x', 'এক্স', 0, 1, 1, 0)])\n"
              "def found(x):\n    import matplotlib.pyplot as plt\n    return plt.figure()\n")


def test_steppers_and_explorables_of_one_folder_get_distinct_modules(tmp_path):
    for name in ("a-b/steppers.py", "a-b/explorables.py", "a-b/explorables/steppers.py", "steppers.py",
                 "explorables.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert content.find_modules(tmp_path) == {
        "a_b": tmp_path / "a-b/steppers.py", "a_b__explorables": tmp_path / "a-b/explorables.py",
        "a_b_explorables": tmp_path / "a-b/explorables/steppers.py",
        "index": tmp_path / "steppers.py", "index__explorables": tmp_path / "explorables.py"}


def test_loading_a_content_module_again_replaces_what_it_registered(tmp_path):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "explorables.py").write_text(FIGURES_PY, encoding="utf-8")
    modules = content.find_modules(tmp_path)
    try:
        content.load(modules)
        content.load(modules)  # a rebuild under `mkdocs serve`: no "registered twice"
        assert EXPLORABLES["t_found"].func.__module__ == "py_lessons_content.figs__explorables"
    finally:
        EXPLORABLES.pop("t_found", None)


def test_a_figures_cache_key_is_the_source_the_build_loaded_not_the_file_saved_since(tmp_path):
    """An author who saves explorables.py during a build must not get the old drawing stored
    under the new file's key: the key is the source the build ran."""
    import hashlib

    (tmp_path / "figs").mkdir()
    path = tmp_path / "figs" / "explorables.py"
    path.write_text(FIGURES_PY, encoding="utf-8")
    try:
        content.load(content.find_modules(tmp_path))
        path.write_text(FIGURES_PY + "# saved again during the build\n", encoding="utf-8")
        parsed = block.parse("id: e\nfunction: t_found\n")
        assert parsed["source_sha"] == hashlib.sha256(FIGURES_PY.encode("utf-8")).hexdigest()
    finally:
        EXPLORABLES.pop("t_found", None)


@pytest.mark.parametrize("source, line_number", [
    ("import numpy as np\n", 1),
    ("import math\nfrom matplotlib import pyplot\n", 2),
    ("try:\n    import scipy\nexcept ImportError:\n    pass\n", 2),
])
def test_a_content_module_may_import_only_the_standard_library_at_import_time(tmp_path, source, line_number):
    path = tmp_path / "explorables.py"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(content.ContentError, match=rf"explorables\.py:{line_number}: import \w+"):
        content.check_imports(path)


def test_loading_the_course_checks_its_modules_imports_first(tmp_path):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "explorables.py").write_text("import numpy\n" + FIGURES_PY, encoding="utf-8")
    with pytest.raises(content.ContentError, match=r"figs/explorables\.py:1: import numpy"):
        content.load(content.find_modules(tmp_path))
    assert "t_found" not in EXPLORABLES


def test_packages_imported_inside_functions_are_fine(tmp_path):
    path = tmp_path / "explorables.py"
    path.write_text("from __future__ import annotations\nimport math\nfrom py_lessons.runtime import numbers\n"
                    "def f():\n    import numpy\n", encoding="utf-8")
    content.check_imports(path)


def test_the_wheels_ship_explorables_modules(tmp_path):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs" / "explorables.py").write_text(FIGURES_PY, encoding="utf-8")
    names = [name for name, _ in runtime_wheel.content_sources(content.find_modules(tmp_path))]
    assert "py_lessons_content/figs__explorables.py" in names
    assert "py_lessons/runtime/explorables.py" in [name for name, _ in runtime_wheel.runtime_sources()]


def test_a_figures_cache_key_changes_with_its_call_its_module_and_the_runtime():
    base = call_key("m", "render", {"name": "f", "x": 1}, "sha-a", "runtime-1")
    assert base == call_key("m", "render", {"x": 1, "name": "f"}, "sha-a", "runtime-1")
    assert len({base, call_key("m", "render", {"name": "f", "x": 2}, "sha-a", "runtime-1"),
                call_key("m", "render", {"name": "f", "x": 1}, "sha-b", "runtime-1"),
                call_key("m", "render", {"name": "f", "x": 1}, "sha-a", "runtime-2")}) == 4


# -- the block: parsing and HTML ------------------------------------------------------------

def test_the_block_is_checked_when_parsed(register):
    register("t_line", [SLOPE, COUNT], line)
    with pytest.raises(ComponentError, match="unknown function 'nope'"):
        block.parse("id: e\nfunction: nope\n")
    with pytest.raises(ComponentError, match=r"explorable 'e' \(t_line\): .*ধাপের মাপে পড়ে না"):
        block.parse("id: e\nfunction: t_line\nvalues: {a: 0.05}\n")
    with pytest.raises(ComponentError, match="values must be a mapping"):
        block.parse("id: e\nfunction: t_line\nvalues: [1]\n")
    with pytest.raises(ComponentError, match="unknown keys colour"):
        block.parse("id: e\nfunction: t_line\ncolour: red\n")
    parsed = block.parse("id: e\nfunction: t_line\nvalues: {b: 8}\n")
    assert parsed["values"] == {"a": 0.5, "b": 8} and parsed["caption"] == "পরীক্ষা"


def test_the_packages_to_load_are_matplotlib_and_what_the_module_imports():
    source = "import math\nfrom py_lessons.runtime import numbers\ndef f():\n    import numpy as np\n    import scipy.special\n"
    assert block.imports_of(source) == "import matplotlib.pyplot\nimport numpy\nimport scipy.special"


def test_the_html_has_the_hooks_a_slider_per_parameter_and_the_drawn_figure(register):
    register("t_line", [SLOPE, COUNT], line)
    parsed = block.parse("id: e\nfunction: t_line\nvalues: {a: -0.3}\ncaption: দুটি রেখা\n")
    with pytest.raises(ComponentError, match="not drawn"):
        block.render(parsed)
    calls = []
    block.draw(parsed, lambda *call: calls.append(call) or {"ok": True, "value": render(**call[2])})
    assert calls[0][:3] == ("py_lessons.runtime.explorables", "render", {"name": "t_line", "a": -0.3, "b": 4})
    assert calls[0][3].splitlines()[0] == "import matplotlib.pyplot"  # then what this test module imports
    html = block.render(parsed)
    assert re.search(r'<div class="pz-explorable" role="group" data-component="explorable" data-id="e" '
                     r'data-function="t_line" data-state="ready"', html)
    figure = re.search(r"<div class=\"pz-explorable-figure\" data-figure>(<svg.*</svg>\s*)</div>", html, re.S)
    assert figure.group(1).replace(' aria-label="দুটি রেখা। ঢাল −০.৩; সংখ্যা ৪ টি"', "", 1) == render("t_line", a=-0.3)["svg"]
    assert '<input type="range" id="e-a" name="a" data-param="a" min="-1.0" max="1.0" step="0.1" value="-0.3"' in html
    assert '<input type="range" id="e-b" name="b" data-param="b" min="0" max="10" step="2" value="4"' in html
    assert 'aria-valuetext="−০.৩"' in html and 'aria-valuetext="৪ টি"' in html
    assert '<output for="e-a" data-value-of="a" aria-live="off">−০.৩</output>' in html
    assert 'role="status"' in html and "data-status" in html
    frame = re.search(r'data-frame="([^"]*)"', html).group(1)
    assert json.loads(frame) == render("t_line", a=-0.3)["frame"]  # what the page's redraws send back


def test_a_failed_default_figure_is_the_authors_error():
    parsed = {"id": "e", "function": "f", "values": {}, "imports": "", "source_sha": ""}
    with pytest.raises(ComponentError, match=r"explorable 'e' \(f\): ExplorableError: বার্তা"):
        block.draw(parsed, lambda *call: {"ok": False, "error": "ExplorableError", "message": "বার্তা"})
