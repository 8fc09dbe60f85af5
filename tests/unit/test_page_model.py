"""The page model: a page read once; each stepper computed once; blocks keep their lines."""

from __future__ import annotations

import pytest

from py_lessons.plugin.base.errors import LessonError
from py_lessons.plugin.page.model import read_page
from py_lessons.runtime import steppers
from support import pages

PAGE = """# p

```pycell id="a"
print(1)
```

````markdown
```stepper
id: shown-only
function: no_such_function
```
````

```stepper
id: s
function: norm_clip
```

```run-claim
run: x
path: y
```
"""


@pytest.fixture()
def components():
    return pages.components()


def test_a_page_is_read_into_cells_blocks_and_runs_with_lines(components):
    page = read_page(PAGE, "lessons/p/index.md", "lessons/p/", page_session=None,
                     component_kinds=components.kinds, run_kinds=("run-claim",))
    assert page.slug == "lessons-p" and page.root_url == "../../"
    assert [(c.cell_id, c.line) for c in page.cells] == [("a", 3)]
    assert [(b.kind, b.line) for b in page.components] == [("stepper", 14)]  # the example is not a block
    assert [(b.kind, b.line) for b in page.runs] == [("run-claim", 19)]


def test_each_stepper_is_computed_once(components, monkeypatch):
    calls = []
    real = steppers.run_stepper
    monkeypatch.setattr(steppers, "run_stepper", lambda *a, **k: calls.append(a) or real(*a, **k))
    page = pages.read(PAGE, kinds=components, run_kinds=())
    components.render(page)
    assert 'data-component="stepper"' in page.components[0].html
    assert calls == [("norm_clip",)]


def test_an_authoring_error_names_page_and_line(components):
    bad = "# p\n\n```stepper\nid: s\nfunction: nope\n```\n"
    with pytest.raises(LessonError, match=r"^p\.md:3: stepper .s.: no stepper named .nope."):
        pages.read(bad, kinds=components, run_kinds=())


def test_a_blocks_yaml_mistake_names_its_own_line_in_words(components):
    bad = '# p\n\n```mcq\nid: q\nquestion: "ঢাল \\, তাই"\nchoices: []\n```\n'
    with pytest.raises(LessonError) as caught:
        pages.read(bad, kinds=components, run_kinds=())
    message = str(caught.value)
    assert message.startswith("p.md:5: the mcq block is not valid YAML: ")  # the question's line, not the fence's
    assert "unknown escape character" in message and "\n" not in message and "<unicode string>" not in message
