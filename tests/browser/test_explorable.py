"""Explorable figures in Chromium: the keyboard moves a slider, the page's Pyodide redraws the
figure, and the page's SVG is the one the build's runner draws for that value; a burst of changes
draws at most a few times and ends on the last value; a Python error keeps the figure and says
why in Bangla. The expected SVGs come from PyodideRunner on the built site's own Pyodide."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from support.explorable_site import explorable_site
from support.local_server import serve
from support.site import build_site
from py_lessons.plugin.execute.runner import PyodideRunner
from py_lessons.runtime import explorables

GUIDE = "/guide/"
ROOT_OF = '[data-component="explorable"][data-id="{}"]'
LR, STEPS = 'input[data-param="lr"]', 'input[data-param="steps"]'
GUIDE_STEPS = 8  # the guide's block sets values: {steps: 8}
BANGLA = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


@pytest.fixture(scope="module")
def runner(built_site):
    """The build's runner on the built site's Pyodide: what the build draws for given values."""
    started = PyodideRunner(built_site / "pyodide")
    yield started
    started.close()


def expected_svg(runner, root, function, **values) -> str:
    answer = runner.call("py_lessons.runtime.explorables", "render", {"name": function, **values},
                         root.get_attribute("data-imports"), 300)
    assert answer["ok"], answer
    return answer["value"]["svg"]


def open_explorable(page, url, explorable_id):
    page.goto(url)
    root = page.locator(ROOT_OF.format(explorable_id))
    page.wait_for_selector(ROOT_OF.format(explorable_id) + "[data-enhanced]")
    return root


def wait_drawn(page, root, values: dict, timeout=120_000):
    """Until the figure shows ``values`` and nothing more is being drawn."""
    page.wait_for_function("([el, values]) => el.dataset.state !== 'computing' && el.dataset.values === values",
                           arg=[root.element_handle(), json.dumps(values, separators=(",", ":"))], timeout=timeout)


def figure_markup(root) -> str:
    return root.locator("[data-figure]").inner_html()


def matches_in_page(page, root, svg: str) -> bool:
    """The page's figure equals ``svg`` once ``svg`` went through the page's own sanitizer
    (output.js) as the worker's figures do; the accessible name is the page's, not Python's."""
    return page.evaluate("""async ([el, markup]) => {
        const { sanitizeSvg } = await import(new URL('../assets/pathshala/cells/output.js', location.href).href);
        const shown = el.querySelector('[data-figure] svg').cloneNode(true);
        const expected = sanitizeSvg(markup);
        for (const svg of [shown, expected]) svg.removeAttribute('aria-label');
        return shown.outerHTML === expected.outerHTML;
    }""", [root.element_handle(), svg])


def test_the_build_draws_the_default_figure_as_the_runner_does(built_site, runner, page, site_url):
    root = open_explorable(page, site_url + GUIDE, "guide-lr")
    html = (built_site / "guide" / "index.html").read_text(encoding="utf-8")
    built = re.search(r'data-id="guide-lr".*?data-figure[^>]*>(<svg.*?</svg>\s*)</div>', html, re.S).group(1)
    default = expected_svg(runner, root, "learning_rate_path", lr=0.1, steps=GUIDE_STEPS)
    assert re.sub(r' aria-label="[^"]*"', "", built, count=1) == default


def test_a_slider_moved_with_the_keyboard_redraws_the_figure_as_the_build_would(page, site_url, runner, request_log):
    root = open_explorable(page, site_url + GUIDE, "guide-lr")
    built = figure_markup(root)
    slider = root.locator(LR)
    assert slider.get_attribute("aria-valuetext") == "০.১০"  # the default, 0.1, at the grid's two decimals

    slider.focus()
    page.keyboard.press("ArrowRight")  # 0.10 + one step of 0.05
    assert slider.get_attribute("aria-valuetext") == "০.১৫"
    assert root.locator('output[data-value-of="lr"]').inner_text() == "০.১৫"
    wait_drawn(page, root, {"lr": 0.15, "steps": GUIDE_STEPS})
    assert root.get_attribute("data-state") == "ready"
    assert figure_markup(root) != built
    assert matches_in_page(page, root, expected_svg(runner, root, "learning_rate_path", lr=0.15, steps=GUIDE_STEPS))

    page.keyboard.press("End")
    assert slider.get_attribute("aria-valuetext") == "১.০৫"
    wait_drawn(page, root, {"lr": 1.05, "steps": GUIDE_STEPS})
    assert matches_in_page(page, root, expected_svg(runner, root, "learning_rate_path", lr=1.05, steps=GUIDE_STEPS))
    label = root.locator("[data-figure] svg").get_attribute("aria-label")
    lr_label, steps_label = (param["label"] for param in explorables.describe("learning_rate_path")["params"])
    assert label.endswith(f"{lr_label} ১.০৫; {steps_label} {str(GUIDE_STEPS).translate(BANGLA)}")

    root.locator('[data-action="reset"]').click()  # the build's figure and values, without Python
    assert figure_markup(root) == built
    assert float(slider.input_value()) == 0.1 and slider.get_attribute("aria-valuetext") == "০.১০"
    assert root.get_attribute("data-state") == "ready"
    assert page.js_errors == []
    assert request_log.off_origin == []


def _width_pt(svg: str) -> float:
    return float(re.search(r'<svg [^>]*width="([0-9.]+)pt"', svg).group(1))


