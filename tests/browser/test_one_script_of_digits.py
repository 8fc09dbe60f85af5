"""One script of digits for a Bangla reader: no number the course itself writes appears in Latin
digits. Scanned in the rendered pages (360×740, touch): every catalogue message as the page
formats it, the cells' status (the loader's progress, a run's time), the run tables, their
captions and provenance, the run charts' and figures' tick labels, the steppers' rows and notes
(written by each lesson's steppers.py), the home page's cards, and the lesson names. Code, cell output text and names such as fp16 or int8 are not numbers and stay
as written."""

from __future__ import annotations

import re

import pytest

from support.browser import PHONE, cell, wait_enhanced
from support.course import course_pages

pytestmark = pytest.mark.browser

# a number: Latin digits not inside a name (fp16, int8, L2, "16-bit" as the loaders call it;
# torch's "2.13.0+cpu" is code)
NUMBER = re.compile(r"(?<![A-Za-z_0-9.])[0-9]+(?:[.,][0-9]+)*(?![A-Za-z_0-9]|-bit)")

TEXT_MODULE = "document.querySelector('script[src$=\"assets/pathshala/site/offline.js\"]').src.replace('site/offline.js', 'lib/text.js')"
CATALOGUE = f"""async () => {{
    const {{ format, strings, loaderMessage }} = await import({TEXT_MODULE});
    const out = {{}};
    for (const key of Object.keys(strings)) {{
      const values = {{}};
      for (const [, name] of strings[key].matchAll(/\\{{(\\w+)\\}}/g)) values[name] = name === "seconds" ? (0.01).toFixed(2) : 11.9;
      out[key] = format(key, values);
    }}
    out["loader (core)"] = loaderMessage({{ phase: "core", loaded: 11.9e6, total: 19.9e6 }});
    out["loader (packages)"] = loaderMessage({{ phase: "packages", loaded: 3.1e6, total: 5.2e6, names: ["matplotlib"], helpers: 8 }});
    return out;
}}"""

# The text of what the platform draws on a page, with code and a cell's printed output left out.
UI_TEXT = """() => {
  const left_out = 'code, pre, kbd, .pycell-stream, .pycell-code, math, script, style';
  const text = (root) => {
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (el && !el.closest(left_out)) out.push(walker.currentNode.data);
    }
    return out.join(' ');
  };
  const parts = {};
  const add = (name, selector) => document.querySelectorAll(selector).forEach((el, i) => { parts[`${name} ${i}`] = text(el); });
  add('run table', '.gpu-run-table-wrap');
  add('provenance', '.gpu-run-provenance');
  add('run index', '[data-component="run-index"]');
  add('chart ticks', '.gpu-run-chart g[id^="xtick"], .gpu-run-chart g[id^="ytick"]');
  add('figure ticks', '.pycell-figure g[id^="xtick"], .pycell-figure g[id^="ytick"], .pz-explorable-figure g[id^="xtick"], .pz-explorable-figure g[id^="ytick"]');
  add('cell status', '.pycell [data-status]');
  add('stepper', '.pz-stepper');
  add('home', '[data-component="progress"] :is(.pz-lesson-number, .pz-lesson-facts, .pz-lesson-progress, [data-status])');
  add('navigation', '.md-nav__link .md-ellipsis, .md-header__topic');
  return parts;
}"""


def latin_numbers(parts: dict[str, str]) -> dict[str, list[str]]:
    return {name: found for name, text in parts.items() if (found := NUMBER.findall(text))}


def test_every_catalogue_message_shows_its_numbers_in_bangla_digits(browser, site_url):
    page = browser.new_context(**PHONE).new_page()
    page.goto(site_url + "/lessons/optimization/")
    wait_enhanced(page)
    messages = page.evaluate(CATALOGUE)
    assert len(messages) > 200
    assert latin_numbers(messages) == {}
    page.context.close()


@pytest.mark.parametrize("path", course_pages())
def test_no_number_the_page_draws_is_in_latin_digits(browser, site_url, path):
    page = browser.new_context(**PHONE).new_page()
    page.goto(site_url + path)
    wait_enhanced(page)
    assert latin_numbers(page.evaluate(UI_TEXT)) == {}
    page.context.close()


def test_a_run_says_how_long_it_took_and_python_loads_in_bangla_digits(browser, site_url):
    page = browser.new_context(**PHONE).new_page()
    # every status a cell shows from the first paint on: the loader's progress, then the run's time
    page.add_init_script("""window.__statuses = [];
        new MutationObserver(() => document.querySelectorAll('.pycell [data-status]').forEach(
            (el) => window.__statuses.push(el.textContent))).observe(document, { subtree: true, childList: true, characterData: true });""")
    page.goto(site_url + "/lessons/optimization/")
    wait_enhanced(page)
    first = page.locator(".pycell[data-cell-id]").first.get_attribute("data-cell-id")
    cell(page, first).locator('[data-action="run"]').click()
    page.wait_for_function("(id) => document.querySelector(`[data-cell-id='${id}']`).dataset.state === 'done'",
                           arg=first, timeout=120_000)
    statuses = set(page.evaluate("window.__statuses"))
    assert any("সেকেন্ড" in status for status in statuses)  # the run's time was shown
    assert latin_numbers({status: status for status in statuses}) == {}
    page.context.close()


def test_the_loader_names_the_package_the_code_imports_and_counts_the_rest(browser, site_url):
    """matplotlib needs ten other packages (pyparsing, kiwisolver, ...): the reader is told of the
    ones their code imports and how many those bring, each number in Bangla digits."""
    page = browser.new_context(**PHONE).new_page()
    page.add_init_script("""window.__statuses = [];
        new MutationObserver(() => document.querySelectorAll('.pycell [data-status]').forEach(
            (el) => window.__statuses.push(el.textContent))).observe(document, { subtree: true, childList: true, characterData: true });""")
    page.goto(site_url + "/lessons/optimization/landscape/")  # its first cell draws with matplotlib
    wait_enhanced(page)
    first = page.locator(".pycell[data-cell-id]").first
    assert "matplotlib" in first.locator("[data-editor] pre").inner_text()
    first.locator('[data-action="run"]').click()
    page.wait_for_function("(el) => el.dataset.state === 'done'", arg=first.element_handle(), timeout=180_000)
    statuses = set(page.evaluate("window.__statuses"))
    # the page's code imports NumPy and matplotlib: one line names the bigger, the rest are counted
    loading = [status for status in statuses
               if re.match(r"^(matplotlib|numpy) \(সঙ্গে আরও [০-৯]+টি সহায়ক প্যাকেজ\) লোড হচ্ছে", status)]
    assert loading, statuses
    helpers = ("pyparsing", "kiwisolver", "contourpy", "cycler", "dateutil", "pytz", "six", "Pillow", "fonttools")
    assert not [status for status in statuses if any(name in status for name in helpers)]
    assert latin_numbers({status: status for status in statuses}) == {}
    page.context.close()
