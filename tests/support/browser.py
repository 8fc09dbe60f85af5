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


def cell_action(page, cell_id, action):
    """Click one of a cell's actions; on a phone the cell's other actions are behind "more"
    (cells/more-menu.js), which is opened first."""
    button = cell(page, cell_id).locator(f'[data-action="{action}"]')
    if not button.is_visible():
        cell(page, cell_id).locator("[data-more-button]").click()
        button.wait_for(state="visible")
    button.click()


def figures_in_place(page, root):
    """The build's figures under ``root`` fetched and in their place (site/figures.js places
    each when it comes near the viewport)."""
    if root.locator("svg[data-figure-file]").count():
        root.scroll_into_view_if_needed()
        page.wait_for_function("(el) => !el.querySelector('svg[data-figure-file]')", arg=root.element_handle())


def all_figures_in_place(page):
    """Every build figure of the page in its place, through the page's own figures.js."""
    page.evaluate("""async () => {
      const src = document.querySelector('script[src$="site/figures.js"]').src;
      await (await import(src)).loadFigures(); }""")


def output_snapshot(page, cell_id):
    figures_in_place(page, cell(page, cell_id))
    return cell(page, cell_id).evaluate(OUTPUT_SNAPSHOT)


def wait_state(page, cell_id, states=("done", "error"), timeout=90_000):
    page.wait_for_function(
        "([id, states]) => states.includes(document.querySelector(`[data-cell-id=\"${id}\"]`).dataset.state)",
        arg=[cell_id, list(states)], timeout=timeout,
    )
    return cell(page, cell_id).get_attribute("data-state")


def run_cell(page, cell_id, timeout=90_000):
    reveal_cell(page, cell_id)
    cell(page, cell_id).locator('[data-action="run"]').click()
    return wait_state(page, cell_id, timeout=timeout)


def reveal_cell(page, cell_id):
    """Open the closed boxes around a cell by their titles, as a reader reaches a cell inside one
    (the capstone's 'open after the exercise' box)."""
    for _ in range(3):  # a box inside a box: the outer one first
        closed = cell(page, cell_id).locator("xpath=ancestor::details[not(@open)]")
        if closed.count() == 0:
            return
        closed.first.locator(":scope > summary").click()  # document order: the outermost first


# The editor's whole text: CodeMirror draws only the lines in view, so the DOM's .cm-line elements
# are not the document. The lookup is EditorView.findFromDOM's own (the bundle does not export it).
EDITOR_TEXT = """(id) => { const content = document.querySelector(`[data-cell-id="${id}"] .cm-content`);
    const view = content && content.cmTile && content.cmTile.root && content.cmTile.root.view;
    return view ? view.state.doc.toString() : null; }"""

EDITOR_SHOWS = f"([id, code]) => ({EDITOR_TEXT})(id) === code"


def replace_code(page, cell_id, code):
    """Type ``code`` over the cell's code, as a reader would, and wait until the editor holds it
    (on a busy machine a click may land before the editor takes focus: then type again, once)."""
    cell(page, cell_id).locator("[data-editor]").click()  # reaching for the code loads the editor
    page.wait_for_selector(f'{CELL.format(cell_id)}[data-editor-state="ready"]')
    content = cell(page, cell_id).locator(".cm-content")
    for attempt in range(2):
        content.click()
        page.keyboard.press("Control+A")
        page.keyboard.insert_text(code)
        try:
            page.wait_for_function(EDITOR_SHOWS, arg=[cell_id, code], timeout=5_000)
            return
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: try the reader's way once more
            if attempt:
                raise


def editor_text(page, cell_id):
    """The cell's code as the reader sees it: in the editor, or in the <pre> before it loads."""
    return cell(page, cell_id).locator(".cm-content, [data-editor] pre").first.inner_text()


def wait_enhanced(page):
    page.wait_for_function("() => [...document.querySelectorAll('.pycell')].every((c) => c.hasAttribute('data-enhanced'))")


