"""predict and exercise blocks, build side: parsing, rendering, and builds that must fail."""

from __future__ import annotations

import re
from html import unescape

import pytest

from support.site import build_site, lesson_site
from py_lessons.plugin.render.components import exercise, predict
from py_lessons.plugin.base.errors import BlockError as ComponentError

EXERCISE = """\
id: ex1
prompt: "Set `lr`."
starter: |
  lr = ___
checks: |
  assert abs(lr - 0.1) < 1e-9, "শেখার হার ঠিক হয়নি"
solution: |
  lr = 0.1
hints: ["first *hint*", "second hint"]
attempts: 2
"""


def _rendered(body: str, outputs: dict, codes: dict | None = None, **options) -> str:
    parsed = predict.parse(body)
    parsed["shown"] = predict.shown(parsed, outputs, codes or {})
    return predict.render(parsed, **options)


def test_predict_shows_the_cells_output_not_typed_text():
    outputs = {"c1": {"items": [{"type": "stdout", "text": "1 -2.0\n<b>\n"},
                                {"type": "figure", "svg": '<svg><g id="a1"/><use href="#a1"/></svg>'}],
                      "result": {"ok": True}}}
    html = _rendered("id: p1\ncell: c1\nquestion: What prints?\n", outputs)
    assert 'data-component="predict"' in html and 'data-id="p1"' in html and 'data-state="closed"' in html
    assert '<summary data-action="solution">' in html and "<details" in html
    assert "1 -2.0\n&lt;b&gt;" in html  # the printed text, escaped
    # the figure copy gets its own ids, so the page does not repeat the cell's
    assert 'id="p1-a1"' in html and 'href="#p1-a1"' in html and 'id="a1"' not in html
    with pytest.raises(ComponentError, match="no pycell with id 'c2'"):
        _rendered("id: p2\ncell: c2\nquestion: q\n", outputs)


def test_predict_asks_the_readers_verdict_and_its_revision_covers_code_and_output():
    outputs = {"c": {"items": [{"type": "stdout", "text": "3\n"}], "result": {"ok": True}}}
    body = "id: p\ncell: c\nquestion: q\n"
    html = _rendered(body, outputs, {"c": "print(1 + 2)"})
    assert re.findall(r'data-grade="(\w+)"', html) == ["right", "wrong"]
    assert "pz-predict-code" not in html  # the lesson shows the cell itself
    review_card = _rendered(body, outputs, {"c": "print(1 + 2)"}, with_code=True)
    assert '<pre class="pz-predict-code"><code>print(1 + 2)</code></pre>' in review_card
    revision = re.compile(r'data-revision="([0-9a-f]+)"')
    same = revision.search(html)[1]
    assert revision.search(review_card)[1] == same
    assert revision.search(_rendered(body, outputs, {"c": "print(2 + 1)"}))[1] != same
    changed = {"c": {"items": [{"type": "stdout", "text": "4\n"}], "result": {"ok": True}}}
    assert revision.search(_rendered(body, changed, {"c": "print(1 + 2)"}))[1] != same


def test_predict_of_a_silent_cell_says_so():
    html = _rendered("id: p\ncell: c\nquestion: q\n", {"c": {"items": [], "result": {"ok": True}}})
    assert "pz-predict-empty" in html


@pytest.mark.parametrize("body, message", [
    ("id: p\nquestion: q", "needs cell"),
    ("id: p\ncell: Bad Id\nquestion: q", "cell must be the id"),
    ("id: p\ncell: c\nquestion: q\nanswer: 3", "unknown keys"),
])
def test_predict_errors(body, message):
    with pytest.raises(ComponentError, match=message):
        predict.parse(body)


def test_exercise_renders_an_exercise_editor_hints_and_solution():
    parsed = exercise.parse(EXERCISE)
    assert parsed["attempts"] == 2 and parsed["starter"] == "lr = ___"
    html = exercise.render(parsed)
    root = re.search(r'<div class="pz-quiz pz-exercise"[^>]*>', html)[0]
    assert 'data-component="exercise"' in root and 'data-id="ex1"' in root and 'data-state="idle"' in root
    assert 'data-max-attempts="2"' in root
    assert unescape(re.search(r'data-checks="([^"]*)"', root)[1]) == parsed["checks"]
    editor = re.search(r'<div class="pycell"[^>]*>', html)[0]
    assert 'data-cell-id="ex1-code"' in editor and 'data-cell-kind="exercise"' in editor
    assert "lr = ___" in html
    assert re.search(r'<div class="pycell-output" data-output data-search-exclude></div>', html)  # no build output of its own
    assert html.count('data-action="hint"') == 2 and "first <em>hint</em>" in html
    assert 'data-action="check"' in html and 'data-action="solution"' in html
    assert "lr = 0.1</pre>" in html


