"""Which pages are the course's lessons and what the home page's cards say about each, worked out
from the Markdown at build (py_lessons/plugin/page/lessons.py, render/components/progress.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from py_lessons.plugin.base.errors import LessonError
from py_lessons.plugin.page import lessons
from py_lessons.plugin.render.components.progress import render_progress
from py_lessons.runtime.catalogue import t

STAMP = "```complete\n```\n"


def lessons_of(pages):
    return lessons.lessons_of(pages, lessons_folder="lessons/", question_kinds=("mcq", "ordering"))


def lesson_page(title="পাঠ", cells=(), quizzes="", front="", prose="") -> str:
    fences = "".join(f'```pycell id="{cid}"\n{code}\n```\n\n' for cid, code in cells)
    return f"{front}# {title}\n\n{prose}\n\n{fences}{quizzes}{STAMP}"


def test_lessons_are_stamped_pages_of_the_lessons_folder_in_navigation_order():
    pages = [
        ("index.md", "", "# শুরু\n\n```progress\n```\n"),
        ("lessons/zeta/index.md", "lessons/zeta/", lesson_page("শেষ বর্ণ")),
        ("guide/index.md", "guide/", lesson_page("নির্দেশিকা")),                # stamped, but not a lesson
        ("lessons/draft/index.md", "lessons/draft/", "# খসড়া\n\nএখনো স্ট্যাম্প নেই।\n"),
        ("lessons/alpha/index.md", "lessons/alpha/", lesson_page("প্রথম বর্ণ").replace(STAMP, "```complete\nid: a1\n```\n")),
    ]
    lessons = lessons_of(pages)
    assert [(lesson.id, lesson.url, lesson.title) for lesson in lessons] == [
        ("lessons-zeta", "lessons/zeta/", "শেষ বর্ণ"), ("a1", "lessons/alpha/", "প্রথম বর্ণ")]


def test_a_lesson_is_its_folder_its_pages_are_parts_in_navigation_order():
    pages = [
        ("lessons/deep/index.md", "lessons/deep/", '---\nsummary: "গভীর"\npart: "মাপা"\n---\n\n'
         + lesson_page("গভীর network: মাপা আর সারানো", [("d-one", "print(1)")]).replace(STAMP, "")),
        ("lessons/other/index.md", "lessons/other/", lesson_page("অন্য")),
        ("lessons/deep/fix.md", "lessons/deep/fix/", lesson_page("সারানোর পথ", [("d-two", "import numpy")],
                                                                 "```mcq\nid: d-q\nquestion: কত\n```\n\n")),
    ]
    deep, other = lessons_of(pages)
    assert (deep.id, deep.url, deep.title, deep.summary) == ("lessons-deep", "lessons/deep/", "গভীর network: মাপা আর সারানো", "গভীর")
    assert [(part.url, part.title) for part in deep.parts] == [("lessons/deep/", "মাপা"), ("lessons/deep/fix/", "সারানোর পথ")]
    assert deep.cells == ("d-one", "d-two") and deep.questions == ("mcq:d-q",)   # the lesson's, in order
    assert deep.parts[1].cells == ("d-two",) and deep.needs == "numpy"
    assert deep.words == sum(part.words for part in deep.parts)
    assert lessons.lesson_of([deep, other], "lessons/deep/fix/") == (deep, 1)
    assert lessons.lesson_of([deep, other], "guide/") is None
    assert len(other.parts) == 1


def test_an_id_in_two_parts_of_a_lesson_stops_the_build_naming_both_places():
    """The parts share the lesson's storage: one id in two of them would mix the reader's work."""
    first = lesson_page("প্রথম", [("same", "print(1)")]).replace(STAMP, "")
    second = lesson_page("দ্বিতীয়", [("other", "print(2)"), ("same", "print(3)")])
    with pytest.raises(LessonError) as raised:
        lessons_of([("lessons/x/index.md", "lessons/x/", first), ("lessons/x/two.md", "lessons/x/two/", second)])
    message = str(raised.value)
    assert message.startswith("lessons/x/two.md:9: cell id 'same'") and "lessons/x/index.md:5" in message
    # a block's id may repeat a cell's (their keys differ by kind), and another lesson's ids are its own
    quiz = "```mcq\nid: same\nquestion: কত\n```\n\n"
    lessons_of([("lessons/x/index.md", "lessons/x/", first), ("lessons/x/two.md", "lessons/x/two/", lesson_page("দ্বিতীয়", (), quiz)),
                ("lessons/y/index.md", "lessons/y/", lesson_page("অন্য", [("same", "print(4)")]))])


def test_reading_time_counts_the_words_after_the_front_matter_at_150_a_minute():
    front = "---\nsummary: \"" + " ".join(["সারাংশ"] * 200) + "\"\n---\n\n"   # not read in the lesson
    prose = " ".join(["শব্দ"] * 300) + " | - $ ---"                               # Markdown marks are not words
    (lesson,) = lessons_of([("lessons/r/index.md", "lessons/r/", f"{front}# শিরোনাম\n\n{prose}\n\n{STAMP}")])
    assert lesson.words == 1 + 300 + 1        # the title, the prose, "```complete"
    assert lesson.minutes == 3                # 302 / 150, a started minute counts


def test_summary_needs_cells_and_questions():
    front = '---\nsummary: "একটি ছোট পাঠ: NumPy দিয়ে গড়।"\ncell_session: s\n---\n\n'
    quizzes = ("```mcq\nid: q-one\nquestion: কত\nchoices: [{text: a, correct: true}, {text: b}]\n```\n\n"
               "````markdown\n```mcq\nid: only-an-example\n```\n````\n\n"          # an example, not a question
               "```ordering\nid: q-two\nquestion: কত\nitems: [a, b]\n```\n\n")
    cells = [("c-plot", "import numpy as np\nfrom matplotlib import pyplot as plt"), ("", "print(1)")]
    markdown = lesson_page("গড়", cells, quizzes, front).replace('```pycell id=""', "```pycell")
    (lesson,) = lessons_of([("lessons/mean/index.md", "lessons/mean/", markdown)])
    assert lesson.summary == "একটি ছোট পাঠ: NumPy দিয়ে গড়।"
    assert lesson.needs == "plots"
    assert lesson.cells == ("c-plot", "lessons-mean-2")          # the default id of the second cell
    assert lesson.questions == ("mcq:q-one", "ordering:q-two")


def test_needs_come_from_the_cells_imports_only():
    numpy_only = lesson_page(cells=[("a", "import numpy as np")]) + "```python\nimport matplotlib\n```\n"
    plain = lesson_page(cells=[("a", "print('কোনো import নেই')")])
    lessons = lessons_of([("lessons/n/index.md", "lessons/n/", numpy_only), ("lessons/p/index.md", "lessons/p/", plain)])
    assert [lesson.needs for lesson in lessons] == ["numpy", "python"]
    assert lessons[1].minutes == 1 and lessons[1].summary == ""


def test_the_cards_in_bangla_with_relative_links_and_zero_progress():
    pages = [(f"lessons/l{i}/index.md", f"lessons/l{i}/", lesson_page(f"পাঠ {i}", [("x", "import numpy")]))
             for i in range(1, 13)]
    html = render_progress(lessons_of(pages), "")
    cards = re.findall(r'<li class="pz-lesson" data-lesson="([^"]+)" data-state="incomplete" data-progress="0"', html)
    assert cards == [f"lessons-l{i}" for i in range(1, 13)]
    assert 'data-total="12"' in html
    assert '<a href="lessons/l1/" data-lesson-link>' in html
    assert f'<span class="pz-lesson-number">{t("progress.lesson.number", n="১২")}</span>' in html
    assert unescape(t("progress.needs.numpy")) in unescape(html)
    assert t("progress.note", wpm="১৫০") in unescape(html)
    from_a_lesson = render_progress(lessons_of(pages[:1]), "lessons/l2/")
    assert '<a href="../l1/" data-lesson-link>' in from_a_lesson
