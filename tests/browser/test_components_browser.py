"""Lesson components in real Chromium, against the authoring guide (site/guide/index.md)."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import expect

from support.course import course_pages
from support.a11y import serious_violations
from support.browser import cell, component as comp, editor_text, replace_code, wait_enhanced
from support.site import ROOT
from py_lessons.runtime import steppers

pytestmark = pytest.mark.browser

GUIDE = "/guide/"


def open_guide(page, site_url):
    page.goto(site_url + GUIDE)
    page.wait_for_selector('[data-component="stepper"][data-enhanced]')
    page.wait_for_selector('[data-component="ordering"][data-enhanced]')


def namespace(built_site):
    text = (built_site / "assets" / "pathshala" / "site.js").read_text(encoding="utf-8")
    return re.search(r'storageNamespace = "([^"]+)"', text)[1]


def visible_rows(stepper):
    return stepper.evaluate("(root) => [...root.querySelectorAll('[data-row]')].filter((r) => !r.hidden).length")


@pytest.mark.no_python
def test_stepper_reveals_rows_with_buttons_and_arrow_keys(page, site_url):
    open_guide(page, site_url)
    stepper = comp(page, "stepper", "guide-sigmoid")
    total = len(steppers.run_stepper("sigmoid_chain")["steps"])
    assert stepper.get_attribute("data-step") == "1" and visible_rows(stepper) == 1
    assert stepper.get_attribute("data-state") == "partial"
    stepper.locator('[data-action="next"]').click()
    assert visible_rows(stepper) == 2
    page.keyboard.press("ArrowRight")
    assert stepper.get_attribute("data-step") == "3"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # stays at the first row
    assert stepper.get_attribute("data-step") == "1"
    stepper.locator('[data-action="all"]').click()
    assert visible_rows(stepper) == total and stepper.get_attribute("data-state") == "complete"
    assert not page.js_errors


@pytest.mark.no_python
def test_a_stepper_is_built_as_its_script_starts_it_so_nothing_moves_when_the_script_runs(browser, site_url):
    """Issue 23: a page's scripts run after its first paint on a slow phone; a stepper built
    with every row showing shrank by a screen or more when its script rewound it to the first."""
    heights = {}
    for scripted in (False, True):
        context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
        if not scripted:
            context.route("**/components/stepper.js", lambda route: route.abort())
        page = context.new_page()
        page.goto(site_url + GUIDE)
        if scripted:
            page.wait_for_selector('[data-component="stepper"][data-enhanced]')
        else:
            page.wait_for_load_state("load")
        stepper = comp(page, "stepper", "guide-sigmoid")
        heights[scripted] = (stepper.evaluate("(root) => root.getBoundingClientRect().height"), visible_rows(stepper),
                             stepper.locator("[data-position]").text_content())
        context.close()
    assert heights[False] == heights[True], heights
    assert heights[True][1] == 1


def _rows(stepper):
    """Every row of the stepper's calculation, those still inert (a later row, until stepped to) too."""
    return stepper.evaluate("""(root) => [...root.querySelectorAll('[data-row]'), ...[...root.querySelectorAll('template')]
        .flatMap((t) => [...t.content.querySelectorAll('[data-row]')])].map((r) =>
        [r.querySelector('.pz-step-calc').textContent, r.querySelector('.pz-step-result').textContent])""")


def test_editable_stepper_recomputes_with_the_same_function_in_pyodide(page, site_url):
    open_guide(page, site_url)
    stepper = comp(page, "stepper", "guide-clip")
    stepper.locator('input[name="grad"]').fill("5, 12, 84")
    stepper.locator('input[name="max_norm"]').fill("17")
    stepper.locator('[data-action="recompute"]').click()
    page.wait_for_function("(el) => el.dataset.state !== 'computing'", arg=stepper.element_handle(), timeout=120_000)
    expected = steppers.run_stepper("norm_clip", grad="5, 12, 84", max_norm="17", clip_value="2", eps="1e-06")
    assert stepper.get_attribute("data-state") == "partial"
    assert _rows(stepper) == [[s["calculation"], s["result"]] for s in expected["steps"]]
    assert visible_rows(stepper) == 1
    # a bad value is reported with the stepper's own (Bangla) message
    stepper.locator('input[name="max_norm"]').fill("-4")
    stepper.locator('[data-action="recompute"]').click()
    page.wait_for_function("(el) => el.dataset.state === 'error'", arg=stepper.element_handle(), timeout=60_000)
    with pytest.raises(steppers.InputError) as info:
        steppers.run_stepper("norm_clip", max_norm="-4")
    assert str(info.value) in stepper.locator("[data-status]").inner_text()
    stepper.locator('[data-action="reset"]').click()
    assert stepper.locator('input[name="max_norm"]').input_value() == "5"
    assert _rows(stepper)[1][1] == steppers.run_stepper("norm_clip", grad=[6, 8], max_norm=5)["steps"][1]["result"]
    assert not page.js_errors


