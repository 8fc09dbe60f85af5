"""The plugin inside a real `mkdocs build` of small throw-away sites: failures name the page and
line, expected errors become output, sessions share state, and a rebuild reuses the cache."""

from __future__ import annotations

import re
import textwrap

import pytest

from support.site import build_site, make_site, outputs


def test_unexpected_error_fails_the_build_naming_page_and_line(tmp_path):
    config = make_site(tmp_path, {"index.md": """\
        # t

        ```pycell
        print("fine")
        ```

        ```pycell
        values = [1]
        values[3]
        ```
        """})
    done = build_site(tmp_path / "out", config)
    assert done.returncode != 0
    assert "index.md:7: cell 'index-2' raised IndexError" in done.stderr
    assert 'File "<cell>", line 2' in done.stderr


def test_expected_error_is_the_output_and_wrong_or_missing_error_fails(tmp_path):
    config = make_site(tmp_path, {"index.md": """\
        ```pycell raises="ZeroDivisionError"
        1 / 0
        ```
        """})
    assert build_site(tmp_path / "out", config).returncode == 0
    assert "ZeroDivisionError: division by zero" in outputs(tmp_path / "out", "index.html")["index-1"]

    config = make_site(tmp_path, {"index.md": '```pycell raises="KeyError"\n1 / 0\n```\n'})
    done = build_site(tmp_path / "out2", config)
    assert done.returncode != 0 and "should raise KeyError but raised ZeroDivisionError" in done.stderr

    config = make_site(tmp_path, {"index.md": '```pycell raises="KeyError"\nx = 1\n```\n'})
    done = build_site(tmp_path / "out3", config)
    assert done.returncode != 0 and "finished without an error" in done.stderr


def test_cells_are_isolated_unless_they_share_a_session_and_cache_is_reused(tmp_path):
    page = """\
        ---
        cell_session: lesson
        ---
        ```pycell
        import numpy as np
        total = np.arange(5).sum()
        ```

        ```pycell
        print("total", total)
        ```

        ```pycell id="alone" session="other"
        print("total" in globals())
        ```
        """
    config = make_site(tmp_path, {"index.md": page, "second.md": '```pycell raises="NameError"\nprint(total)\n```\n'})
    first = build_site(tmp_path / "out", config)
    assert first.returncode == 0, first.stderr
    assert outputs(tmp_path / "out", "index.html") == {"index-1": "", "index-2": "total 10\n", "alone": "False\n"}
    assert "NameError" in outputs(tmp_path / "out", "second/index.html")["second-1"]
    assert "4 cells run, 0 from cache" in first.stderr

    again = build_site(tmp_path / "out", config)
    assert "0 cells run, 4 from cache" in again.stderr

    # changing the first cell of the session re-runs the whole session, not the other pages
    (tmp_path / "docs" / "index.md").write_text(textwrap.dedent(page).replace("np.arange(5)", "np.arange(6)"))
    third = build_site(tmp_path / "out", config)
    assert "2 cells run, 2 from cache" in third.stderr
    assert outputs(tmp_path / "out", "index.html")["index-2"] == "total 15\n"


def test_runaway_cell_at_build_is_stopped_by_its_timeout(tmp_path):
    config = make_site(tmp_path, {"index.md": '```pycell timeout="2"\nwhile True:\n    pass\n```\n'})
    done = build_site(tmp_path / "out", config)
    assert done.returncode != 0
    assert "index.md:1: cell 'index-1' could not run: no answer from Pyodide within 2 s" in done.stderr


def test_built_site_is_self_contained(built_site):
    assert (built_site / "pyodide" / "pyodide-lock.json").is_file()
    assert (built_site / "assets" / "vendor" / "editor.js").is_file()
    pages = [p for p in built_site.rglob("*.html") if "pyodide" not in p.parts]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text
        for url in re.findall(r'(?:src|href)="(https?://[^"]+)"', text):
            pytest.fail(f"{page.name} links off-site: {url}")
