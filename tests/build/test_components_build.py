"""Lesson components, build side: parsing, validation and rendering, and build failures that
name the offending file."""

from __future__ import annotations

import math
import re

import pytest

from support.site import ROOT, build_site, lesson_site
from py_lessons.plugin.render import glossary
from py_lessons.plugin.render.components import quiz, reveal, stepper
from py_lessons.plugin.base.errors import BlockError as ComponentError
from py_lessons.plugin.render.components.base import stable_permutation
from py_lessons.plugin.page.fences import of_kinds, read_fences
from py_lessons.plugin.page.model import page_slug
from py_lessons.runtime import steppers


def test_stepper_rows_come_from_the_function_with_author_inputs():
    parsed = stepper.parse("id: s1\nfunction: norm_clip\ninputs: {grad: [6, 8], max_norm: 5}\n")
    html = stepper.render(parsed)
    # ‖(6, 8)‖ = 10 by hand; clipping to 5 halves every entry: 0.5 × [6, 8] = [3, 4]
    results = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r'pz-step-result"><code>(.*?)</code>', html)]
    assert results[1] == "10"
    assert results[3] == "[3, 4]"
    assert len(re.findall(r'data-row="', html)) == len(steppers.run_stepper("norm_clip", grad=[6, 8], max_norm=5)["steps"])
    assert 'data-component="stepper"' in html and 'data-id="s1"' in html
    assert "data-editable" not in html


def test_affine_quant_matches_hand_values():
    # range −0.5..2.05 in uint8: s = 2.55/255 = 0.01, z = round(0.5/0.01) = 50, 1.234 → 123+50 = 173 → 1.23
    result = steppers.run_stepper("affine_quant", x_min=-0.5, x_max=2.05, x=1.234, bits=8)
    values = result["values"]
    assert math.isclose(values["scale"], 0.01, rel_tol=1e-9)
    assert values["zero_point"] == 50
    assert values["q"] == 173
    assert math.isclose(values["x_hat"], 1.23, rel_tol=1e-9)


def test_editable_stepper_has_labelled_inputs_with_initial_values():
    html = stepper.render(stepper.parse("id: s2\nfunction: norm_clip\neditable: true\ninputs: {grad: [1, 2]}"))
    for spec in steppers.describe("norm_clip"):
        assert f'name="{spec["name"]}"' in html
        assert f'for="s2-in-{spec["name"]}"' in html
    assert 'value="1, 2"' in html
    assert 'data-action="recompute"' in html


@pytest.mark.parametrize("body, message", [
    ("id: s\nfunction: no_such_thing", "no stepper named .no_such_thing."),
    ("id: s\nfunction: norm_clip\ninputs: {max_norm: -3}", "stepper .norm_clip. rejects these inputs; what a reader would read:\n    "),
    ("id: s\nfunction: norm_clip\ninputs: {threshold: 3}", "stepper .norm_clip. has no input .threshold."),
    ("function: norm_clip", "needs id"),
    ("id: s\nfunction: norm_clip\ncolour: red", "unknown keys"),
])
def test_stepper_errors(body, message):
    with pytest.raises(ComponentError, match=message):
        stepper.parse(body)


ASKING = "id: s\nfunction: norm_clip\ninputs: {grad: [6, 8], max_norm: 5}\nask: {row: 2, value: norm}\n"


def test_a_stepper_asks_for_a_rows_result_one_row_before_it():
    parsed = stepper.parse(ASKING)
    assert parsed["ask"] == {"row": 2, "value": 10.0, "shown": "10", "title": "মোট norm"}  # ‖(6, 8)‖ = 10 by hand
    html = stepper.render(parsed)
    ask = re.search(r'<div class="pz-stepper-ask" data-ask data-ask-row="2" data-ask-value="10.0" data-ask-shown="10" hidden>', html)
    assert ask and 'data-action="ask-check"' in html and 'data-revision="' in html
    # the review card starts at the row before the question, with no inputs to recompute
    card = stepper.render(stepper.parse(ASKING + "editable: true\n"), reviewing=True)
    assert "data-reviewing" in card and 'data-action="recompute"' not in card
    assert re.findall(r'<tr class="pz-step" data-row="(\d)">', card) == ["1"]  # row 2 waits inert
    # a stepper without a question carries no revision (it never enters review)
    assert "data-revision" not in stepper.render(stepper.parse("id: s\nfunction: norm_clip\n"))


def test_a_stepper_questions_revision_follows_its_rows():
    other = stepper.parse(ASKING.replace("[6, 8]", "[8, 6]"))  # the same norm, other rows
    revision = re.compile(r'data-revision="([0-9a-f]+)"')
    assert revision.search(stepper.render(other))[1] != revision.search(stepper.render(stepper.parse(ASKING)))[1]


@pytest.mark.parametrize("ask, message", [
    ("{row: 1, value: norm}", "row must be a row from 2 to"),
    ("{row: 99, value: norm}", "row must be a row from 2 to"),
    ("{row: 2, value: nrm}", "names no number of this stepper's values"),
    ('{row: 2, value: "clipped[9]"}', "names no number"),
    ("{row: 3, value: norm}", "row 3 shows"),  # the norm is row 2's, not the coefficient's
    ("{row: 2}", "ask must be"),
])
def test_a_stepper_question_about_the_wrong_number_fails_the_build(ask, message):
    with pytest.raises(ComponentError, match=message):
        stepper.parse(ASKING.replace("{row: 2, value: norm}", ask))


MCQ = """
id: q1
question: Which?
choices:
  - text: right
    correct: true
  - text: wrong one
    explain: because
"""