@pytest.mark.no_python
def test_mcq_wrong_answer_explains_then_retry_and_persist(page, site_url):
    open_guide(page, site_url)
    mcq = comp(page, "mcq", "guide-mcq")
    answer = int(mcq.get_attribute("data-answer"))
    wrong = 1 if answer != 1 else 2
    mcq.locator('[data-action="check"]').click()
    assert mcq.get_attribute("data-state") == "unanswered"
    mcq.locator('input[type="radio"]').nth(wrong).check()
    mcq.locator('[data-action="check"]').click()
    assert mcq.get_attribute("data-state") == "wrong"
    explanation = mcq.locator(f'[data-explain-for="{wrong}"]').text_content().strip()
    assert explanation in mcq.locator("[data-feedback]").inner_text()
    assert mcq.locator("[data-feedback]").get_attribute("aria-live") == "polite"
    mcq.locator('[data-action="retry"]').click()
    assert mcq.get_attribute("data-state") == "unanswered"
    mcq.locator('input[type="radio"]').nth(answer).check()
    mcq.locator('[data-action="check"]').click()
    assert mcq.get_attribute("data-state") == "correct"
    # kept for a teacher's class page: the first answer and the number of checks, through "try again"
    assert _saved(page, "mcq", "guide-mcq") == {"choice": answer, "first": wrong, "tries": 2}
    page.reload()
    open_guide(page, site_url)
    assert comp(page, "mcq", "guide-mcq").get_attribute("data-state") == "correct"
    assert comp(page, "mcq", "guide-mcq").locator('input[type="radio"]').nth(answer).is_checked()


def _saved(page, kind, component_id):
    """A component's stored record (lib/store.js's item), parsed."""
    return page.evaluate("""([kind, id]) => {
        const key = Object.keys(localStorage).find((k) => k.endsWith(`:${kind}:${location.pathname}:${id}`));
        return key ? JSON.parse(localStorage.getItem(key)) : null; }""", [kind, component_id])


@pytest.mark.no_python
def test_an_answer_kept_before_first_answers_were_keeps_them_unknown(page, site_url, built_site):
    open_guide(page, site_url)
    mcq = comp(page, "mcq", "guide-mcq")
    answer = int(mcq.get_attribute("data-answer"))
    page.evaluate("""([ns, id]) => localStorage.setItem(`${ns}:mcq:${location.pathname}:${id}`, JSON.stringify({choice: 0}))""",
                  [namespace(built_site), "guide-mcq"])
    page.reload()
    open_guide(page, site_url)
    mcq = comp(page, "mcq", "guide-mcq")
    mcq.locator('input[type="radio"]').nth(answer).check()
    mcq.locator('[data-action="check"]').click()
    # its first answer is not this one: unknown it stays, never guessed
    assert _saved(page, "mcq", "guide-mcq") == {"choice": answer, "first": None, "tries": None}


def _order(ordering):
    return ordering.evaluate("(root) => [...root.querySelectorAll('li')].map((li) => Number(li.dataset.item))")


@pytest.mark.no_python
def test_ordering_with_buttons_and_keyboard_then_persist(page, site_url):
    open_guide(page, site_url)
    ordering = comp(page, "ordering", "guide-order")
    n = len(_order(ordering))
    shuffled = _order(ordering)
    ordering.locator('[data-action="check"]').click()
    assert ordering.get_attribute("data-state") == "wrong"
    for target in range(n):
        while _order(ordering).index(target) > target:
            item = ordering.locator(f'li[data-item="{target}"]')
            if target % 2:  # alternate mouse and keyboard
                item.locator('[data-action="up"]').click()
            else:
                item.locator('[data-action="up"]').focus()
                page.keyboard.press("Alt+ArrowUp")
    assert _order(ordering) == list(range(n))
    ordering.locator('[data-action="check"]').click()
    assert ordering.get_attribute("data-state") == "correct"
    assert _saved(page, "ordering", "guide-order") == {"order": list(range(n)), "checked": True, "first": shuffled, "tries": 2}
    assert ordering.locator('[data-explain-for="all"]').text_content().strip() in ordering.locator("[data-feedback]").inner_text()
    page.reload()
    open_guide(page, site_url)
    assert _order(comp(page, "ordering", "guide-order")) == list(range(n))
    assert comp(page, "ordering", "guide-order").get_attribute("data-state") == "correct"


@pytest.mark.no_python
def test_reveal_opens_with_keyboard(page, site_url):
    open_guide(page, site_url)
    reveal = comp(page, "reveal", "guide-think")
    answer = reveal.locator(".pz-answer-body")
    assert not answer.is_visible()
    reveal.locator('[data-action="solution"]').focus()
    page.keyboard.press("Enter")
    expect(reveal).to_have_attribute("data-state", "open")
    assert answer.is_visible()
    page.keyboard.press("Enter")
    expect(reveal).to_have_attribute("data-state", "closed")


