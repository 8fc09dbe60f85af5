"""Driving runnable cells in the page through their stable data-* hooks."""

from __future__ import annotations

import time

CELL = '[data-cell-id="{}"]'

OUTPUT_SNAPSHOT = """(cell) => [...cell.querySelector('[data-output]').children].map((child) =>
    child.dataset.stream !== undefined
      ? [child.dataset.stream, child.textContent]
      : ['figure', (() => { const svg = child.querySelector('svg');
          return svg ? Math.round(svg.getBoundingClientRect().width) > 0 && svg.querySelectorAll('*').length > 10 : false; })()])"""


def cell(page, cell_id):
    return page.locator(CELL.format(cell_id))


def output_snapshot(page, cell_id):
    return cell(page, cell_id).evaluate(OUTPUT_SNAPSHOT)


def wait_state(page, cell_id, states=("done", "error"), timeout=90_000):
    page.wait_for_function(
        "([id, states]) => states.includes(document.querySelector(`[data-cell-id=\"${id}\"]`).dataset.state)",
        arg=[cell_id, list(states)], timeout=timeout,
    )
    return cell(page, cell_id).get_attribute("data-state")


def run_cell(page, cell_id, timeout=90_000):
    cell(page, cell_id).locator('[data-action="run"]').click()
    return wait_state(page, cell_id, timeout=timeout)


def replace_code(page, cell_id, code):
    cell(page, cell_id).locator("[data-editor]").click()  # reaching for the code loads the editor
    page.wait_for_selector(f'{CELL.format(cell_id)}[data-editor-state="ready"]')
    content = cell(page, cell_id).locator(".cm-content")
    content.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)


def editor_text(page, cell_id):
    """The cell's code as the reader sees it: in the editor, or in the <pre> before it loads."""
    return cell(page, cell_id).locator(".cm-content, [data-editor] pre").first.inner_text()


def wait_enhanced(page):
    page.wait_for_function("() => [...document.querySelectorAll('.pycell')].every((c) => c.hasAttribute('data-enhanced'))")


def component(page, kind, component_id):
    return page.locator(f'[data-component="{kind}"][data-id="{component_id}"]')


def start_then_stop(page, cell_id, code, stopped_within_ms):
    """Run ``code`` in a cell, press Stop while it runs; returns seconds from the click to the end."""
    replace_code(page, cell_id, code)
    cell(page, cell_id).locator('[data-action="run"]').click()
    wait_state(page, cell_id, states=("running",))
    page.wait_for_timeout(300)
    began = time.monotonic()
    cell(page, cell_id).locator('[data-action="stop"]').click()
    wait_state(page, cell_id, states=("error", "idle"), timeout=stopped_within_ms)
    return time.monotonic() - began
