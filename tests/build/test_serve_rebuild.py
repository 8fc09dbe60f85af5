"""Under `mkdocs serve` a save rebuilds only what it changed: the edited page's changed cell runs,
the other pages are reused, the engine (staged Pyodide, Node runner started after the first build)
is kept until its inputs change, and there is no service worker; `mkdocs build` is unchanged and
writes one."""

from __future__ import annotations

import re
import time

from support.serve_builds import ServeBuilds
from support.site import build_site, lesson_site, outputs

NONCE = time.time_ns()  # the cell cache is the course's: code no earlier run has seen
LESSON = f"""\
    # পাঠ

    ```pycell id="steady"
    print("স্থির", {NONCE})
    ```

    ```pycell id="edited"
    print("মান", {NONCE + 1})
    ```
    """
GLOSSARY = """\
loss:
  term: loss (ক্ষতি)
  definition: ভুলের মাপ।
"""


def _counts(logged: str, pattern: str) -> tuple[int, ...]:
    found = re.findall(pattern, logged)
    assert len(found) == 1, logged
    return tuple(int(n) for n in found[0])


def test_a_serve_rebuild_runs_only_the_edited_cell_and_keeps_the_engine(tmp_path):
    config = lesson_site(tmp_path, LESSON)
    docs = tmp_path / "docs"
    (docs / "index.md").write_text(f'# home\n\n```pycell id="home"\nprint("ঘর", {NONCE})\n```\n', encoding="utf-8")
    assert build_site(tmp_path / "built", config).returncode == 0  # every cell in the cache, as after a build
    site = tmp_path / "served"
    serve = ServeBuilds(config, site, tmp_path / "serve.log")
    try:
        first = serve.build()
        assert "staged from" in first
        assert "no service worker" in first
        assert "0 cells run, 3 from cache" in first
        serve.wait_for("Pyodide under Node.js is started")  # all the same: the first edited cell need not wait

        lesson = docs / "lesson" / "index.md"
        edit = lesson.read_text(encoding="utf-8").replace(f"{NONCE + 1})", f"{NONCE + 2})")
        lesson.write_text(edit, encoding="utf-8")
        edited = serve.build()
        assert _counts(edited, r"(\d+) cells run, (\d+) from cache") == (1, 1)  # the edited cell; its neighbour
        assert _counts(edited, r"serving: (\d+) pages prepared, (\d+) unchanged pages reused") == (1, 1)
        assert "staged from" not in edited  # the engine, its staged Pyodide and its runner were kept
        assert outputs(site, "lesson/index.html") == {"steady": f"স্থির {NONCE}\n", "edited": f"মান {NONCE + 2}\n"}
        assert outputs(site, "index.html") == {"home": f"ঘর {NONCE}\n"}  # a reused page is still written in full
        assert not (site / "sw.js").exists()
        settings = (site / "assets" / "pathshala" / "site.js").read_text(encoding="utf-8")
        assert "export const offline = false;" in settings

        # an input of the engine (here a glossary appears) makes a new one: every page is prepared again
        (docs / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
        changed = serve.build()
        assert "staged from" in changed
        assert _counts(changed, r"serving: (\d+) pages prepared, (\d+) unchanged pages reused") == (2, 0)
    finally:
        serve.close()


def test_mkdocs_build_still_writes_the_service_worker(tmp_path):
    config = lesson_site(tmp_path, LESSON)
    done = build_site(tmp_path / "out", config)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "sw.js").is_file()
    assert "export const offline = true;" in (tmp_path / "out" / "assets" / "pathshala" / "site.js").read_text(
        encoding="utf-8")
    assert "serving:" not in done.stderr