@pytest.mark.no_python
def test_complete_shows_on_home_progress(page, site_url):
    # the guide has a stamp too, but it is not a lesson: the home page counts lessons only
    page.goto(site_url + "/lessons/optimization/practice/")  # the lesson's last part has its stamp
    page.wait_for_selector('[data-component="complete"][data-enhanced]')
    stamp = page.locator('[data-component="complete"]')
    lesson_id = stamp.get_attribute("data-id")
    stamp.locator('[data-action="complete"]').click()
    assert stamp.get_attribute("data-state") == "complete"
    assert stamp.locator('[data-action="complete"]').get_attribute("aria-pressed") == "true"
    page.goto(site_url + "/")
    progress = page.locator('[data-component="progress"]')
    page.wait_for_selector('[data-component="progress"][data-enhanced]')
    lessons = progress.locator("[data-lesson]")
    assert progress.locator(f'[data-lesson="{lesson_id}"]').get_attribute("data-state") == "complete"
    assert progress.get_attribute("data-done") == "1"
    # the course's one figure counts the finished lesson whole, as its card does
    cards = [(len((card.get_attribute("data-cells") or "").split()) + len((card.get_attribute("data-questions") or "").split()),
              card.get_attribute("data-state") == "complete") for card in lessons.all()]
    expected = math.floor(100 * sum(items for items, done in cards if done) / sum(items for items, _ in cards) + 0.5)
    assert progress.locator(":scope > progress").evaluate("(p) => p.value") == expected > 0
    assert progress.get_attribute("data-progress") == str(expected)
    assert progress.locator('[data-lesson="guide"]').count() == 0
    assert lessons.count() == int(progress.get_attribute("data-total"))


@pytest.mark.no_python
def test_corrupt_storage_falls_back_to_defaults(page, site_url, built_site):
    ns = namespace(built_site)
    page.add_init_script(f"""(() => {{
        const ns = {ns!r};
        localStorage.setItem(ns + ':mcq:/guide/:guide-mcq', '{{not json');
        localStorage.setItem(ns + ':ordering:/guide/:guide-order', JSON.stringify({{order: [1, 1, 0, 2], checked: true}}));
        localStorage.setItem(ns + ':complete:guide', '"yes"');
        localStorage.setItem(ns + ':cell:/guide/:guide-tabs-py', '42');
    }})()""")
    open_guide(page, site_url)
    wait_enhanced(page)
    assert comp(page, "mcq", "guide-mcq").get_attribute("data-state") == "unanswered"
    assert comp(page, "ordering", "guide-order").get_attribute("data-state") == "unanswered"
    assert page.locator('[data-component="complete"]').get_attribute("data-state") == "incomplete"
    assert "w = 4.0" in editor_text(page, "guide-tabs-py")
    assert not page.js_errors


@pytest.mark.no_python
def test_components_work_when_storage_throws(page, site_url):
    stacks = []
    page.on("pageerror", lambda exc: stacks.append(exc.stack or ""))
    page.add_init_script("Object.defineProperty(window, 'localStorage', { get() { throw new Error('denied'); } });")
    open_guide(page, site_url)
    mcq = comp(page, "mcq", "guide-mcq")
    mcq.locator('input[type="radio"]').nth(int(mcq.get_attribute("data-answer"))).check()
    mcq.locator('[data-action="check"]').click()
    assert mcq.get_attribute("data-state") == "correct"
    page.locator('[data-component="complete"] [data-action="complete"]').click()
    assert page.locator('[data-component="complete"]').get_attribute("data-state") == "complete"
    # the theme's own scripts may complain about storage; ours must not
    assert not [stack for stack in stacks if "/assets/pathshala/" in stack], stacks


def test_cell_edits_persist_until_reset(page, site_url):
    open_guide(page, site_url)
    wait_enhanced(page)
    replace_code(page, "guide-tabs-py", "print('edited here')")
    page.wait_for_timeout(200)
    page.reload()
    wait_enhanced(page)
    assert "edited here" in editor_text(page, "guide-tabs-py")  # shown before the editor loads
    cell(page, "guide-tabs-py").locator('[data-action="reset"]').click()
    assert "w = 4.0" in editor_text(page, "guide-tabs-py")
    page.reload()
    wait_enhanced(page)
    assert "w = 4.0" in editor_text(page, "guide-tabs-py")


