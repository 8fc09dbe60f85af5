"""Moving between lessons with mkdocs-material's instant navigation: one page load and one
Python worker for the whole visit, sessions that stay on their own page, and runs the reader left
behind that never block the next page."""

from __future__ import annotations

import pytest

from support.browser import cell, output_snapshot, replace_code, run_cell, wait_components, wait_enhanced, wait_state
from support.worker_probe import python_workers

pytestmark = pytest.mark.browser

# Set on window before a link is clicked: it survives only if the page was swapped, not reloaded.
MARK = "() => { window.__samePageLoad = true; }"
SAME_LOAD = "() => window.__samePageLoad === true"


def follow_nav_link(page, path_suffix):
    """Click the sidebar link whose address ends with path_suffix; wait for the new page's cells.
    The link may sit in a collapsed section of the sidebar: the click event is dispatched to it
    directly, which is what the theme's navigation listens for."""
    swapped_out = page.locator("article").element_handle()
    page.locator(f'.md-sidebar--primary a.md-nav__link[href$="{path_suffix}"]').first.dispatch_event("click")
    page.wait_for_url(f"**/{path_suffix}")
    wait_swapped(page, swapped_out)


def wait_swapped(page, old_article):
    """The address changes before the new content arrives: wait for the old article to go."""
    page.wait_for_function("(article) => !article.isConnected", arg=old_article)
    wait_enhanced(page)


def test_next_lesson_reuses_the_loaded_python(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})  # the navigation sidebar is visible
    workers = python_workers(page)
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-numpy") == "done"
    page.evaluate(MARK)

    follow_nav_link(page, "lessons/optimization/")
    assert page.evaluate(SAME_LOAD), "the link reloaded the page instead of swapping it"
    first = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    before = output_snapshot(page, first)
    assert run_cell(page, first) == "done"
    assert output_snapshot(page, first) == before
    assert len(workers) == 1, "a second Python worker was started for the next lesson"

    swapped_out = page.locator("article").element_handle()
    page.go_back()  # the browser's Back button is a swap too, and the old page works again
    page.wait_for_url("**/demo/")
    wait_swapped(page, swapped_out)
    assert page.evaluate(SAME_LOAD)
    assert run_cell(page, "demo-numpy") == "done"
    assert len(workers) == 1
    assert not page.js_errors


