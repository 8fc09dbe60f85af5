"""Prose that quotes cells ({{ cell:… }}), claims about cells (cell-claim) and the prose checks,
in real builds: the values come from the build's Pyodide, and every failure names page and line."""

from __future__ import annotations

import html
import re
import textwrap

import pytest

from support.site import ROOT, build_site, lesson_site

PAGE = textwrap.dedent('''\
    # পরীক্ষা

    ```pycell id="sweep"
    for lr in (0.1, 0.5):
        print(f"lr = {lr}: loss = {lr * lr:.4f}")
    ```

    শেষ loss {{ cell:sweep:number[-1] | .2f | bn }}, প্রথম লাইন «{{ cell:sweep:line[0] }}», আর w-এর দ্বিগুণ
    {{ cell:calc:value(w * 2) | .1f }}; মোট {{ cell:s1:value(total + 1) }}। কোডে `{{ cell:sweep:line[0] }}` যেমন লেখা তেমন।

    ```pycell id="calc"
    w = 1.25
    ```

    ```pycell id="s1" session="s"
    total = 10
    ```

    ```pycell id="s2" session="s"
    print(sorted(name for name in globals() if not name.startswith("_")))
    ```

    ```cell-claim
    cell: sweep
    select: number[-1]
    approx: 0.25
    tol: 0.001
    show: true
    format: .3f
    bangla_digits: true
    ```

    ```cell-claim
    cell: s2
    select: line[0]
    equals: "['total']"
    ```

    ```reveal
    id: r
    question: "দ্বিতীয় সংখ্যাটি কত?"
    answer: "{{ cell:sweep:number[1] }}"
    ```
    ''')


def strict_site(tmp_path, page: str, glossary_text: str = "", mode: str = "error"):
    """A lesson site with the prose checks in ``mode`` and a cell cache of its own, so that its
    cells (and the values the prose asks of them) really run in this build."""
    config = lesson_site(tmp_path, page, glossary_text)
    text = config.read_text(encoding="utf-8").replace(str(ROOT / ".cache" / "py_lessons"), str(tmp_path / "cache"))
    config.write_text(text + f"      packages: [numpy]\n      term_check: {mode}\n", encoding="utf-8")
    return config


def line_of(page: str, text: str) -> int:
    return page[:page.index(text)].count("\n") + 1


def test_prose_quotes_cells_and_claims_hold(tmp_path):
    done = build_site(tmp_path / "out", strict_site(tmp_path, PAGE))
    assert done.returncode == 0, done.stderr[-3000:]
    built = html.unescape((tmp_path / "out" / "lesson" / "index.html").read_text(encoding="utf-8"))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", built))
    # by hand: the loop prints 0.1, 0.01 (0.1²) and 0.5, 0.25 (0.5²); w = 1.25; total = 10
    assert "শেষ loss ০.২৫, প্রথম লাইন «lr = 0.1: loss = 0.0100», আর w-এর দ্বিগুণ 2.5; মোট 11।" in text
    assert "<code>{{ cell:sweep:line[0] }}</code>" in built  # a macro in code is shown as written
    assert re.search(r'data-component="cell-claim" data-cell="sweep" data-select="number\[-1\]">০.২৫০</span>', built)
    assert "<!-- cell-claim s2: line[0] -->" in built  # a hidden claim is no element
    answer = re.search(r'class="pz-answer-body">(.*?)</div>', built, re.S).group(1)
    assert "0.01" in answer and "{{" not in answer


