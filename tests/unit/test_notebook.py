"""A lesson as a notebook and a .py (py_lessons/plugin/notebook.py): nbformat-valid, code cells in the
page's order with their ids, the text kept for Jupyter (TeX, glossary words, admonitions, tabs)."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from py_lessons.plugin.render.notebook import download_control, joined, lesson_files
from support import pages
from py_lessons.runtime.catalogue import t

PAGE = '''# ঢালের পাঠ

ভূমিকা: সূত্র $a^2 + b^2$, [[gradient|ঢাল]] আর [[norm]]; কোডে `[[gradient]]` যেমন আছে তেমন।

$$
L = \\frac{1}{n}\\sum_i x_i
$$

!!! tip "মনে রাখুন"
    ভেতরের কথা

    ```pycell id="inside"
    x = 1
    ```

<div data-component="code-tabs" data-id="tabs" markdown>

=== "Python"

    ```pycell id="tab-py"
    print(2)
    ```

=== "Go"

    ```go
    fmt.Println(2)
    ```

</div>

```pycell id="fails" raises="ZeroDivisionError"
1 / 0
```

```mcq
id: q
question: "কোনটি ঠিক?"
choices:
  - text: "প্রথমটি"
    correct: true
  - text: "দ্বিতীয়টি"
    explain: "না"
```

```stepper
id: s
function: norm_clip
inputs: {grad: [3, 4], max_norm: 5}
```

```run-table
run: any
```

```run-chart
run: any
```

```run-claim
run: any
```

```complete
```

```exercise
id: ex
prompt: "শেখার হার `lr` ঠিক করুন"
starter: |
  lr = ___
checks: |
  assert lr == 1
solution: |
  lr = 1
```

````markdown
```pycell
print("শুধু উদাহরণ")
```
````
'''

TERMS = {"gradient": {"term": "Gradient"}, "norm": {"term": "Norm (দৈর্ঘ্য)"}}


@pytest.fixture()
def components():
    return pages.components()


def read(components, markdown=PAGE, src="lessons/slope/index.md", url="lessons/slope/"):
    return pages.read(markdown, src, url, kinds=components)


def files_of(components, page, markdown):
    return lesson_files(page, markdown, TERMS, components.notebook)


@pytest.fixture()
def files(components):
    return files_of(components, read(components), PAGE)


def markdown_text(notebook) -> str:
    return "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")


def test_the_notebook_is_valid_nbformat_4(files):
    notebook = nbformat.reads(files.notebook, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == "python3"


def test_code_cells_are_the_pages_code_in_order_with_their_ids(files):
    cells = [cell for cell in json.loads(files.notebook)["cells"] if cell["cell_type"] == "code"]
    assert [("".join(c["source"]), c["metadata"]["pathshala"]["cell_id"]) for c in cells] == [
        ("x = 1", "inside"), ("print(2)", "tab-py"), ("1 / 0", "fails"), ("lr = ___", "ex-code")]
    # Jupyter's tag lets Run all go on past a cell meant to fail, and past an exercise's blanks
    assert [c["metadata"].get("tags", []) for c in cells] == [[], [], ["raises-exception"], ["raises-exception"]]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in cells)


def test_the_text_stays_markdown_with_tex_and_the_glossary_words(files):
    text = markdown_text(json.loads(files.notebook))
    assert "$a^2 + b^2$" in text
    assert "$$\nL = \\frac{1}{n}\\sum_i x_i\n$$" in text
    assert "সূত্র $a^2 + b^2$, ঢাল আর Norm (দৈর্ঘ্য); কোডে `[[gradient]]` যেমন আছে তেমন।" in text
    assert "# ঢালের পাঠ" in text


def test_admonitions_and_tabs_become_titles_over_dedented_text(files):
    notebook = json.loads(files.notebook)
    text = markdown_text(notebook)
    assert "**মনে রাখুন**\n" in text and "\nভেতরের কথা" in text
    assert "**Python**" in text and "**Go**" in text
    assert "\n```go\nfmt.Println(2)\n```" in text
    assert "<div" not in text and "</div>" not in text and "!!!" not in text and "===" not in text


CLOSED = '''# পাঠ

অনুশীলনী আগে।

??? success "অনুশীলনীর পরে খুলুন"
    সমাধান: [[gradient|ঢাল]] ছোট করুন।

    ```pycell id="solved"
    lr = 0.1
    ```

    আরও কথা।

???+ note "খোলা বাক্স"
    সবার জন্য।

শেষ কথা।
'''


def test_a_box_the_page_shows_closed_stays_closed_in_the_notebook(components):
    notebook = json.loads(files_of(components, read(components, CLOSED), CLOSED).notebook)
    nbformat.validate(nbformat.reads(json.dumps(notebook), as_version=4))
    sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    before, code, after = sources[1], sources[2], sources[3]
    assert before.startswith("# পাঠ") and before.endswith(
        "<details><summary>অনুশীলনীর পরে খুলুন</summary>\n\nসমাধান: ঢাল ছোট করুন।\n\n</details>")
    assert code == "lr = 0.1" and notebook["cells"][2]["metadata"]["jupyter"] == {
        "source_hidden": True, "outputs_hidden": True}
    assert after.startswith("<details><summary>অনুশীলনীর পরে খুলুন</summary>\n\nআরও কথা।\n\n</details>")
    assert "**খোলা বাক্স**\n" in after and "<details>" not in after.split("</details>", 1)[1]  # ???+ is open
    assert "সবার জন্য।" in after and after.rstrip().endswith("শেষ কথা।") and "???" not in "".join(sources)


def test_a_fenced_example_stays_text_not_a_cell(files):
    text = markdown_text(json.loads(files.notebook))
    assert '````markdown\n```pycell\nprint("শুধু উদাহরণ")\n```\n````' in text


def test_components_become_what_a_reader_in_jupyter_can_use(files):
    text = markdown_text(json.loads(files.notebook))
    assert "কোনটি ঠিক?" in text and "- প্রথমটি" in text and "- দ্বিতীয়টি" in text
    header = f"| {t('stepper.col.step')} | {t('stepper.col.what')} | {t('stepper.col.calc')} | {t('stepper.col.result')} |"
    assert header in text
    # norm_clip of [3, 4]: its first row sums the squares (3² + 4² = 25), its second is the norm (5)
    rows = [line for line in text.split("\n") if re.match(r"\| [০-৯]+ \|", line)]
    assert rows[0].startswith("| ১ |") and rows[0].endswith("| `25` |")
    assert rows[1].startswith("| ২ |") and rows[1].endswith("| `5` |")
    assert text.count(t("download.runs")) == 1  # a table and a chart side by side: one note
    assert "শেখার হার `lr` ঠিক করুন" in text and t("download.exercise") in text
    assert "run-claim" not in text and "complete" not in text


def test_the_python_file_is_the_notebook_in_percent_format(files):
    notebook = json.loads(files.notebook)
    sections = files.python.split("\n# %%")
    assert files.python.startswith("# %% [markdown]\n#")
    code = [(json.loads(m[1])["cell_id"], m[2]) for m in
            re.finditer(r'^# %%[^\n]* pathshala=(\{[^\n]*\})\n(.*?)\n(?=\n# %%|\Z)', files.python, re.M | re.S)]
    assert code == [("inside", "x = 1"), ("tab-py", "print(2)"), ("fails", "1 / 0"), ("ex-code", "lr = ___")]
    assert '# %% tags=["raises-exception"] pathshala={"cell_id": "fails"}' in files.python
    assert len(sections) == len(notebook["cells"])
    for section in sections:
        if section.lstrip("# %").startswith("[markdown]"):
            assert all(line == "#" or line.startswith("# ") for line in section.split("\n")[1:] if line)
    assert "# $$\n# L = \\frac{1}{n}\\sum_i x_i\n# $$" in files.python
    compile(files.python, "lesson.py", "exec")  # it is Python


def test_a_page_without_code_has_no_notebook(components):
    assert files_of(components, read(components, "# শুধু লেখা\n\nকোনো কোড নেই।\n"), "# শুধু লেখা\n") is None


@pytest.mark.parametrize(("src", "url", "folder", "name"), [
    ("lessons/slope/index.md", "lessons/slope/", "lessons/slope/", "slope"),
    ("notes.md", "notes/", "notes/", "notes"),
    ("notes.md", "notes.html", "", "notes"),
    ("lessons/slope/index.md", "lessons/slope/index.html", "lessons/slope/", "slope"),
])
def test_files_are_written_beside_the_page(components, src, url, folder, name):
    files = files_of(components, read(components, src=src, url=url), PAGE)
    assert (files.folder, files.name) == (folder, name)


def test_the_control_links_both_files_of_its_lesson():
    control = download_control("slope")
    assert 'href="slope.ipynb" download="slope.ipynb" data-action="download-notebook"' in control
    assert 'href="slope.py" download="slope.py" data-action="download-python"' in control
    later_part = download_control("slope", "../")  # a later part links its lesson's files
    assert 'href="../slope.ipynb" download="slope.ipynb" data-action="download-notebook"' in later_part
    assert 'href="../slope.py" download="slope.py"' in later_part


def test_a_lesson_in_parts_is_one_notebook_beside_its_first_part(components):
    first = files_of(components, read(components, src="lessons/slope/index.md", url="lessons/slope/"), PAGE)
    second_page = "# দ্বিতীয় পর্ব\n\nআরও কথা।\n\n```pycell id=\"later\"\nprint(2)\n```\n"
    second = files_of(components, read(components, second_page, src="lessons/slope/more.md", url="lessons/slope/more/"),
                      second_page)
    whole = joined([first, second], "lessons/slope/index.md", "lessons/slope/")
    assert (whole.folder, whole.name) == ("lessons/slope/", "slope")
    notebook = nbformat.reads(whole.notebook, as_version=4)
    nbformat.validate(notebook)
    cells_of = lambda files: json.loads(files.notebook)["cells"]
    # every cell of the first part, then the second's without its opening note: one note in all
    assert len(notebook.cells) == len(cells_of(first)) + len(cells_of(second)) - 1
    assert sum("পাঠশালার" in "".join(cell.source) for cell in notebook.cells) == 1
    ids = [cell.metadata["pathshala"]["cell_id"] for cell in notebook.cells if cell.cell_type == "code"]
    assert ids[-1] == "later" and len(ids) == len(set(ids))
    assert notebook.metadata["pathshala"]["page"] == "lessons/slope/"
    assert 'pathshala={"cell_id": "later"}' in whole.python
