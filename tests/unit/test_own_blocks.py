"""What scripts put into a lesson at load gets a block of its own in the built page
(render/own_blocks.py): each bare table, and the slot for Run all's controls."""

from __future__ import annotations

from py_lessons.plugin.render.own_blocks import PAGE_CONTROLS_SLOT, own_blocks


def _cell(cell_id: str, kind: str = "") -> str:
    extra = f' data-cell-kind="{kind}"' if kind else ""
    return f'<div class="pycell" data-cell-id="{cell_id}" data-state="idle"{extra}><pre><code>x = 1</code></pre></div>'


def test_a_bare_table_gets_a_block_and_a_table_with_a_class_does_not():
    html = "<p>a</p><table><tr><td>1</td></tr></table><table class=\"gpu-run-table\"><tr><td>2</td></tr></table>"
    assert own_blocks(html) == ('<p>a</p><div class="pz-table"><table><tr><td>1</td></tr></table></div>'
                                '<table class="gpu-run-table"><tr><td>2</td></tr></table>')


def test_the_slot_goes_before_the_top_level_block_that_holds_the_first_lesson_cell():
    first, second = _cell("a"), _cell("b")
    before = '<p title="a > b">t<br>u</p><svg><path d="M0 0"/></svg><script>if (a<b) go()</script>'
    html = before + '<div class="admonition"><p>n</p>' + first + "</div>" + second
    assert own_blocks(html) == before + PAGE_CONTROLS_SLOT + '<div class="admonition"><p>n</p>' + first + "</div>" + second


def test_an_exercise_editor_is_not_a_lesson_cell():
    html = "<p>x</p>" + _cell("e", "exercise") + _cell("a") + _cell("b")
    assert own_blocks(html) == "<p>x</p>" + _cell("e", "exercise") + PAGE_CONTROLS_SLOT + _cell("a") + _cell("b")


def test_a_page_of_one_lesson_cell_has_no_controls_and_no_slot():
    html = "<p>x</p>" + _cell("e", "exercise") + _cell("a")
    assert own_blocks(html) == html


def test_tables_side_by_side_and_inside_a_block_each_get_their_own():
    table = "<table>\n<tr><td>1</td></tr>\n</table>"
    html = f"<p>a</p>\n{table}{table}\n<div class=\"admonition\">\n<p>n</p>\n{table}\n</div>"
    wrapped = '<div class="pz-table">' + table + "</div>"
    assert own_blocks(html) == f"<p>a</p>\n{wrapped}{wrapped}\n<div class=\"admonition\">\n<p>n</p>\n{wrapped}\n</div>"


def test_a_lesson_cell_is_known_by_its_attributes_in_any_order_and_on_any_line():
    cell = '<div data-state="idle" data-cell-id="{}" class="note pycell">\n<pre><code>x = 1\n</code></pre>\n</div>'
    html = "<h2>t</h2>\n<p>one\ntwo</p>\n" + cell.format("a") + "\n" + cell.format("b")
    at = html.index("<div")
    assert own_blocks(html) == html[:at] + PAGE_CONTROLS_SLOT + html[at:]