@pytest.mark.no_python
def test_code_tabs_python_runnable_and_go_highlighted(page, site_url):
    open_guide(page, site_url)
    tabs = page.locator('[data-component="code-tabs"][data-id="guide-tabs"]')
    assert tabs.locator('[data-cell-id="guide-tabs-py"]').count() == 1
    go_keyword = tabs.locator(".tabbed-block .highlight .kn", has_text="package")
    assert go_keyword.count() == 0  # a tab not shown is inert until chosen (render/deferred.py)
    tabs.locator("label", has_text="Go").click()
    assert go_keyword.count() == 1 and go_keyword.is_visible()
    assert not tabs.locator('[data-cell-id="guide-tabs-py"]').is_visible()


@pytest.mark.no_python
def test_glossary_tooltip_on_focus_and_page_list(page, site_url):
    open_guide(page, site_url)
    term = page.locator('[data-component="glossary-term"][data-id="gradient"]').first
    tip = page.locator("#" + term.get_attribute("aria-describedby"))
    assert not tip.is_visible()
    term.focus()
    assert tip.is_visible()
    from py_lessons.plugin.render import glossary
    terms = glossary.load(ROOT / "site" / "glossary.yml")
    listing = page.locator('[data-component="glossary-list"]')
    assert listing.evaluate("(el) => el.open") is False  # folded at the page's end, one tap opens it
    listing.locator("summary").click()
    listed = listing.locator("dt").all_inner_texts()
    assert listed == [terms[k]["term"] for k in ("gradient", "learning-rate", "norm", "gradient-clipping")]
    term.click()  # instant navigation: the address changes first, then the glossary arrives
    page.wait_for_url(re.compile(r"/glossary/#term-gradient$"))
    page.locator("#term-gradient").wait_for(state="visible")  # times out (fails) if it never shows


@pytest.mark.no_python
def test_formulas_are_rendered_at_build_time_once_as_mathml(page, site_url, built_site):
    """One rendering per formula (issue 23): MathML, which the browser lays out itself in the
    site's math font; KaTeX's HTML copy and its stylesheet are gone."""
    html = (built_site / "guide" / "index.html").read_text(encoding="utf-8")
    assert "<math" in html and 'class="arithmatex"' not in html
    assert "katex" not in html and "<annotation" not in html
    open_guide(page, site_url)
    display = page.locator('.pz-math-display > math[display="block"]')
    assert display.count() >= 1
    box = display.first.bounding_box()
    assert box["height"] > 20 and box["width"] > 20  # laid out as maths, not an unknown inline tag
    assert page.evaluate("getComputedStyle(document.querySelector('math')).fontFamily").startswith('"Pathshala Math"')
    page.evaluate("document.fonts.ready")
    assert page.evaluate("document.fonts.check('16px \"Pathshala Math\"', '∑')")
    fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert not [url for url in fetched if "katex" in url]
    assert not [url for url in fetched if url.startswith("http") and not url.startswith(site_url)]
    assert serious_violations(page) == []


@pytest.mark.no_python
def test_search_finds_a_bangla_word(page, site_url):
    page.goto(site_url + "/")
    page.locator("input.md-search__input").click()
    page.keyboard.type("এলোমেলো", delay=30)
    # Bangla letters arrive as text input without key events; the theme searches on keyup.
    page.keyboard.press("End")
    # The result list is re-rendered while results arrive: read it in one go, in the page.
    found = page.wait_for_function(
        "() => [...document.querySelectorAll('.md-search-result__link')].some((a) => a.href.includes('/guide/'))",
        timeout=30_000)
    assert found.json_value()  # the guide's Bangla word is found


def _pages(built_site):
    return sorted("/" + p.relative_to(built_site).as_posix().removesuffix("index.html")
                  for p in built_site.rglob("*.html") if "pyodide" not in p.parts and p.name != "404.html")


def test_the_checks_of_every_page_cover_every_built_page(built_site):
    assert course_pages() == _pages(built_site) and len(course_pages()) >= 8


@pytest.mark.no_python
@pytest.mark.parametrize("path", course_pages())
def test_axe_finds_no_serious_violations_on_any_page(page, site_url, path):
    """axe-core (npm, injected by the test only) on every whole page: theme, cells, components."""
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    page.wait_for_function("() => [...document.querySelectorAll('.pycell')].every((c) => c.hasAttribute('data-enhanced'))")
    found = serious_violations(page)
    assert not found, (path, found)


@pytest.mark.parametrize("path", course_pages())
@pytest.mark.no_python
def test_mobile_width_no_page_scroll_and_big_tap_targets(page, site_url, path):
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360, wide
    small = page.evaluate("""() => [...document.querySelectorAll(
        ':is(.pz-stepper, .pz-quiz, .pz-reveal, .pz-complete, .pz-progress) :is(button, summary, input[type=text], .pz-choice), .pycell-button')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => [el.dataset.action || el.name || el.className, el.getBoundingClientRect()])
        .filter(([, r]) => r.width < 40 || r.height < 40).map(([name, r]) => [name, r.width, r.height])""")
    assert not small, small
