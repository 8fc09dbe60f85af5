"""The lesson engine in-process, as a library (no MkDocs): a page is read once, its blocks are found
by their number on the page, and the plugin's options are declared once."""

from __future__ import annotations

import pytest

from py_lessons.plugin import config as plugin_config
from py_lessons.plugin.base.errors import LessonError
from py_lessons.plugin.config import OPTIONS, Settings
from py_lessons.plugin.engine import LessonEngine
from py_lessons.plugin.page import fences, model
from py_lessons.runtime import steppers
from support.course import content_state, restore_content

STEPPERS = '''\
from py_lessons.runtime.steppers import InputSpec, Step, fmt, stepper


@stepper("engine_twice", title="দ্বিগুণ", inputs=[InputSpec("x", "x", 21.0)])
def engine_twice(x):
    return [Step("দ্বিগুণ", f"2 × {fmt(x)}", fmt(2 * x), "দুই গুণ")], {"result": 2 * x}
'''

PAGE = """# পাঠ

```pycell id="answer"
print(6 * 7)
```

```stepper
id: clip
function: engine_twice
caption: "উত্তর {{ cell:answer:number[0] }}"
```

```cell-claim
cell: answer
select: number[0]
equals: 42
```

```cell-claim
cell: answer
select: number[0]
equals: 42
```
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """One engine for a course with a steppers.py of its own (its runner started once for every test)."""
    root = tmp_path_factory.mktemp("course")
    (root / "docs").mkdir()
    (root / "docs" / "steppers.py").write_text(STEPPERS, encoding="utf-8")
    state = content_state()  # the test process's own course modules, back afterwards
    built = LessonEngine(Settings(root=root, docs_dir=root / "docs", site_name="t", packages=("numpy",),
                                  cache_dir=str(root / "cache")))
    yield built
    built.close()
    restore_content(state)


def prepare(engine, markdown, src="lesson/index.md", url="lesson/"):
    engine.set_pages([(src, url, markdown)])
    return engine.prepare_page(markdown, src, url, {})


def test_a_page_is_read_once_though_a_block_quotes_a_cell(engine, monkeypatch):
    reads, stepper_runs = [], []
    real_read, real_run = fences.read_fences, steppers.run_stepper
    monkeypatch.setattr(model, "read_fences", lambda text: reads.append(1) or real_read(text))
    monkeypatch.setattr(steppers, "run_stepper", lambda *a, **k: stepper_runs.append(a) or real_run(*a, **k))
    tagged = prepare(engine, PAGE)
    assert len(reads) == 1 and stepper_runs == [("engine_twice",)]
    page = engine.page
    stepper_html = engine.render_fence("stepper", "", {"block": str(page.components[0].index)})
    assert "উত্তর 42" in stepper_html  # quoted after the cell ran, into the block read once
    assert '```stepper block="0"' in tagged and '```pycell id="answer" cell="0"' in tagged


def test_blocks_are_found_by_their_number_not_their_body(engine):
    prepare(engine, PAGE)
    page = engine.page
    first, second = page.claims
    assert first.body == second.body and first.index != second.index
    first.html, second.html = "<span>first</span>", "<span>second</span>"
    assert engine.render_fence("cell-claim", first.body, {"block": str(second.index)}) == "<span>second</span>"
    with pytest.raises(LessonError, match="not found"):
        engine.render_fence("mcq", "", {"block": str(first.index)})  # a number that is another kind's block


def test_the_plugins_options_are_declared_once():
    """mkdocs_adapter.py builds MkDocs' config class from config.OPTIONS, and Settings has every one."""
    from py_lessons.plugin.mkdocs_adapter import LessonsConfig

    names = [option.name for option in OPTIONS]
    assert [name for name, _ in LessonsConfig._schema] == names
    fields = {field.name for field in plugin_config.dataclasses.fields(Settings)}
    assert set(names) <= fields
    defaults = LessonsConfig()
    defaults.load_dict({})
    assert not defaults.validate()[0]
    for option in OPTIONS:
        expected = list(option.default) if isinstance(option.default, tuple) else option.default
        assert defaults[option.name] == expected, option.name
