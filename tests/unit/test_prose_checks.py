"""The prose checks (py_lessons.plugin.terms): avoided renderings, number forms, dead references."""

from __future__ import annotations

import textwrap

import pytest

from py_lessons.plugin.render import glossary
from py_lessons.plugin.base.errors import BlockError as ComponentError
from py_lessons.plugin.cli.check_prose import main
from py_lessons.plugin.page.prose_checks import ProseChecker

TERMS = {
    "weight": {"term": "weight", "definition": "d", "avoid": ["ওজন"], "note": "সব পাঠে weight"},
    "layer": {"term": "স্তর (layer)", "definition": "d", "avoid": ["layer"], "note": ""},
    "class": {"term": "শ্রেণি (class)", "definition": "d", "avoid": ["দল", "দলের ডেটা"], "note": ""},
    "error": {"term": "ত্রুটি (numerical error)", "definition": "d", "avoid": ["আপেক্ষিক ভুল"], "note": ""},
}
COMPONENTS = {"mcq", "stepper"}


def findings(markdown: str, **options) -> list[tuple[int, str]]:
    checker = ProseChecker(TERMS, COMPONENTS, **options)
    return [(found.line, found.found) for found in checker.check_page(textwrap.dedent(markdown), "lesson/index.md")]


def test_an_avoided_variant_is_found_with_its_inflections_and_line():
    page = """\
        # শিরোনাম

        প্রতিটি ওজনের মান বদলায়; ওজনগুলো ছোট, ওজন-matrix বড়।
        Linear Layer আর দুটি layers।
        """
    assert findings(page) == [(3, "ওজনের"), (3, "ওজনগুলো"), (3, "ওজন"), (4, "Layer"), (4, "layers")]
    checker = ProseChecker(TERMS, COMPONENTS)
    message = str(checker.check_page("ওজন\n", "lesson/index.md")[0])
    assert message.startswith("lesson/index.md:1: 'ওজন': write 'weight', not 'ওজন'") and "সব পাঠে weight" in message


def test_a_variant_inside_a_longer_word_is_not_found():
    page = "মান বদলায়, বদল হয়, দলিল আর ওজনদার জিনিস; LayerNorm আর multilayer; ৩-দলে ভাগ।\n"
    assert findings(page) == [(1, "দলে")]


def test_a_phrase_is_found_across_a_line_break():
    assert findings("তিন দলের\nডেটায় আর আপেক্ষিক   ভুল বেশি।\n") == [(1, "দলের"), (1, "দলের\nডেটায়"), (2, "আপেক্ষিক   ভুল")]


def test_code_math_links_and_markup_are_not_prose():
    page = """\
        ---
        title: ওজন
        ---
        `ওজন = 1` আর $ওজন_i$ আর $$layer$$ আর [[layer-norm|স্তর]] আর [লিংক](../layer/) <span title="ওজন">x</span>
        {{ step:layer:ওজন }} <!-- ওজন -->

        ```python
        ওজন = 3  # layer
        ```

        ````markdown
        ```mcq
        question: ওজন?
        ```
        ````

        ```stepper
        id: layer
        function: layer_weights
        caption: প্রতিটি ওজন
        ```
        """
    assert findings(page) == [(20, "ওজন")]


def test_a_components_text_fields_are_prose_and_its_code_is_not():
    page = """\
        ```mcq
        id: layer-quiz
        question: "কোন layer?"
        choices:
          - text: প্রথম ওজন
            correct: true
            explain: |
              দ্বিতীয় লাইনে ওজন।
              Note: ওজনই বদলায়, যদিও লাইনটি YAML-এর key-এর মতো দেখায়।
              ```python
              layer = 1
              ```
          - text: |
              x = 1
        ```
        """
    assert findings(page) == [(3, "layer"), (5, "ওজন"), (8, "ওজন"), (9, "ওজনই")]  # "x = 1" is no Bangla line


def test_an_empty_block_moves_no_line():
    page = "# ক\n\n```stepper\n```\n\nলেখা।\n\n```mcq\nid: q\nattempts: 2\nquestion: ওজন?\n```\n"
    assert findings(page) == [(11, "ওজন")]  # a setting's 2 stays a setting, the question keeps its line


def test_a_one_line_choice_is_prose_too():
    page = """\
        ```mcq
        id: q
        question: "কোনটি?"
        choices:
          - {text: "এক ওজন", correct: true, explain: "কারণ layer-এ, আর 1 + ছোট"}
          - {text: 'দুই', id: ওজন-key}
        ```
        """
    assert findings(page) == [(5, "ওজন"), (5, "layer"), (5, "1")]