def test_a_value_asked_of_a_cached_cell_runs_it_again(tmp_path):
    cell = f'```pycell id="fresh"\nlabel = "{tmp_path.name}"\nprint(len(label))\n```\n'
    config = strict_site(tmp_path, "# ক\n\n" + cell)
    assert build_site(tmp_path / "first", config).returncode == 0
    page = config.parent / "docs" / "lesson" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nনাম {{ cell:fresh:value(label) }}।\n", encoding="utf-8")
    done = build_site(tmp_path / "second", config)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"নাম {tmp_path.name}।" in (tmp_path / "second" / "lesson" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("broken, message", [
    ("```cell-claim\ncell: sweep\nselect: number[-1]\nlt: 0.2\n```", "cell-claim: claim failed: cell 'sweep' "
                                                                       "number[-1] < 0.2; actual value: 0.25"),
    ("মান {{ cell:sweep:number[9] }}।", "{{ cell:sweep:number[9] }}: cell 'sweep' printed 4 number(s), so number[9] "
                                        "is out of range; it printed:\nlr = 0.1: loss = 0.0100"),
    ("মান {{ cell:calc:value(v * 2) }}।", "NameError: name 'v' is not defined"),
    ("```cell-claim\ncell: nothing\nselect: line[0]\ncontains: x\n```", "no pycell with id 'nothing'"),
])
def test_a_broken_quote_or_claim_fails_with_page_and_line(tmp_path, broken, message):
    page = PAGE + "\n" + broken + "\n"
    done = build_site(tmp_path / "out", strict_site(tmp_path, page))
    assert done.returncode != 0
    assert f"lesson/index.md:{line_of(page, broken)}: " in done.stderr and message in done.stderr, done.stderr[-3000:]


@pytest.mark.parametrize("broken", [
    "মান {{ cell:sweep:number[9] }}।",
    "মান {{ step:no_such_stepper:x }}।",
    "```mcq\nid: q\nquestion: \"ক?\"\n```",
    '```pycell id="Bad Id"\nx = 1\n```',
])
def test_a_pages_front_matter_counts_in_the_line_an_error_names(tmp_path, broken):
    """MkDocs hands a page over without its front matter; the line named is still the file's."""
    page = "---\ntitle: পাঠ\nsummary: ক\n---\n" + PAGE + "\n" + broken + "\n"
    done = build_site(tmp_path / "out", strict_site(tmp_path, page))
    assert done.returncode != 0
    assert f"lesson/index.md:{line_of(page, broken)}: " in done.stderr, done.stderr[-3000:]


GLOSSARY = "weight:\n  term: weight\n  definition: model-এর সংখ্যা।\n  avoid: [ওজন]\n"
WORDY = ("---\ntitle: পাঠ\n---\n# পাঠ\n\nবদলানো মান।\n\n```python\nওজন = 1\n```\n\n"
         "প্রতিটি ওজনের মান, আর 1e-8 ছোট; পর্ব ১৭ দেখুন।\n")


def test_the_prose_check_fails_the_build_with_page_and_line(tmp_path):
    done = build_site(tmp_path / "out", strict_site(tmp_path, WORDY, GLOSSARY))
    assert done.returncode != 0
    found = re.findall(r"^lesson/index\.md:(\d+): '([^']+)'", done.stderr, re.M)
    line = str(line_of(WORDY, "প্রতিটি"))  # the file's line: its front matter counts
    assert found == [(line, "ওজনের"), (line, "1e-8"), (line, "পর্ব ১৭")], done.stderr[-3000:]


def test_the_prose_check_only_logs_in_warn_mode(tmp_path):
    done = build_site(tmp_path / "out", strict_site(tmp_path, WORDY, GLOSSARY, mode="warn"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "lesson/index.md: 3 prose finding(s)" in done.stderr


def test_what_a_cell_prints_is_checked_too_and_named_by_the_cells_line(tmp_path):
    page = "# পাঠ\n\nপ্রথমে পড়ুন।\n\n```pycell id=\"mixed\"\nprint(\"ধাপ ২-এ loss\", 0.25)\nprint(\"lr\", 0.5)\n```\n"
    done = build_site(tmp_path / "out", strict_site(tmp_path, page, GLOSSARY))
    assert done.returncode != 0
    line = line_of(page, "```pycell")  # the line that asked for the output: the cell's fence
    found = re.findall(r"^lesson/index\.md:(\d+): (.+?): in the output of cell 'mixed'", done.stderr, re.M)
    assert found == [(str(line), "\"0.25 in 'ধাপ ২-এ loss 0.25'\"")], done.stderr[-3000:]


def test_a_glossary_definition_with_an_avoided_word_fails_the_build(tmp_path):
    glossary_text = GLOSSARY + "bias:\n  term: bias\n  definition: ওজনের সঙ্গে যোগ হয়।\n"
    done = build_site(tmp_path / "out", strict_site(tmp_path, "# পাঠ\n", glossary_text))
    assert done.returncode != 0 and "glossary.yml:7: 'ওজনের'" in done.stderr, done.stderr[-3000:]


def test_a_link_to_a_lesson_that_does_not_exist_fails_the_build(tmp_path):
    page = "# পাঠ\n\nআগের [পাঠটি](../old-lesson/) দেখুন।\n"
    done = build_site(tmp_path / "out", strict_site(tmp_path, page))
    assert done.returncode != 0 and "lesson/index.md:3: '../old-lesson/'" in done.stderr, done.stderr[-3000:]
