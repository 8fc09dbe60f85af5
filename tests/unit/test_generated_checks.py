"""The prose checks on texts code wrote (py_lessons.plugin.page.generated_checks): labels of
runs, steppers, explorables and figures, and a cell's printed lines."""

from __future__ import annotations

from py_lessons.plugin.page.generated_checks import check_generated
from py_lessons.plugin.page.prose_checks import ProseChecker

TERMS = {"factor": {"term": "গুণনীয়ক (factor)", "definition": "d", "avoid": ["গুণক"]},
         "layer": {"term": "স্তর (layer)", "definition": "d", "avoid": ["layer"]}}
SOURCE = "# পাতা\n\n```stepper\nid: memory\n```\n\n```python {#cell-a}\nprint(1)\n```\n{{ run-table:explode }}\n"


def found(html: str) -> list[tuple[int, str]]:
    return [(f.line, f.found) for f in check_generated(ProseChecker(TERMS, set()), html, SOURCE, "l/index.md")]


def stepper(body: str) -> str:
    return f'<div data-component="stepper" data-id="memory"><table><tr><td>{body}</td></tr></table></div>'


def cell(printed: str, code: str = "print(1)") -> str:
    return (f'<div class="pycell" data-cell-id="cell-a"><pre><code>{code}</code></pre>'
            f'<div class="pycell-output"><pre class="pycell-stream pycell-stdout">{printed}</pre></div></div>')


def test_a_label_with_bangla_words_writes_bangla_digits_and_names_keep_theirs():
    assert found(stepper("int8, embedding 16-bit-এ")) == [(4, "16 in 'int8, embedding 16-bit-এ'")]
    assert found(stepper("int8, embedding ১৬-bit-এ, fp16")) == []
    assert found(stepper("plain 16 blocks")) == []  # no Bangla: an English label is not checked for digits
    assert found(stepper("হিসাব <code>16 * 2</code>")) == []  # code is code


def test_an_avoided_term_in_a_run_label_names_the_run_and_the_macros_line():
    html = ('<div data-component="run-table" data-run="explode"><table><caption>গুণক আর layer</caption>'
            '</table></div>')
    findings = check_generated(ProseChecker(TERMS, set()), html, SOURCE, "l/index.md")
    assert [(f.line, f.found) for f in findings] == [(10, "গুণক"), (10, "layer")]
    assert "gpu_runs/results/explode.json" in findings[0].advice and "গুণনীয়ক" in findings[0].advice
    tooltip = ('<div data-component="run-chart" data-run="explode"><svg><g><title>layer (1 = next to the input)'
               '</title><text>স্তর (১ = input-এর পাশেরটি)</text></g></svg></div>')
    assert found(tooltip) == []  # the chart's English tooltip is English on purpose


def test_a_printed_line_may_be_latin_but_not_both():
    assert found(cell("lr=0.2: ২০ ধাপ পরে w = 4.9998")) == [
        (7, "0.2 in 'lr=0.2: ২০ ধাপ পরে w = 4.9998'"), (7, "4.9998 in 'lr=0.2: ২০ ধাপ পরে w = 4.9998'")]
    assert found(cell("lr=0.2: 20 ধাপ পরে w = 4.9998\nsetup  layer 1  layer 30")) == []
    assert found(cell("প্রথম গোলমেলে layer: 3")) == [(7, "layer")]
    assert found(cell("ঠিক আছে", code="গুণক = ১  # a comment in code is code")) == []


def test_prose_outside_what_code_made_is_left_to_the_markdown_check():
    assert found("<p>গুণক 16-bit</p>") == []
