"""Figures are SVG markup from the worker, i.e. from any Python the reader runs: known ways to
smuggle script or requests through SVG, sent as figure items from a real cell in real Pyodide,
must reach the page harmless (output.js sanitizeSvg, DOMPurify), and a real figure must still show."""

from __future__ import annotations

import base64
import json

import pytest

from support.browser import cell, replace_code, run_cell, wait_enhanced

pytestmark = pytest.mark.browser

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="300" height="150"'
TARGET = '<rect width="300" height="150" fill="#ddd"/>'  # something to click and hover


def payloads(origin: str) -> dict[str, str]:
    """name -> an SVG fragment that, if it got through, would set ``top.__pwned_<name>`` (when
    loaded, clicked, hovered or animated) or request a URL with "evil" in it. A javascript: URL
    ends in void(...): a value would replace the page and take the marker with it."""
    script_svg = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" id="x">'
                                  b"<script>top.__pwned_datause=1</script></svg>").decode()
    return {
        "entity": f'<a xlink:href="&#106;avascript:void(top.__pwned_entity=1)">{TARGET}</a>',
        "tab": f'<a href="java&#x09;script:void(top.__pwned_tab=1)">{TARGET}</a>',
        "case": f'<a href="  JaVaScRiPt:void(top.__pwned_case=1)">{TARGET}</a>',
        "newline": f'<a xlink:href="java&#10;script:void(top.__pwned_newline=1)">{TARGET}</a>',
        "animate": f'<a>{TARGET}<animate attributeName="href" to="javascript:void(top.__pwned_animate=1)" '
                   'begin="0s" dur="0.1s" fill="freeze"/></a>',
        "set": f'<a>{TARGET}<set attributeName="xlink:href" to="java&#x0A;script:void(top.__pwned_set=1)" '
               'begin="0s"/></a>',
        "motion": f'{TARGET}<animateMotion path="M0,0 L9,9" dur="0.1s" onbegin="top.__pwned_motion=1"/>',
        "use": f'<use href="{origin}/evil-use.svg#x"/><use xlink:href="{origin}/evil-xlink-use.svg#x"/>',
        "datause": f'<use href="data:image/svg+xml;base64,{script_svg}#x"/>',
        "foreign": '<foreignObject width="300" height="150"><div xmlns="http://www.w3.org/1999/xhtml">'
                   '<img src="x" onerror="top.__pwned_foreign=1"/><iframe src="javascript:void(top.__pwned_frame=1)"/>'
                   "</div></foreignObject>",
        "script": "<script>top.__pwned_script=1</script>",
        "onload": '<rect width="9" height="9" onload="top.__pwned_onload=1"/><g ONLOAD="top.__pwned_upper=1"/>',
        "hover": '<rect width="300" height="150" OnMouseOver="top.__pwned_hover=1" onclick="top.__pwned_click=1"/>',
        "onbegin": '<animate onbegin="top.__pwned_onbegin=1" attributeName="x" to="5" begin="0s" dur="0.1s"/>',
        "onerror": f'<image href="{origin}/evil-image.png" width="9" height="9" onerror="top.__pwned_onerror=1"/>',
        "import": f"<style>@import url({origin}/evil-import.css); @import url(http://198.51.100.7/evil-off.css);</style>",
        "css": f'<rect width="9" height="9" style="fill: url({origin}/evil-fill.svg#g)" '
               f'filter="url({origin}/evil-filter.svg#f)" mask="u\\72 l({origin}/evil-mask.svg#m)"/>',
    }


def standalone(origin: str) -> list[str]:
    """Each payload as a figure of its own, plus roots that carry the attack themselves."""
    return ([f"{SVG_OPEN}>{fragment}</svg>" for fragment in payloads(origin).values()] + [
        f'{SVG_OPEN} onload="top.__pwned_root=1">{TARGET}</svg>',
        f'{SVG_OPEN} OnLoad="top.__pwned_rootcase=1">{TARGET}</svg>',
        f'{SVG_OPEN} style="background-image: u\\72 l({origin}/evil-root-bg.png)">{TARGET}</svg>',
    ])


NOT_SVG = '<img src="x" onerror="top.__pwned_img=1">'  # no <svg> root: dropped, nothing else