def test_a_session_name_belongs_to_its_page(page, site_url, built_site):
    """numerical-stability runs all its cells in session "ns"; the guide has its own "ns" cells.
    After the lesson's cells ran, the guide's cells still print exactly their build output."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "/lessons/numerical-stability/")
    wait_enhanced(page)
    for cell_id in page.locator(".pycell[data-cell-id]").evaluate_all("cells => cells.map((c) => c.dataset.cellId)")[:3]:
        assert run_cell(page, cell_id) in ("done", "error")
    page.evaluate(MARK)

    follow_nav_link(page, "guide/")
    assert page.evaluate(SAME_LOAD)
    for cell_id in ("guide-session-first", "guide-session-second"):
        before = output_snapshot(page, cell_id)
        assert run_cell(page, cell_id) == "done"
        assert output_snapshot(page, cell_id) == before, f"{cell_id} saw another page's variables"
    assert "'total'" in cell(page, "guide-session-second").locator("[data-output]").inner_text()


def test_a_runaway_cell_left_behind_does_not_block_the_next_page(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    assert run_cell(page, "demo-numpy") == "done"
    replace_code(page, "demo-numpy", "while True:\n    pass")
    cell(page, "demo-numpy").locator('[data-action="run"]').click()
    wait_state(page, "demo-numpy", states=("running",))
    replace_code(page, "demo-streams", "print('queued behind the loop')")
    cell(page, "demo-streams").locator('[data-action="run"]').click()
    wait_state(page, "demo-streams", states=("queued",))

    follow_nav_link(page, "lessons/optimization/")
    first = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    before = output_snapshot(page, first)
    assert run_cell(page, first, timeout=30_000) == "done"
    assert output_snapshot(page, first) == before
    assert "queued behind the loop" not in page.locator("body").inner_text()


def test_a_run_left_while_python_loads_is_skipped_and_the_download_kept(page, site_url):
    """Run, then leave before Python is ready (seconds on a first visit): the run is cancelled
    before it starts, and the same worker finishes loading for the next page. The test decides
    when Python is ready, not the machine's speed: the staged Pyodide's manifest (the worker's
    first file) is held back until the page has been left."""
    page.set_viewport_size({"width": 1280, "height": 900})
    workers = python_workers(page)
    held = []
    page.route("**/pyodide/pathshala-manifest.json", lambda route: held.append(route))
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-numpy", "print('left behind')")
    cell(page, "demo-numpy").locator('[data-action="run"]').click()
    follow_nav_link(page, "lessons/optimization/")
    assert cell(page, "demo-numpy").count() == 0 and len(held) == 1  # left while Python was loading
    held[0].continue_()
    first = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    before = output_snapshot(page, first)
    assert run_cell(page, first) == "done"
    assert output_snapshot(page, first) == before
    assert len(workers) == 1, "the loading worker was thrown away"
    assert not page.js_errors


ENHANCED = """() => [...document.querySelectorAll('[data-enhanced]')]
    .map((el) => `${el.dataset.component || 'cell'}:${el.dataset.id || el.dataset.cellId || ''}`).sort()"""


def test_a_swapped_in_page_gets_every_component_a_loaded_page_gets(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + "/guide/")
    wait_components(page)
    loaded = page.evaluate(ENHANCED)
    assert {entry.split(":")[0] for entry in loaded} >= {"cell", "mcq", "ordering", "predict", "exercise", "stepper",
                                                         "explorable", "reveal", "complete", "glossary-term"}

    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    page.evaluate(MARK)
    follow_nav_link(page, "guide/")
    assert page.evaluate(SAME_LOAD)
    wait_components(page)
    assert page.evaluate(ENHANCED) == loaded
    # and they work: an answer is checked, an exercise's solution passes its checks in Python
    mcq = page.locator('[data-component="mcq"][data-id="guide-mcq"]')
    mcq.locator('input[type="radio"]').nth(int(mcq.get_attribute("data-answer"))).check()
    mcq.locator('[data-action="check"]').click()
    assert mcq.get_attribute("data-state") == "correct"
    exercise = page.locator('[data-component="exercise"][data-id="guide-ex-lr"]')
    editor = exercise.locator(".pycell").get_attribute("data-cell-id")
    replace_code(page, editor, "w = 4.0\nlr = 0.5\nw = w - lr * 2 * w\nprint(w)\n")
    exercise.locator('[data-action="check"]').click()
    page.wait_for_function("(el) => ['passed', 'failed', 'idle'].includes(el.dataset.state)",
                           arg=exercise.element_handle(), timeout=90_000)
    assert exercise.get_attribute("data-state") == "passed"
    assert not page.js_errors


@pytest.mark.no_python
def test_a_link_under_the_pointer_is_fetched_before_the_click(page, site_url):
    page.goto(site_url + "/lessons/optimization/practice/")  # the lesson's last part: "next" is lesson 2
    wait_enhanced(page)
    with page.expect_request(lambda request: request.url.endswith("/lessons/numerical-stability/")):
        page.locator("a.md-footer__link--next").hover()


def test_instant_navigation_works_from_a_sub_path(browser, course_server):
    """The sitemap the theme needs is answered with this host's addresses (no site_url)."""
    _, course = course_server
    context = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(course + "/lessons/optimization/practice/")  # the lesson's last part: "next" is lesson 2
    wait_enhanced(page)
    page.evaluate(MARK)
    swapped_out = page.locator("article").element_handle()
    page.locator("a.md-footer__link--next").click()  # the "next lesson" link at the page's foot
    page.wait_for_url(course + "/lessons/numerical-stability/")
    wait_swapped(page, swapped_out)
    assert page.evaluate(SAME_LOAD)
    first = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    assert run_cell(page, first) == "done"
    context.close()


# Logs every address set on a link of the head, with the script that set it (none: a callback).
HEAD_LINK_SETS = """(() => {
  window.__headLinkSets = [];
  const href = Object.getOwnPropertyDescriptor(HTMLLinkElement.prototype, "href");
  Object.defineProperty(HTMLLinkElement.prototype, "href", { ...href, set(value) {
    if (this.parentNode === document.head) window.__headLinkSets.push(document.currentScript?.src ?? "");
    href.set.call(this, value);
  } });
})()"""


