"""The plugin in someone else's site: a minimal mkdocs-material project, made in a temporary
folder, lists only `theme: material` and `plugins: [search, py_lessons]` (no JS, no CSS, no copied
folder, no npm step) and gets a runnable NumPy cell, a stepper from its own steppers.py and a quiz;
and, offline being the plugin's default, a site that requests nothing off its origin, although the
theme's own default would load Google Fonts."""

from __future__ import annotations

import textwrap

import pytest
from playwright.sync_api import expect

from support.browser import cell, component, output_snapshot, run_cell, wait_enhanced
from support.local_server import serve
from support.site import build_site

pytestmark = pytest.mark.browser

PAGE = """\
# Another course

```pycell id="other-mean"
import numpy as np
print(np.arange(1, 5).mean() * 3)
```

```stepper
id: other-twice
function: other_course_twice
editable: true
```

```mcq
id: other-quiz
question: "2 + 2?"
choices:
  - text: "4"
    correct: true
  - text: "5"
    explain: "one too many"
```
"""

STEPPERS = '''\
from py_lessons.runtime.steppers import InputSpec, Step, fmt, stepper


@stepper("other_course_twice", title="Twice", inputs=[InputSpec("x", "x", 21.0)])
def other_course_twice(x):
    return [Step("double", f"2 × {fmt(x)}", fmt(2 * x), "twice as much")], {"result": 2 * x}
'''


@pytest.fixture(scope="module")
def other_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("other-course")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "docs" / "steppers.py").write_text(STEPPERS, encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text(textwrap.dedent("""\
        site_name: Another course
        theme:
          name: material
        plugins:
          - search
          - py_lessons:
              packages: [numpy]
              pyodide_url: runtime/python   # not the default: the page finds it from the config
        """), encoding="utf-8")
    done = build_site(root / "out", config)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "the theme's Google Fonts are turned off" in done.stderr  # the build says what it changed
    server, url = serve(root / "out")
    yield root / "out", url
    server.shutdown()
    server.server_close()


def test_another_sites_cell_runs_in_chromium_as_built(browser, other_site):
    site, url = other_site
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "assets/pathshala/cells/index.js" in html and "assets/pathshala/css/pathshala.css" in html  # added by the plugin
    assert not (site / "steppers.py").exists()  # a build input, not a page of the site
    assert (site / "runtime" / "python" / "pyodide.asm.wasm").is_file() and not (site / "pyodide").exists()
    context = browser.new_context(service_workers="block")
    requested = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(url + "/")
        wait_enhanced(page)
        built = output_snapshot(page, "other-mean")
        assert built == [["stdout", "7.5\n"]]
        assert run_cell(page, "other-mean") == "done"
        assert output_snapshot(page, "other-mean") == built
        stepper = component(page, "stepper", "other-twice")
        assert "42" in stepper.locator("[data-rows]").inner_text()
        stepper.locator('input[name="x"]').fill("5")
        stepper.locator('[data-action="recompute"]').click()
        expect(stepper.locator("[data-rows]")).to_contain_text("10", timeout=90_000)  # in the reader's Pyodide
        quiz = component(page, "mcq", "other-quiz")
        quiz.locator('input[type="radio"]').nth(int(quiz.get_attribute("data-answer"))).check()
        quiz.locator('[data-action="check"]').click()
        expect(quiz).to_have_attribute("data-state", "correct")
        assert cell(page, "other-mean").get_attribute("data-state") == "done"
        assert errors == []
        assert "fonts.googleapis.com" not in html
        off_origin = [u for u in requested if not u.startswith((url + "/", "data:", "blob:"))]
        assert requested and off_origin == []
    finally:
        context.close()