CELL_CODE = """\
import json
import re
import numpy as np
import matplotlib.pyplot as plt
from py_lessons.runtime import figures

fig, (curve, pixels) = plt.subplots(1, 2, figsize=(6, 2.5))
curve.plot(np.arange(5), np.arange(5) ** 2, "o-")
pixels.imshow(np.arange(16).reshape(4, 4))
real = figures.figure_to_svg(fig, "real")
plt.close(fig)
emit = figures._state["emit"]
end = real.rindex("</svg>")
emit({"type": "figure", "svg": real[:end] + "".join(json.loads(FRAGMENTS)) + real[end:]})
for markup in json.loads(STANDALONE) + [NOT_SVG]:
    emit({"type": "figure", "svg": markup})
print(json.dumps({"paths": real.count("<path "), "markers": len(re.findall('<use xlink:href="#m', real)),
                  "images": real.count("<image "), "ids": re.findall(' id="([^"]+)"', real),
                  "role": re.search('<svg [^>]*role="([^"]+)"', real).group(1)}))
"""

# What must not be left in the page's figures, whatever the sanitizer did (one list of problems).
FIGURE_PROBLEMS = """() => {
  const forbidden = new Set(["script", "foreignobject", "iframe", "img", "div", "a", "style", "animate", "set",
                             "animatemotion", "animatetransform", "animatecolor", "discard"]);
  const problems = [];
  for (const svg of document.querySelectorAll("[data-cell-id=demo-plot] [data-output] [data-figure] svg")) {
    for (const node of [svg, ...svg.querySelectorAll("*")]) {
      const tag = node.localName.toLowerCase();
      if (forbidden.has(tag)) problems.push(`<${tag}>`);
      for (const attr of node.attributes) {
        const name = attr.name.toLowerCase(), squeezed = attr.value.replace(/[\\u0000-\\u0020]/g, "").toLowerCase();
        if (name.startsWith("on")) problems.push(`${tag} ${name}`);
        if (squeezed.includes("javascript:") || squeezed.includes("evil")) problems.push(`${tag} ${name}=${attr.value}`);
        const pixels = tag === "image" && attr.value.startsWith("data:image/png;base64,");
        if (attr.localName === "href" && !attr.value.startsWith("#") && !pixels) problems.push(`${tag} ${name}=${attr.value}`);
      }
    }
  }
  return problems;
}"""

PWNED = "() => Object.keys(window).filter((key) => key.startsWith('__pwned'))"


def test_svg_attacks_from_the_worker_are_defused_and_the_real_figure_still_shows(page, site_url, request_log):
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    code = (f"FRAGMENTS = {json.dumps(json.dumps(list(payloads(site_url).values())))}\n"
            f"STANDALONE = {json.dumps(json.dumps(standalone(site_url)))}\n"
            f"NOT_SVG = {json.dumps(NOT_SVG)}\n" + CELL_CODE)
    replace_code(page, "demo-plot", code)
    assert run_cell(page, "demo-plot", timeout=120_000) == "done"

    boxes = cell(page, "demo-plot").locator("[data-output] [data-figure]")
    assert boxes.count() == 1 + len(standalone(site_url))  # every <svg> shown, the <img> dropped
    for index in range(boxes.count()):  # click- and hover-triggered payloads get their chance
        figure = boxes.nth(index).locator("svg")
        figure.evaluate("(svg) => svg.scrollIntoView({block: 'center'})")
        place = figure.bounding_box()
        page.mouse.move(place["x"] + 40, place["y"] + 40)
        page.mouse.click(place["x"] + 40, place["y"] + 40)
    page.wait_for_timeout(1_500)  # and animations (begin="0s", 0.1 s long) theirs

    assert page.evaluate(PWNED) == []
    assert [url for url in request_log.urls if "evil" in url] == []
    assert page.evaluate(FIGURE_PROBLEMS) == []
    assert page.js_errors == []

    # the real figure, with the payloads mixed in, is all there: its paths, markers, pixels, ids
    real = json.loads(cell(page, "demo-plot").locator('[data-stream="stdout"]').inner_text())
    shown = boxes.first.locator("svg").evaluate("""(svg) => ({
      paths: svg.querySelectorAll("path").length,
      markers: [...svg.querySelectorAll("use")].filter((u) => (u.getAttribute("xlink:href") || "").startsWith("#m")).length,
      images: [...svg.querySelectorAll("image")].filter((i) => (i.getAttribute("xlink:href") || "").startsWith("data:image/png")).length,
      ids: [...svg.querySelectorAll("[id]")].map((node) => node.id),
      role: svg.getAttribute("role"),
      width: svg.getBoundingClientRect().width })""")
    assert real["paths"] > 0 and real["markers"] > 0 and real["images"] == 1
    kept = ("paths", "markers", "images", "role")  # role="img": how a screen reader announces it
    assert {key: shown[key] for key in kept} == {key: real[key] for key in kept}
    assert set(real["ids"]) <= set(shown["ids"])
    assert shown["width"] > 0