@pytest.mark.no_python
def test_the_theme_finds_the_heads_links_absolute_and_leaves_them(browser, site_url):
    """The theme's bundle makes every relative address absolute by setting it again; a stylesheet
    set again is read again and the whole page styled and laid out again (site/theme-requests.js
    sets the head's links first, before the first layout): the bundle sets none."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(HEAD_LINK_SETS)
    page = context.new_page()
    page.goto(site_url + "/lessons/optimization/")
    wait_enhanced(page)
    sets = page.evaluate("() => window.__headLinkSets")
    assert [script for script in sets if "/assets/javascripts/bundle." in script] == []
    assert len(sets) >= 3  # this course's: the stylesheets at least
    hrefs = page.evaluate("() => [...document.head.querySelectorAll('link[href]')].map((link) => link.getAttribute('href'))")
    assert all(href.startswith("http") for href in hrefs), hrefs
    context.close()


# Logs each change of the theme's palette mark on <body>: (old value, new value).
PALETTE_MARKS = """(() => {
  window.__paletteMarks = [];
  new MutationObserver((records) => {
    for (const record of records) if (record.target === document.body) {
      window.__paletteMarks.push([record.oldValue, document.body.getAttribute("data-md-color-switching")]);
    }
  }).observe(document, { attributes: true, attributeOldValue: true, subtree: true, attributeFilter: ["data-md-color-switching"] });
})()"""


@pytest.mark.no_python
def test_the_theme_finds_the_body_marked_for_its_palette_and_unmarks_it(browser, site_url):
    """The theme's palette marks <body> while it applies the colours at load; each change of the
    mark restyles the whole page. The built page comes marked (ship/writer.py), so the theme's own
    mark changes nothing (the old value is already ""), and the theme still removes it after."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(PALETTE_MARKS)
    page = context.new_page()
    page.goto(site_url + "/lessons/optimization/")
    wait_enhanced(page)
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
    marks = page.evaluate("() => window.__paletteMarks")
    assert marks[0] == ["", ""], marks  # the theme's setting: already there
    assert marks[-1] == ["", None], marks  # and its removal: transitions back on
    assert all(old is not None for old, _ in marks), marks  # never set where it was not
    context.close()


# Logs every element a script puts straight into the lesson's article once the page is parsed.
ARTICLE_INSERTS = """(() => {
  window.__articleInserts = [];
  new MutationObserver((records) => {
    if (document.readyState === "loading") return; // the parser's own
    for (const record of records) {
      if (!record.target.matches?.("article.md-content__inner")) continue;
      for (const node of record.addedNodes) if (node.nodeType === 1) window.__articleInserts.push(node.outerHTML.slice(0, 80));
    }
  }).observe(document, { childList: true, subtree: true });
})()"""


@pytest.mark.no_python
def test_nothing_is_put_straight_into_the_lesson_at_load(browser, site_url):
    """The theme's table wrapper and Run all's controls fill blocks of their own
    (render/own_blocks.py): a child put into the article restyles the whole lesson."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(ARTICLE_INSERTS)
    page = context.new_page()
    page.goto(site_url + "/lessons/vanishing-gradients/")  # a table and several cells
    wait_enhanced(page)
    page.wait_for_selector("[data-page-controls-slot] > [data-page-controls]", state="attached")
    page.wait_for_selector(".pz-table > .md-typeset__scrollwrap table", state="attached")
    assert page.evaluate("() => window.__articleInserts") == []
    context.close()


# Logs every time a lesson visit is stored (cells/run-log.js followTrail: one piece of a page's load work).
VISITS_STORED = """(() => {
  window.__visitsStored = [];
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (String(key).includes(":visit:")) window.__visitsStored.push(String(key));
    return setItem.call(this, key, value);
  };
})()"""


@pytest.mark.no_python
def test_a_pages_load_work_runs_once_and_again_for_each_page_swapped_in(browser, site_url):
    """Each script deals at load with the page it came with; the theme's document$ replays that page to
    every subscriber, and the subscribers are for the pages instant navigation swaps in
    (lib/dom.js onSwappedPage): answering the replay did every page's load work twice."""
    context = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
    context.add_init_script(VISITS_STORED)
    page = context.new_page()
    page.goto(site_url + "/lessons/optimization/")
    wait_enhanced(page)
    page.wait_for_timeout(300)  # the theme's replay comes with DOMContentLoaded, before load: time to spare
    assert len(page.evaluate("() => window.__visitsStored")) == 1
    page.evaluate(MARK)
    follow_nav_link(page, "lessons/optimization/landscape/")
    assert page.evaluate(SAME_LOAD)
    assert len(page.evaluate("() => window.__visitsStored")) == 2  # the swapped-in part's visit
    context.close()
