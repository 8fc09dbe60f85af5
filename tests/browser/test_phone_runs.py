"""Tables of real runs on a phone (360×740, touch) and a laptop (1366×768): a table wider than its
column scrolls inside its box with the compared rows still named (the first column sticks), its
caption whole at the box's left, a shaded edge where it is cut, and the page itself never wider
than the screen."""

from __future__ import annotations

import pytest

from support.browser import LAPTOP, PHONE
from support.course import course_pages

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


TABLES = """() => [...document.querySelectorAll('.gpu-run-table-wrap')].map((wrap) => {
    const box = wrap.getBoundingClientRect();
    const caption = wrap.querySelector('caption');
    const cap = caption && caption.getBoundingClientRect();
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.scrollLeft = wrap.scrollWidth;  // to the far end: the compared columns
    const first = wrap.querySelector('tbody tr td:first-child, tbody tr th:first-child').getBoundingClientRect();
    const firstAtEnd = Math.round(first.left - wrap.getBoundingClientRect().left);
    const capAtEnd = caption && Math.round(caption.getBoundingClientRect().left - wrap.getBoundingClientRect().left);
    wrap.scrollLeft = 0;
    return {scrolls, firstAtEnd, capAtEnd, inBox: box.right <= document.documentElement.clientWidth + 1,
            captionWhole: !caption || (cap.width <= box.width + 1 && caption.scrollWidth <= caption.clientWidth + 1),
            cue: getComputedStyle(wrap).backgroundImage.includes('radial-gradient')};
})"""


@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_run_tables_scroll_in_their_box_with_the_rows_named_and_the_caption_whole(browser, site_url, device):
    context = browser.new_context(**device)
    page = context.new_page()
    seen = scrolling = 0
    for path in course_pages():
        page.goto(site_url + path)
        tables = page.evaluate(TABLES)
        seen += len(tables)
        for table in tables:
            assert table["inBox"] and table["captionWhole"] and table["cue"], (path, table)
            if table["scrolls"]:
                scrolling += 1
                assert -8 <= table["firstAtEnd"] <= 1, (path, table)  # the row names stay in sight
                assert table["capAtEnd"] is None or abs(table["capAtEnd"]) <= 1, (path, table)
        assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"], path
    assert seen >= 5 and scrolling >= 1  # some table is wider than the column on either device
    context.close()