RED = '<rect x="-4000" y="-4000" width="9000" height="9000" fill="#ff0000"/>'  # far bigger than the figure
# Roots that try to leave their box: cover the viewport and take every click (a fake message over
# the course's own controls), by style, by a class of the theme's (md-dialog is position: fixed),
# by painting outside (overflow visible, a transform), or through a nested <svg>.
ESCAPING = {
    "fixed": f'{SVG_OPEN} style="position:fixed; inset:0; width:100vw; height:100vh; z-index:2147483647">{RED}</svg>',
    "theme-class": f'{SVG_OPEN} class="md-dialog md-dialog--active">{RED}</svg>',
    "overflow": f'{SVG_OPEN} overflow="visible" style="overflow:visible">{RED}</svg>',
    "transform": f'{SVG_OPEN} transform="scale(40)">{RED}</svg>',
    "nested": f'{SVG_OPEN}><svg overflow="visible" style="position:fixed; inset:0">{RED}</svg></svg>',
}

ESCAPE_CELL = """\
import json
from py_lessons.runtime import figures
for markup in json.loads(ESCAPING):
    figures._state["emit"]({"type": "figure", "svg": markup})
print("sent")
"""

# Who takes a click at points of the viewport outside every figure box, and whether a box's
# paint is contained: (x, y, figure index under that point or -1).
HITS_OUTSIDE = """() => {
  const boxes = [...document.querySelectorAll("[data-cell-id=demo-plot] [data-output] [data-figure]")];
  const rects = boxes.map((box) => box.getBoundingClientRect());
  const inside = (x, y) => rects.some((r) => x >= r.left - 2 && x <= r.right + 2 && y >= r.top - 2 && y <= r.bottom + 2);
  const hits = [];
  for (let x = 5; x < innerWidth; x += 25) for (let y = 5; y < innerHeight; y += 25) {
    if (inside(x, y)) continue;
    const figure = document.elementFromPoint(x, y)?.closest("[data-figure]");
    if (figure) hits.push([x, y, boxes.indexOf(figure)]);
  }
  return { hits, rects: rects.map((r) => [r.left, r.top, r.right, r.bottom]),
           contained: boxes.map((box) => getComputedStyle(box).contain) };
}"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 740}, {"width": 1366, "height": 768}])
def test_a_figure_stays_inside_its_box_whatever_its_attributes(page, site_url, viewport):
    from io import BytesIO

    import numpy as np
    from PIL import Image

    page.set_viewport_size(viewport)
    page.goto(site_url + "/demo/")
    wait_enhanced(page)
    replace_code(page, "demo-plot", f"ESCAPING = {json.dumps(json.dumps(list(ESCAPING.values())))}\n" + ESCAPE_CELL)
    assert run_cell(page, "demo-plot", timeout=120_000) == "done"
    boxes = cell(page, "demo-plot").locator("[data-output] [data-figure]")
    assert boxes.count() == len(ESCAPING)
    for index, name in enumerate(ESCAPING):
        boxes.nth(index).evaluate("(box) => box.scrollIntoView({block: 'center'})")
        seen = page.evaluate(HITS_OUTSIDE)
        assert seen["hits"] == [], (name, seen["hits"][:5])
        # and it paints nothing outside the boxes: no pixel of its red there
        pixels = np.asarray(Image.open(BytesIO(page.screenshot())).convert("RGB")).astype(int)
        red = (pixels[..., 0] > 200) & (pixels[..., 1] < 60) & (pixels[..., 2] < 60)
        for left, top, right, bottom in seen["rects"]:
            red[max(0, int(top) - 1):max(0, int(bottom) + 2), max(0, int(left) - 1):max(0, int(right) + 2)] = False
        assert int(red.sum()) == 0, name
    assert all("paint" in contain for contain in page.evaluate(HITS_OUTSIDE)["contained"])
    # the course's own controls still take their clicks: the next cell runs
    assert run_cell(page, "demo-numpy") == "done"