@pytest.mark.parametrize("text, found", [
    ("ফল 3.59e+06 আর ৩.৫৯e+০৬ আর 1e-4 আর 2E5।", ["3.59e+06", "৩.৫৯e+০৬", "1e-4", "2E5"]),
    ("সর্বোচ্চ 65504, আর ৭০০০৩৭৭০টি parameter।", ["65504", "৭০০০৩৭৭০"]),
    ("পশ্চিমা ভাগে 1,000,000 আর 100,000।", ["1,000,000", "100,000"]),
    ("ঠিক আছে: ৬৫,৫০৪ আর ০.০০০০১২ আর fp16, int8, GPT-2, arXiv:1503.02531, 4bit।", []),
    # Latin digits in Bangla prose, each number once, however it is written
    ("7,00,03,770 আর 10,000 আর ICLR 2024 আর 0.000012 আর 16-bit আর [0, 5, 12] আর −3 আর ২-30।",
     ["7,00,03,770", "10,000", "2024", "0.000012", "16", "0", "5", "12", "3", "30"]),
    ("কোডে `x = 1e-8` আর `123456` আর $10^{-4}$ আর $123456$।", []),
])
def test_numbers_in_prose_go_through_the_formatter(text, found):
    assert [word for _, word in findings(text + "\n")] == found


def test_latin_digits_are_a_finding_only_in_a_line_of_bangla():
    page = "# An English course\n\nThe loss falls 2 times in 10 steps.\n\nএই লাইনে 2 বার।\n"
    assert findings(page) == [(5, "2")]


def test_an_ordered_lists_numbers_are_markup_not_prose():
    page = "1. প্রথম\n  2) দ্বিতীয়, ধাপ 3\n> 4. উদ্ধৃতি\n- 5. নয়\n"
    assert findings(page) == [(2, "3")]


def test_the_advice_gives_the_indian_grouping():
    checker = ProseChecker({}, COMPONENTS)
    advice = [f.advice for f in checker.check_page("৭০০০৩৭৭০ আর 100,000\n", "p.md")]
    assert "৭,০০,০৩,৭৭০" in advice[0] and "1,00,000" in advice[1]


def test_references_to_the_sources_numbering_are_dead():
    page = """\
        # পর্ব ১৭ · gradient
        ছবি ১৭.২ দেখুন, আর অধ্যায় 3-এ আছে; see Figure 3.1 and Chapter 5.
        পাঠ ২ আর পাঠ ৯ দেখুন; পর্বে পর্বে এগোনো ঠিক আছে।
        """
    assert findings(page, lesson_count=4) == [(1, "পর্ব ১৭"), (2, "ছবি ১৭.২"), (2, "অধ্যায় 3"), (2, "Figure 3.1"),
                                              (2, "Chapter 5"), (3, "পাঠ ৯")]
    assert (3, "পাঠ ৯") not in findings(page)  # without lessons there is no numbering to check


def test_links_to_nothing_in_the_docs_are_dead(tmp_path):
    (tmp_path / "lesson").mkdir()
    (tmp_path / "lesson" / "index.md").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "index.md").write_text("x")
    page = ("[ক](../other/) [খ](../other/index.md#part) [গ](../gone/) [ঘ](missing.md) [ঙ](https://example.org/x) "
            "[চ](#here)\n`[ছ](../gone/)`\n")
    assert findings(page, docs_dir=tmp_path) == [(1, "../gone/"), (1, "missing.md")]


def test_the_glossary_definitions_are_checked_and_its_avoid_lists_are_not():
    text = textwrap.dedent("""\
        weight:
          term: weight
          definition: model-এর ওজন।
          avoid: [ওজন]
          note: ওজন নয়
        """)
    assert [(f.line, f.found) for f in ProseChecker(TERMS, COMPONENTS).check_glossary(text, "glossary.yml")] \
        == [(3, "ওজন")]


def test_the_glossary_reads_avoid_lists_and_rejects_bad_ones(tmp_path):
    path = tmp_path / "glossary.yml"
    path.write_text("w:\n  term: weight\n  definition: d\n  avoid: [ওজন, ' ভার  বহন ']\n  note: কেন\n")
    assert glossary.load(path)["w"] == {"term": "weight", "definition": "d", "avoid": ["ওজন", "ভার বহন"],
                                        "note": "কেন"}
    path.write_text("w:\n  term: weight\n  definition: d\n  avoid: ওজন\n")
    with pytest.raises(ComponentError, match="avoid must be a list"):
        glossary.load(path)
    path.write_text("w:\n  term: weight\n  definition: d\n  avoids: [ওজন]\n")
    with pytest.raises(ComponentError, match="unknown field"):
        glossary.load(path)


def test_the_command_lists_every_finding_as_page_and_line(tmp_path, capsys):
    (tmp_path / "glossary.yml").write_text("w:\n  term: weight\n  definition: ওজন\n  avoid: [ওজন]\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.md").write_text("# ক\n\nওজন আর 12345\n")
    assert main([str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in lines] == ["glossary.yml:3", "a/index.md:3", "a/index.md:3"]
    (tmp_path / "a" / "index.md").write_text("# ক\n\nweight আর ১২,৩৪৫\n")
    (tmp_path / "glossary.yml").write_text("w:\n  term: weight\n  definition: weight\n  avoid: [ওজন]\n")
    assert main([str(tmp_path)]) == 0