@pytest.mark.parametrize("change, message", [
    (("attempts: 2", "attempts: 0"), "attempts must be"),
    (("attempts: 2", "attempts: many"), "attempts must be"),
    (("hints: [\"first *hint*\", \"second hint\"]", "hints: first"), "hints must be a list"),
    (("solution: |\n  lr = 0.1\n", ""), "needs solution"),
    (("id: ex1", "id: ex1\ncolour: red"), "unknown keys"),
])
def test_exercise_errors(change, message):
    with pytest.raises(ComponentError, match=message):
        exercise.parse(EXERCISE.replace(*change))


def _fake_runner(table):
    """run_checks for verify(): (code, checks) -> stage/result, as the plugin's runner answers."""
    def run(code, checks):
        return table[code]
    return run


def test_verify_needs_a_passing_solution_and_a_failing_starter():
    parsed = exercise.parse(EXERCISE)
    passed = {"stage": "checks", "result": {"ok": True}}
    failed = {"stage": "checks", "result": {"ok": False, "error": "AssertionError", "message": "শেখার হার ঠিক হয়নি"}}
    broken = {"stage": "code", "result": {"ok": False, "error": "NameError", "message": "name '___' is not defined"}}
    exercise.verify(parsed, _fake_runner({"lr = 0.1": passed, "lr = ___": broken}))
    with pytest.raises(ComponentError, match="AssertionError: শেখার হার ঠিক হয়নি"):
        exercise.verify(parsed, _fake_runner({"lr = 0.1": failed, "lr = ___": broken}))
    with pytest.raises(ComponentError, match="already passes"):
        exercise.verify(parsed, _fake_runner({"lr = 0.1": passed, "lr = ___": passed}))


# -- whole builds: the checks really run in the build's Pyodide ------------------------------

def _exercise_page(solution="lr = 0.1", starter="lr = ___"):
    return (f"# L\n\ntext\n\n```exercise\nid: ex\nprompt: p\nstarter: |\n  {starter}\n"
            f"checks: |\n  assert abs(lr - 0.1) < 1e-9, \"lr is off\"\nsolution: |\n  {solution}\n```\n")


@pytest.mark.parametrize("page, message", [
    (_exercise_page(solution="lr = 0.2"), r"lesson/index.md:5: exercise 'ex': .*AssertionError: lr is off"),
    (_exercise_page(solution="lr = 1 / 0"), r"lesson/index.md:5: exercise 'ex': the solution itself raised ZeroDivisionError"),
    (_exercise_page(starter="lr = 0.1"), r"lesson/index.md:5: exercise 'ex': the starter code already passes"),
    ("# L\n\n```predict\nid: p\ncell: nowhere\nquestion: q\n```\n\n```pycell id=\"here\"\nprint(1)\n```\n",
     r"lesson/index.md:3: predict 'p': there is no pycell with id 'nowhere' .*here"),
])
def test_build_fails_naming_page_and_line(tmp_path, page, message):
    done = build_site(tmp_path / "out", lesson_site(tmp_path, page))
    assert done.returncode != 0
    assert re.search(message, done.stderr), done.stderr[-2000:]


def test_build_with_predict_and_exercise(tmp_path):
    page = ("# L\n\n```predict\nid: p\ncell: loop\nquestion: q\n```\n\n"
            "```pycell id=\"loop\"\nfor i in range(3):\n    print(i * i)\n```\n\n" + _exercise_page().split("\n", 2)[2])
    done = build_site(tmp_path / "out", lesson_site(tmp_path, page))
    assert done.returncode == 0, done.stderr[-2000:]
    html = (tmp_path / "out" / "lesson" / "index.html").read_text(encoding="utf-8")
    answer = re.search(r'data-predict-output>(.*?)</div>', html, re.S)[1]
    assert re.search(r'data-stream="stdout"[^>]*>0\n1\n4\n</pre>', answer)  # what Python printed at build time
    assert 'data-cell-kind="exercise"' in html