def test_the_page_draws_every_position_into_the_frame_the_build_gave_it(page, site_url):
    """The build's frame travels with the page (data-frame) and every redraw is cut to it: the
    picture keeps its size while the slider moves, and Python lays the labels out once."""
    root = open_explorable(page, site_url + GUIDE, "guide-lr")
    frame = json.loads(root.get_attribute("data-frame"))
    assert _width_pt(figure_markup(root)) == pytest.approx((frame[2] - frame[0]) * 72, abs=0.01)
    wider = [frame[0], frame[1], frame[2] + 1, frame[3]]  # one inch more on the right: the page's, not Python's own
    root.evaluate("(el, frame) => { el.dataset.frame = JSON.stringify(frame); }", wider)
    root.locator(LR).focus()
    page.keyboard.press("ArrowRight")
    wait_drawn(page, root, {"lr": 0.15, "steps": GUIDE_STEPS})
    assert _width_pt(figure_markup(root)) == pytest.approx((wider[2] - wider[0]) * 72, abs=0.01)


def test_a_burst_of_twenty_changes_draws_at_most_three_times_and_ends_on_the_last(page, site_url, runner):
    root = open_explorable(page, site_url + GUIDE, "guide-lr")
    root.locator(LR).focus()
    for key in ["ArrowRight"] * 18 + ["ArrowLeft"] * 2:  # 0.10 → 1.00 → 0.90
        page.keyboard.press(key)
        page.wait_for_timeout(80)  # longer than the debounce: each change asks for a drawing
    assert root.locator(LR).get_attribute("aria-valuetext") == "০.৯০"
    wait_drawn(page, root, {"lr": 0.9, "steps": GUIDE_STEPS})
    # while the first drawing waited for Python and matplotlib to load, the later values replaced
    # one another: the one drawn first, perhaps one in between, then the last
    assert 1 <= int(root.get_attribute("data-computations")) <= 3
    assert matches_in_page(page, root, expected_svg(runner, root, "learning_rate_path", lr=0.9, steps=GUIDE_STEPS))


def test_the_first_change_draws_at_once_and_a_burst_once_it_rests(page, site_url):
    """On the page's clock (Playwright's, moved by hand): the first change after a rest asks for a
    drawing at once; changes that follow within the debounce time are one more drawing, asked for
    once the slider has rested that long after the last of them."""
    page.clock.install()
    root = open_explorable(page, site_url + GUIDE, "guide-lr")
    root.locator(LR).focus()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # from here on, time moves only by hand
    asked = "() => window.__asked"
    root.evaluate("""(root) => { window.__asked = [];  // the slider's value each time a drawing starts
        new MutationObserver(() => { if (root.dataset.state === 'computing') window.__asked.push(root.querySelector('input[data-param="lr"]').value); })
          .observe(root, { attributes: true, attributeFilter: ['data-state'] }); }""")
    page.keyboard.press("ArrowRight")  # 0.10 -> 0.15: drawn at once, no waiting
    assert root.get_attribute("data-state") == "computing"
    page.keyboard.press("ArrowRight")  # 0.20, within the debounce time: waits for the rest
    page.clock.run_for(40)
    page.keyboard.press("ArrowRight")  # 0.25
    page.clock.run_for(40)  # 40 ms after the last change: still gathering
    page.clock.resume()
    wait_drawn(page, root, {"lr": 0.25, "steps": GUIDE_STEPS})
    # the leading value, then the last one (0.20 was replaced before it was asked for)
    assert int(root.get_attribute("data-computations")) == 2
    assert page.evaluate(asked)[0] == "0.15"


WAVE_PAGE = "# L\n\n```explorable\nid: wave\nfunction: wave\n```\n"


@pytest.fixture(scope="module")
def wave_url(tmp_path_factory):
    """A small site whose explorable raises for one value (tests/support/explorable_site.py)."""
    folder = tmp_path_factory.mktemp("wave")
    done = build_site(folder / "out", explorable_site(folder, WAVE_PAGE))
    assert done.returncode == 0, done.stderr[-3000:]
    server, url = serve(folder / "out")
    yield url
    server.shutdown()
    server.server_close()
    shutil.rmtree(folder, ignore_errors=True)


def test_a_python_error_keeps_the_figure_and_says_why_in_bangla(browser, wave_url):
    context = browser.new_context(service_workers="block")
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(wave_url) else route.abort())
    page = context.new_page()
    try:
        root = open_explorable(page, wave_url + "/lesson/", "wave")
        built = figure_markup(root)
        shift = root.locator('input[data-param="shift"]')
        assert shift.get_attribute("aria-valuetext") == "০.০০ রেডিয়ান"

        root.locator('input[data-param="cycles"]').focus()
        page.keyboard.press("End")  # 5: the function raises
        page.wait_for_function("(el) => el.dataset.state === 'error'", arg=root.element_handle(), timeout=120_000)
        status = root.locator('[role="status"]').inner_text()
        assert status.startswith("এই মানে চিত্র আঁকা গেল না, তাই আগের চিত্রটিই রাখা হলো। কারণ: ")
        assert "ValueError: পাঁচ বার ঘোরানো যাবে না" in status
        assert figure_markup(root) == built

        page.keyboard.press("ArrowLeft")  # 4 draws again
        wait_drawn(page, root, {"cycles": 4, "shift": 0})
        assert root.get_attribute("data-state") == "ready" and figure_markup(root) != built

        shift.focus()
        page.keyboard.press("ArrowLeft")
        assert shift.get_attribute("aria-valuetext") == "−০.২৫ রেডিয়ান"
        wait_drawn(page, root, {"cycles": 4, "shift": -0.25})
    finally:
        context.close()
