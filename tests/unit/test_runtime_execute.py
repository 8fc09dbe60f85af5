"""The runtime's cell runner in CPython (the same pure-Python code Pyodide runs)."""

from __future__ import annotations

from py_lessons.runtime.execute import failing_line, merge_items, new_namespace, run_cell


def run(code, **kwargs):
    items = []
    result = run_cell(code, None, items.append, **kwargs)
    return merge_items(items), result


def test_stdout_and_stderr_are_separate_items_in_order():
    items, result = run("import sys\nprint('a')\nprint('b', file=sys.stderr)\nprint('c')")
    assert result == {"ok": True}
    assert items == [{"type": "stdout", "text": "a\n"}, {"type": "stderr", "text": "b\n"}, {"type": "stdout", "text": "c\n"}]


def test_traceback_starts_at_the_cell_and_names_its_line():
    items, result = run("x = 1\ny = [x][3]")
    assert result["ok"] is False and result["error"] == "IndexError"
    assert result["traceback"].startswith("Traceback (most recent call last):\n  File \"<cell>\", line 2")
    assert "execute.py" not in result["traceback"]


def test_output_flood_is_truncated_and_flagged():
    items, result = run("for i in range(100000):\n    print(i)", max_output_chars=1000)
    text = "".join(item["text"] for item in items)
    assert len(text) == 1000
    assert text.startswith("0\n1\n2\n")
    assert result == {"ok": True, "truncated": True}


def test_writes_are_batched_not_one_item_per_print():
    items = []
    run_cell("for i in range(5000):\n    print(i)", None, items.append)
    assert 1 <= len(items) < 100


def test_input_explains_itself_instead_of_hanging():
    _, result = run("name = input('নাম? ')")
    assert result["error"] == "InputNotAvailable"
    assert "stdin=" in result["message"] and result["explain"] == "explain.input"
    _, result = run("input()", input_unavailable="restart")
    assert result["explain"] == "explain.input.restart"
    _, result = run("input()", input_unavailable="reload")
    assert result["explain"] == "explain.input.reload"
    _, result = run("input()", input_unavailable="impossible")
    assert result["explain"] == "explain.input.impossible"


def test_input_reads_given_lines_then_asks_the_reader_and_echoes_like_a_terminal():
    asked = []

    def keyboard(prompt):
        asked.append(prompt)
        return "৭"

    code = "a = input('নাম? ')\nb = input('বয়স? ')\nprint(a, int(b) + 1)"
    items, result = run(code, stdin=["রুমা"], read_line=keyboard)
    assert result == {"ok": True}
    assert asked == ["বয়স? "]  # the given line answered the first question
    assert items == [{"type": "stdout", "text": "নাম? রুমা\nবয়স? ৭\nরুমা 8\n"}]


def test_input_reaches_modules_the_cell_calls_and_is_restored_afterwards():
    import builtins
    before = builtins.input
    items, result = run("import builtins\nprint(builtins.input('x? '))", stdin=["৪২"])
    assert result == {"ok": True} and items[-1]["text"].endswith("৪২\n")
    assert builtins.input is before


def test_stop_while_input_waits_ends_the_run_with_keyboard_interrupt():
    _, result = run("x = 1\nname = input('নাম? ')\nprint(name)", read_line=lambda prompt: None)
    assert result["error"] == "KeyboardInterrupt" and result["line"] == 2


def test_the_failing_line_of_the_cell_is_reported():
    _, result = run("x = 1\n\ny = [x][3]")
    assert result["line"] == 3
    # an error inside a library call points at the cell line that called it
    _, result = run("import json\nvalue = 2\njson.loads('{')")
    assert result["error"] == "JSONDecodeError" and result["line"] == 3
    # and inside the cell's own function, at the innermost line of the cell
    _, result = run("def f(v):\n    return 1 / v\n\nf(0)")
    assert result["line"] == 2


def test_syntax_and_indentation_errors_report_their_line():
    _, result = run("x = 1\nif x\n    pass")
    assert result["error"] == "SyntaxError" and result["line"] == 2
    _, result = run("x = 1\ny = 2\n  z = 3")
    assert result["error"] == "IndentationError" and result["line"] == 3


def test_an_error_in_a_function_of_an_earlier_cell_points_at_this_cells_call():
    namespace = new_namespace()
    assert run_cell("def f(v):\n    return 1 / v", namespace, lambda item: None) == {"ok": True}
    result = run_cell("x = 5\ny = 6\nz = f(0)", namespace, lambda item: None)
    assert result["error"] == "ZeroDivisionError" and result["line"] == 3


def test_an_error_outside_the_cell_code_has_no_line():
    try:
        raise ValueError("not from a cell")
    except ValueError as exc:
        assert failing_line(exc, compile("x = 1", "<cell>", "exec")) is None
    try:
        compile("x = (", "<other>", "exec")
    except SyntaxError as exc:
        assert failing_line(exc) is None


def test_input_tracebacks_show_only_the_cells_frames():
    _, result = run("name = input('নাম? ')")
    assert "execute.py" not in result["traceback"]
    assert result["traceback"].endswith('InputNotAvailable: no line for input(): give the cell its lines with stdin="..."\n')