def test_mcq_renders_choices_answer_and_wrong_explanations():
    html = quiz.render_mcq(quiz.parse_mcq(MCQ))
    assert html.count('type="radio"') == 2
    assert 'data-answer="0"' in html
    assert re.search(r'data-explain-for="1" hidden><p>because</p>', html)
    assert 'data-action="check"' in html and 'data-action="retry"' in html


@pytest.mark.parametrize("body, message", [
    (MCQ.replace("    correct: true\n", "    explain: x\n"), "exactly one choice"),
    (MCQ.replace("  - text: wrong one\n    explain: because\n", "  - text: also right\n    correct: true\n"), "exactly one choice"),
    (MCQ.replace("    explain: because\n", ""), "needs an explain"),
    ("id: q\nquestion: x\nchoices: [a]", "at least two"),
    ("id: q\nquestion: [unclosed", "not valid YAML"),
])
def test_mcq_errors(body, message):
    with pytest.raises(ComponentError, match=message):
        quiz.parse_mcq(body)


def test_ordering_is_shuffled_but_keeps_correct_indices():
    parsed = quiz.parse_ordering("id: o1\nquestion: Order\nitems: [a, b, c, d]\nexplain: why")
    html = quiz.render_ordering(parsed)
    shown = [int(i) for i in re.findall(r'data-item="(\d)"', html)]
    assert sorted(shown) == [0, 1, 2, 3]
    assert shown != [0, 1, 2, 3]
    texts = re.findall(r'pz-order-text">([^<]*)<', html)
    assert texts == [parsed["items"][i] for i in shown]
    assert html.count('data-action="up"') == 4 and html.count('data-action="down"') == 4


def test_ordering_rejects_duplicates():
    with pytest.raises(ComponentError, match="same text"):
        quiz.parse_ordering("id: o\nquestion: q\nitems: [a, a]")


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_stable_permutation_is_a_permutation_never_identity(n):
    for key in ("a", "b", "guide-order", "x-1"):
        order = stable_permutation(key, n)
        assert sorted(order) == list(range(n)) and order != list(range(n))
        assert order == stable_permutation(key, n)


def test_reveal_uses_details_with_hints():
    html = reveal.render(reveal.parse("id: r\nkind: thinking\nquestion: q\nhints: [h1, h2]\nanswer: a"))
    assert html.count('data-action="hint"') == 2
    assert '<details class="pz-answer" data-answer><summary data-action="solution">' in html
    with pytest.raises(ComponentError, match="kind"):
        reveal.parse("id: r\nkind: poem\nquestion: q\nanswer: a")


def test_fence_blocks_skip_examples_inside_other_fences():
    source = "````markdown\n```mcq\nid: x\n```\n````\n\n```mcq\nid: real\n```\n"
    found = of_kinds(read_fences(source), {"mcq"})
    assert [(fence.name, fence.line, fence.body) for fence in found] == [("mcq", 7, "id: real")]


TERMS = {"grad": {"term": "Gradient", "definition": "slope"}}


def test_glossary_marks_terms_outside_code_only():
    html = "<p>see [[grad]] and [[grad|ঢাল]]</p><pre><code>[[grad]]</code></pre><code>[[nothing]]</code>"
    out, used = glossary.mark_terms(html, TERMS, "../glossary/", "p")
    assert used == ["grad"]
    assert out.count('data-component="glossary-term"') == 2
    assert ">ঢাল</a>" in out and ">Gradient</a>" in out
    assert "<pre><code>[[grad]]</code></pre>" in out and "<code>[[nothing]]</code>" in out


def test_glossary_undefined_term_is_an_error():
    with pytest.raises(ComponentError, match="missing"):
        glossary.mark_terms("<p>[[missing]]</p>", TERMS, "g/", "p")


def test_site_glossary_file_is_valid():
    terms = glossary.load(ROOT / "site" / "glossary.yml")
    assert terms and all(entry["definition"] for entry in terms.values())


def test_page_slug_matches_cells():
    assert page_slug("index.md") == "index"
    assert page_slug("guide/index.md") == "guide"
    assert page_slug("lessons/Optim.md") == "lessons-optim"


# -- whole builds that must fail, naming the file ------------------------------------------

@pytest.mark.parametrize("page, message", [
    ("# L\n\n```mcq\nid: q\nquestion: x\nchoices:\n  - text: a\n    explain: nope\n  - text: b\n    explain: nope\n```\n",
     r"lesson/index.md:3: .*exactly one choice"),
    ("# L\n\ntext\n\n```stepper\nid: s\nfunction: not_a_stepper\n```\n", r"lesson/index.md:5: stepper .s.: no stepper named .not_a_stepper."),
    ("# L\n\nA [[undefined-term]] here.\n", r"lesson/index.md: .*undefined-term"),
])
def test_build_fails_naming_the_file(tmp_path, page, message):
    done = build_site(tmp_path / "out", lesson_site(tmp_path, page, "known:\n  term: K\n  definition: d\n"))
    assert done.returncode != 0
    assert re.search(message, done.stderr), done.stderr[-2000:]


def test_small_site_with_components_builds(tmp_path):
    page = "# L\n\n[[known]]\n\n```reveal\nid: r\nquestion: q\nanswer: a\n```\n\n```complete\n```\n"
    done = build_site(tmp_path / "out", lesson_site(tmp_path, page, "known:\n  term: K\n  definition: d\n"))
    assert done.returncode == 0, done.stderr[-2000:]
    html = (tmp_path / "out" / "lesson" / "index.html").read_text(encoding="utf-8")
    assert 'data-component="reveal"' in html and 'data-component="complete" data-id="lesson"' in html
    assert 'data-component="glossary-list"' in html