def wait_until(page, predicate: str, arg=None, timeout: float = 30_000) -> None:
    """Wait until the async JavaScript ``predicate`` resolves truthy. page.wait_for_function cannot
    do this: it takes the Promise such a predicate returns, always truthy, for its answer, and
    returns at once."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true after {timeout / 1000:g} s: {predicate[:80]}")
        page.wait_for_timeout(100)


# The kinds of component that have a script (the build's componentScripts, read from the page's own site.js).
COMPONENT_KINDS = """async () => {
  const index = document.querySelector('script[src$="components/index.js"]').src;
  const { componentScripts } = await import(index.replace(/components\\/index\\.js$/, "site.js"));
  return Object.keys(componentScripts);
}"""
# Each kind's script loads on its own (components/index.js), in no set order.
COMPONENTS_ENHANCED = """(kinds) => [...document.querySelectorAll("[data-component]")]
  .every((el) => !kinds.includes(el.dataset.component) || el.hasAttribute("data-enhanced"))"""


def wait_components(page):
    """Every cell and every component whose kind has a script is enhanced."""
    wait_enhanced(page)
    page.wait_for_function(COMPONENTS_ENHANCED, arg=page.evaluate(COMPONENT_KINDS))


def component(page, kind, component_id):
    return page.locator(f'[data-component="{kind}"][data-id="{component_id}"]')


def start_then_stop(page, cell_id, code, stopped_within_ms):
    """Run ``code`` in a cell, press Stop while it runs; returns seconds from the click to the end."""
    replace_code(page, cell_id, code)
    cell(page, cell_id).locator('[data-action="run"]').click()
    page.locator(CELL.format(cell_id) + "[data-python-began]").wait_for(timeout=60_000)  # not loading
    page.wait_for_timeout(300)
    began = time.monotonic()
    cell(page, cell_id).locator('[data-action="stop"]').click()
    wait_state(page, cell_id, states=("error", "idle"), timeout=stopped_within_ms)
    return time.monotonic() - began


def stop_keeps_session_variables(page, stopped_text):
    """On the guide: set ``total`` in a session cell, stop a busy loop in it, and return what the
    next session cell prints for ``total + 1`` (42 when Stop interrupted Python instead of
    restarting it). ``stopped_text``: the status a Stop that kept Python shows."""
    warnings = []  # why the page restarted Python instead, if it did (python-worker.js)

    def listen(message):
        if message.type == "warning":
            warnings.append(message.text)

    page.on("console", listen)
    replace_code(page, "guide-session-first", "total = 41\nwhile True:\n    pass")
    cell(page, "guide-session-first").locator('[data-action="run"]').click()
    page.locator(CELL.format("guide-session-first") + "[data-python-began]").wait_for(timeout=60_000)
    page.wait_for_timeout(300)
    cell(page, "guide-session-first").locator('[data-action="stop"]').click()
    # the page gives Python 3 s to take the interrupt and 10 s more to end the run (python-worker.js's
    # STOP_GRACE_MS, STOP_FINISH_MS) before it starts a fresh one: a loaded machine may use them
    assert wait_state(page, "guide-session-first", states=("error",), timeout=15_000) == "error"
    status = cell(page, "guide-session-first").locator("[data-status]").inner_text()
    assert status == stopped_text, (status, cell(page, "guide-session-first").locator("[data-output]").inner_text(), warnings)
    page.remove_listener("console", listen)
    # Stop is the reader's own doing: no Python traceback about it
    assert "KeyboardInterrupt" not in cell(page, "guide-session-first").locator("[data-output]").inner_text()
    replace_code(page, "guide-session-second", "print(total + 1)")
    assert run_cell(page, "guide-session-second") == "done"
    return cell(page, "guide-session-second").locator("[data-output]").inner_text().strip()


def answer_input(page, cell_id, prompt, line, *, press_enter=True):
    """Wait for input(prompt)'s field, type ``line`` and send it; wait until Python echoed it."""
    form = cell(page, cell_id).locator("[data-input-form]")
    form.locator("label", has_text=prompt).wait_for(timeout=90_000)
    form.locator("[data-input]").fill(line)
    if press_enter:
        form.locator("[data-input]").press("Enter")
    else:
        form.locator('[data-action="send-input"]').click()
    page.wait_for_function("([id, echo]) => document.querySelector(`[data-cell-id=\"${id}\"] [data-output]`)"
                           ".textContent.includes(echo)", arg=[cell_id, f"{prompt} {line}\n"])


# the URL the page loaded it from (a script's relative src would resolve against the page's URL of
# now, another one after instant navigation; a page's first resources stay in its timeline)
OFFLINE_MODULE = ("performance.getEntriesByType('resource').map((e) => e.name)"
                  ".find((url) => url.endsWith('/assets/pathshala/site/offline.js'))")


def offline_api(page, call: str):
    """Call one of site/offline.js's functions in the page (offlineStatus, makeAvailableOffline, ...)."""
    return page.evaluate(f"async () => (await import({OFFLINE_MODULE})).{call}()")


def first_visit_kept(page, timeout_s: float = 60.0) -> dict:
    """offlineStatus() once a first visit's files are kept: a first visit installs the service
    worker only after the page settled (its Python started), and the worker keeps what the page and
    Python fetched after it took control (offline.js keepWhatWasFetched), so reading the status
    before that races the hand-over."""
    return page.evaluate(f"""async (ms) => {{
        const kept = (await import({OFFLINE_MODULE})).firstVisitKept;
        return Promise.race([kept, new Promise((_, fail) => setTimeout(() => fail(new Error("first visit not kept")), ms))]);
    }}""", timeout_s * 1000)


# every URL the service worker's offline copy holds (Cache Storage, all its caches)
KEPT_FILES = """async () => {
    let urls = [];
    for (const name of await caches.keys()) urls = urls.concat((await (await caches.open(name)).keys()).map((r) => r.url));
    return urls;
}"""


def wait_kept_offline(page, paths, timeout_s: float = 30.0) -> None:
    """Until the service worker's offline copy holds each of ``paths`` (files fetched after the
    first visit's hand-over are handed to it once the page is idle, or left: offline.js keepFetched)."""
    origin = page.evaluate("location.origin")
    # a page is kept under its index.html, and a query is not part of what is kept
    wanted = {path: origin + path.split("?")[0] + ("index.html" if path.split("?")[0].endswith("/") else "")
              for path in paths}
    deadline = time.monotonic() + timeout_s

    def missing() -> list[str]:
        kept = set(page.evaluate(KEPT_FILES))
        return sorted(path for path, url in wanted.items() if url not in kept)

    while not_yet := missing():
        assert time.monotonic() < deadline, f"not kept offline after {timeout_s:g} s: {not_yet}"
        page.wait_for_timeout(200)


# The two screens every layout test of the course looks at: a cheap phone held in the hand, a laptop.
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
# an init script: the page sees a reader who asked the browser to save data (navigator.connection.saveData)
SAVE_DATA = "Object.defineProperty(navigator, 'connection', { value: { saveData: true } });"