def test_sys_exit_ends_the_run_quietly_unless_the_code_is_an_error():
    items, result = run("import sys\nprint('before')\nsys.exit()\nprint('after')")
    assert items == [{"type": "stdout", "text": "before\n"}]
    assert result == {"ok": True, "exit_code": 0}
    _, result = run("import sys\nsys.exit(3)")
    assert result["ok"] is False and result["error"] == "SystemExit" and result["exit_code"] == 3


def test_a_fresh_namespace_each_run_unless_shared():
    namespace = {"__name__": "__main__"}
    run_cell("x = 41", namespace, lambda item: None)
    items = []
    assert run_cell("print(x + 1)", namespace, items.append) == {"ok": True}
    assert items == [{"type": "stdout", "text": "42\n"}]
    _, result = run("print(x)")
    assert result["error"] == "NameError"


def test_figures_keep_their_place_between_prints():
    import matplotlib

    matplotlib.use("module://py_lessons.runtime.mpl_backend")
    items, result = run(
        "import matplotlib.pyplot as plt\nprint('before')\nplt.plot([1, 2])\nplt.title('<b>শিরোনাম</b>')\n"
        "plt.show()\nprint('after')\nplt.plot([2, 1])"  # never shown: still emitted at the end
    )
    assert result == {"ok": True}
    assert [item["type"] for item in items] == ["stdout", "figure", "stdout", "figure"]
    svg = items[1]["svg"]
    assert svg.startswith("<svg") and 'class="mpl-figure"' in svg
    assert "&lt;b&gt;শিরোনাম&lt;/b&gt;" in svg and "<b>" not in svg  # text stays text
    assert "<?xml" not in svg and "*{" not in svg  # inline-ready, no page-wide style rule


def test_explanation_keys_for_common_errors():
    from py_lessons.runtime.explain import explanation_key

    assert explanation_key("ValueError", "operands could not be broadcast together with shapes (2,) (3,)") == "explain.ValueError.shape"
    assert explanation_key("ValueError", "invalid literal for int() with base 10: 'x'") == "explain.ValueError"
    assert explanation_key("ValueError", "Maximum allowed dimension exceeded") == "explain.MemoryError"
    assert explanation_key("ValueError", "array is too big; `arr.size * arr.dtype.itemsize` is larger") == "explain.MemoryError"
    assert explanation_key("MemoryError", "Unable to allocate 2.24 GiB") == "explain.MemoryError"
    assert explanation_key("ModuleNotFoundError", "No module named 'torch'") == "explain.ModuleNotFoundError.torch"
    assert explanation_key("ModuleNotFoundError", "No module named 'requests'") == "explain.ModuleNotFoundError.network"
    assert explanation_key("ModuleNotFoundError", "No module named 'sklearn'") == "explain.ModuleNotFoundError"
    assert explanation_key("IndentationError", "expected an indented block") == "explain.SyntaxError"
    assert explanation_key("KeyboardInterrupt", "") is None


def test_modules_imported_by_reads_imports_without_running_the_code():
    from py_lessons.runtime.session import modules_imported_by

    codes = ["import numpy as np\nimport matplotlib.pyplot as plt\nraise SystemExit",
             "from numpy.linalg import norm\nfrom . import sibling\nimport numpy",
             "this is not python ("]
    assert modules_imported_by(codes) == ["numpy", "matplotlib.pyplot", "numpy.linalg"]


def test_preimport_imports_only_modules_of_the_allowed_packages():
    import json
    import sys

    from py_lessons.runtime.session import preimport

    for name in ("colorsys", "wave"):
        sys.modules.pop(name, None)
    code = "import colorsys\nimport wave\nimport colorsys.no_such_module\n"
    done = preimport(json.dumps([code]), json.dumps(["colorsys"]))
    assert done == ["colorsys"]
    assert "colorsys" in sys.modules and "wave" not in sys.modules


def test_content_imports_names_the_packages_a_course_module_imports_inside_its_functions(tmp_path, monkeypatch):
    """A cell that imports the course's own module (py_lessons_content.course) must get NumPy
    loaded although the cell never names it: the module's file is read (not imported) for it."""
    import json
    import sys

    from py_lessons.runtime.session import content_imports

    package = tmp_path / "py_lessons_content"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "course.py").write_text(
        "import math\nfrom py_lessons.runtime import numbers\n\ndef data():\n    import numpy as np\n"
        "    from matplotlib import pyplot\n    import numpy.linalg\n    return np.zeros(1)\n", encoding="utf-8")
    (package / "other.py").write_text("def f():\n    import scipy\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n.split(".")[0] == "py_lessons_content"]:
        monkeypatch.delitem(sys.modules, name)
    cell = "from py_lessons_content.course import data\nprint(data())"
    assert content_imports(json.dumps([cell])).splitlines() == ["import numpy", "import matplotlib", "import numpy.linalg"]
    assert content_imports(json.dumps(["from py_lessons_content import course"])).splitlines()[0] == "import numpy"
    assert content_imports(json.dumps(["import numpy\nprint(1)"])) == ""        # no course module named
    assert content_imports(json.dumps(["import py_lessons_content.missing"])) == ""  # unknown: the cell reports it
    assert "py_lessons_content.course" not in sys.modules                        # read, not imported
