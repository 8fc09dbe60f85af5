"""Every part of every lesson on both screens the course is made for, a phone (360×740, touch)
and a laptop (1366×768), in light and dark (issue 22's acceptance): axe finds nothing serious or
critical, the page never scrolls sideways, and its layout shifts add up to at most 0.1 (Chromium's
layout-shift entries without recent input, as Lighthouse's CLS counts them, from navigation to
1.5 seconds after load, with Python held back so the page is in the state a reader on slow data
sees)."""

from __future__ import annotations

import json

import pytest

from support.a11y import serious_violations
from support.browser import LAPTOP, PHONE
from support.course import course_pages

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

PARTS = [path for path in course_pages() if path.startswith("/lessons/")]
WATCH_SHIFTS = """() => { window.shifts = 0;
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifts += entry.value; })
    .observe({ type: "layout-shift", buffered: true }); }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_every_part_passes_axe_fits_the_screen_and_holds_still(browser, site_url, screen, scheme):
    assert len(PARTS) >= 17  # every lesson's parts
    context = browser.new_context(**(PHONE if screen == "phone" else LAPTOP), color_scheme=scheme,
                                  service_workers="block")
    context.route("**/pyodide/**", lambda route: None)  # held back: Python still on its way
    page = context.new_page()
    found = {}
    for path in PARTS:
        page.goto(site_url + path)
        page.evaluate(WATCH_SHIFTS)
        page.wait_for_timeout(1500)
        shifts = page.evaluate("window.shifts")
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        violations = serious_violations(page)
        if shifts > 0.1 or wide > 0 or violations:
            found[path] = {"cls": round(shifts, 3), "wider_by": wide, "axe": violations}
    context.close()
    assert not found, json.dumps(found, ensure_ascii=False)
