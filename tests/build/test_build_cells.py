"""Build side, without a browser: cell extraction, cache keys, rendering."""

from __future__ import annotations

import html
import json

import pytest

from py_lessons.plugin.page import cells
from py_lessons.plugin.page.fences import read_fences
from py_lessons.plugin.page.model import read_page
from py_lessons.plugin.execute.cache import CellCache, cell_key
from py_lessons.plugin.render.cell_html import render_cell, render_items
from py_lessons.runtime.execute import merge_items

PAGE = """# title

```pycell
print(1)
```

text

=== "Python"

    ```pycell id="tabbed" session="s" raises="ValueError" timeout="3"
    for i in range(2):
        print(i)
    ```

~~~~pycell session="s"
x = 1
~~~~
"""


def find_cells(markdown, slug, page_session=None):
    return cells.cell_specs(read_fences(markdown), slug, page_session)


def tagged_cells(markdown):
    """The Markdown as the page model hands it to the renderer (only cells: no block kinds)."""
    return read_page(markdown, "p.md", "p/", page_session=None, component_kinds=(), run_kinds=()).tagged_markdown(markdown)


def test_find_cells_reads_code_options_and_lines():
    found = find_cells(PAGE, "lesson")
    assert [c.cell_id for c in found] == ["lesson-1", "tabbed", "lesson-3"]
    assert [c.line for c in found] == [3, 11, 16]
    assert found[0].code == "print(1)"
    assert found[1].code == "for i in range(2):\n    print(i)"  # the tab's indentation is removed
    assert (found[1].session, found[1].raises, found[1].timeout) == ("s", "ValueError", 3.0)
    assert found[2].session == "s" and found[2].code == "x = 1"


def test_page_session_applies_to_cells_without_their_own():
    found = find_cells(PAGE, "lesson", page_session="page")
    assert [c.session for c in found] == ["page", "s", "s"]


def test_tag_cells_numbers_each_fence_in_order():
    tagged = tagged_cells(PAGE)
    assert '```pycell cell="0"' in tagged
    assert 'timeout="3" cell="1"' in tagged
    assert '~~~~pycell session="s" cell="2"' in tagged
    # the body is untouched
    assert tagged.replace(' cell="0"', "").replace(' cell="1"', "").replace(' cell="2"', "") == PAGE


@pytest.mark.parametrize(
    "source, message, line",
    [
        ('```pycell colour="red"\nx\n```', "unknown cell option 'colour'", 1),
        ("text\n\n```pycell\nx = 1\n", "never closed", 3),
        ('```pycell id="Bad Id"\nx\n```', "must be lowercase", 1),
        ('```pycell id="a"\n1\n```\n```pycell id="a"\n2\n```', "already used on line 1", 4),
        ('```pycell timeout="soon"\nx\n```', "timeout must be a number", 1),
        ("```pycell what\nx\n```", "cannot read cell options", 1),
    ],
)
def test_malformed_cells_are_reported_with_their_line(source, message, line):
    with pytest.raises(cells.CellSyntaxError, match=message) as caught:
        find_cells(source, "p")
    assert caught.value.line == line and caught.value.at("p.md").startswith(f"p.md:{line}: ")


EXAMPLE = """# guide

````markdown
```pycell id="shown"
raise SystemExit("an example must never run")
```
````

```pycell id="real"
print(2)
```
"""


def test_a_pycell_inside_a_longer_example_fence_is_neither_a_cell_nor_tagged():
    found = find_cells(EXAMPLE, "guide")
    assert [(c.cell_id, c.line) for c in found] == [("real", 9)]
    tagged = tagged_cells(EXAMPLE)
    assert tagged.split("\n")[3] == '```pycell id="shown"'  # the example, as written
    assert tagged.split("\n")[8] == '```pycell id="real" cell="0"'


def test_other_fences_are_not_cells():
    assert find_cells("```python\nprint(1)\n```\n```pycellar\nx\n```", "p") == []


def test_cell_key_depends_on_code_history_and_runtime():
    base = cell_key("print(1)", [], "runtime-a")
    assert base == cell_key("print(1)", [], "runtime-a")
    assert base != cell_key("print(2)", [], "runtime-a")
    assert base != cell_key("print(1)", ["x = 1"], "runtime-a")
    assert base != cell_key("print(1)", [], "runtime-b")


def test_cache_round_trip_and_damaged_entries(tmp_path):
    cache = CellCache(tmp_path)
    key = cell_key("print(1)", [], "r")
    assert cache.get(key) is None
    cache.put(key, {"items": [{"type": "stdout", "text": "১\n"}], "result": {"ok": True}})
    assert cache.get(key)["items"][0]["text"] == "১\n"
    next(tmp_path.rglob("*.json")).write_text("{not json")
    assert cache.get(key) is None


def test_merge_items_joins_consecutive_text_of_one_stream():
    items = [
        {"type": "stdout", "text": "a"}, {"type": "stdout", "text": "b\n"},
        {"type": "stderr", "text": "w"}, {"type": "stdout", "text": "c"},
        {"type": "figure", "svg": "<svg/>"}, {"type": "stdout", "text": "d"},
    ]
    assert merge_items(items) == [
        {"type": "stdout", "text": "ab\n"}, {"type": "stderr", "text": "w"}, {"type": "stdout", "text": "c"},
        {"type": "figure", "svg": "<svg/>"}, {"type": "stdout", "text": "d"},
    ]


def test_rendered_output_is_escaped_and_keeps_leading_newlines():
    markup = render_items([{"type": "stdout", "text": "\n<img src=x onerror=alert(1)>"}], {"ok": True})
    assert "<img" not in markup
    assert html.unescape(markup.split(">", 1)[1].rsplit("<", 1)[0]) == "\n\n<img src=x onerror=alert(1)>"


def test_rendered_cell_carries_the_stable_hooks():
    markup = render_cell("demo-1", "print('<b>')", [], {"ok": False, "error": "E", "traceback": "Traceback\nE"},
                         session="s", raises="E", timeout=2.5)
    for hook in ('data-cell-id="demo-1"', 'data-state="idle"', 'data-action="run"', 'data-action="stop"',
                 'data-action="reset"', "data-editor", "data-output", 'data-session="s"', 'data-raises="E"',
                 'data-timeout="2.5"', 'data-stream="traceback"'):
        assert hook in markup
    assert "print(&#x27;&lt;b&gt;&#x27;)" in markup or "print('&lt;b&gt;')" in markup
    json.dumps(markup)  # plain text, serialisable
