"""Take your work with you, in real Chromium with real Pyodide: a lesson downloaded as a notebook or a
.py (the lesson's code or the reader's edits), and one cell shared by a link whose fragment carries
its code (shown as someone else's, never run by itself)."""

from __future__ import annotations

import base64
import json
import random
import re
import string
import time
import zlib
from pathlib import Path

import nbformat
import pytest
import yaml

from py_lessons.runtime.catalogue import catalogue
from py_lessons.runtime.numbers import format_number
from support.a11y import serious_violations
from support.browser import cell, cell_action, editor_text, output_snapshot, replace_code, run_cell, wait_enhanced, wait_state
from support.site import ROOT, lesson_markdown

pytestmark = pytest.mark.browser

GUIDE = "/guide/"
SHARED_CELL = "guide-bumpy"
OTHER_CELL = "guide-session-first"
EDIT = 'print("ভাগ করা কোড", 6 * 7)\n'
STRINGS = catalogue()
LINK_LIMIT = 4000  # the limit: a whole share link fits a chat message (share.js says why)


# -- the expected code, read from the Markdown source with nothing of the plugin -----------------
_EXAMPLE = re.compile(r"^([ \t]*)(`{4,})[^\n]*\n.*?^\1\2[ \t]*$", re.M | re.S)        # ````markdown examples
_CODE_FENCE = re.compile(r"^([ \t]*)```(pycell|exercise)\b[^\n]*\n(.*?)^\1```[ \t]*$", re.M | re.S)


def source_cells(markdown: str) -> list[str]:
    """Each pycell's code and each exercise's starter, in page order."""
    found = []
    for match in _CODE_FENCE.finditer(_EXAMPLE.sub("", markdown)):
        indent, kind, body = match[1], match[2], match[3]
        body = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip(" \t")
                       for line in body.splitlines(keepends=True)).removesuffix("\n")
        found.append(body if kind == "pycell" else yaml.safe_load(body)["starter"].rstrip("\n"))
    return found


def guide_cells() -> list[str]:
    return source_cells((ROOT / "site" / "guide" / "index.md").read_text(encoding="utf-8"))


def guide_cell(cell_id: str) -> str:
    guide = (ROOT / "site" / "guide" / "index.md").read_text(encoding="utf-8")
    return re.search(rf'^```pycell id="{cell_id}"[^\n]*\n(.*?)\n```$', guide, re.M | re.S)[1]


def code_cells(notebook) -> list[str]:
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


# -- helpers ---------------------------------------------------------------------------------
def open_guide(page, site_url, fragment=""):
    page.goto(site_url + GUIDE + fragment)
    wait_enhanced(page)
    page.wait_for_selector("[data-download][data-enhanced]", state="attached")


def download(page, action, mine=False):
    page.locator(f'[data-download] input[value="{"mine" if mine else "lesson"}"]').check()
    with page.expect_download() as info:
        page.locator(f'[data-action="{action}"]').click()
    got = info.value
    return got.suggested_filename, Path(got.path()).read_text(encoding="utf-8")


def fresh_page(browser, request_log, permissions=(), init_script=None):
    context = browser.new_context(service_workers="block", permissions=list(permissions))
    context.on("request", request_log.record)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return context, page


def fragment_code(link: str) -> tuple[str, str]:
    """(cell id, code) of a share link, decoded here with Python's own base64 and zlib."""
    cell_id, data = link.split("#share=", 1)[1].split(".", 1)
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return cell_id, zlib.decompress(raw, wbits=-15).decode("utf-8")


def make_fragment(cell_id: str, payload: bytes) -> str:
    return f"#share={cell_id}." + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def stored_edits(page) -> dict:
    """The reader's saved code edits (localStorage keys "<namespace>:cell:<page>:<cell id>")."""
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage).filter(([key]) => key.includes(':cell:')))")


def all_code(page) -> dict:
    """Each cell's code as shown: the editor's lines, or the build's <pre> before the editor loads."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.pycell[data-cell-id]')].map((c) =>
        [c.dataset.cellId, c.querySelector('.cm-content')
            ? [...c.querySelectorAll('.cm-line')].map((line) => line.textContent).join('\\n')
            : c.querySelector('[data-editor] pre').textContent]))""")


def shown_within(page, cell_id, code, seconds=10):
    """Wait (bounded) until the cell shows ``code``: on a busy machine the editor may still be
    mounting when the marker is set. Fails with what it shows."""
    deadline = time.monotonic() + seconds
    while (shown := all_code(page)[cell_id]) != code and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert shown == code


# -- download -------------------------------------------------------------------------------
def test_every_built_notebook_is_valid_and_holds_its_pages_code(built_site):
    notebooks = sorted(built_site.rglob("*.ipynb"))
    assert len(notebooks) >= 5
    for path in notebooks:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        folder = path.parent.relative_to(built_site)
        # a lesson's notebook is the whole lesson: every part's cells, in the navigation's order
        source = (lesson_markdown(folder.name) if folder.parent.as_posix() == "lessons"
                  else (ROOT / "site" / folder / "index.md").read_text(encoding="utf-8"))
        assert code_cells(notebook) == source_cells(source), path
        assert (path.parent / "index.html").is_file() and path.with_suffix(".py").is_file()


@pytest.mark.no_python
def test_download_the_lessons_notebook_and_python_file(page, site_url, built_site):
    open_guide(page, site_url)
    name, text = download(page, "download-notebook")
    assert name == "guide.ipynb"
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert code_cells(notebook) == guide_cells()
    assert text == (built_site / "guide" / "guide.ipynb").read_text(encoding="utf-8")
    name, text = download(page, "download-python")
    assert name == "guide.py"
    assert text == (built_site / "guide" / "guide.py").read_text(encoding="utf-8")
    assert page.locator("[data-download-status]").inner_text() == STRINGS["download.done"].format(file="guide.py")
    assert not page.js_errors


def test_download_with_my_edits(page, site_url):
    open_guide(page, site_url)
    replace_code(page, SHARED_CELL, EDIT)
    page.wait_for_function("() => Object.keys(localStorage).some((k) => k.endsWith(':guide-bumpy'))")
    name, text = download(page, "download-notebook", mine=True)
    assert name == "guide-edited.ipynb"
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    original = guide_cell(SHARED_CELL)
    assert code_cells(notebook) == [EDIT if code == original else code for code in guide_cells()]
    assert page.locator("[data-download-status]").inner_text() == STRINGS["download.done.mine"].format(
        file=name, count="১")
    name, text = download(page, "download-python", mine=True)
    assert name == "guide-edited.py"
    assert f'pathshala={{"cell_id": "{SHARED_CELL}"}}\n{EDIT}\n# %%' in text
    # the lesson's code, chosen again, is the lesson's
    _, text = download(page, "download-notebook")
    assert code_cells(nbformat.reads(text, as_version=4)) == guide_cells()
    assert not page.js_errors


# -- share ----------------------------------------------------------------------------------
def share_from_edited_cell(browser, request_log, site_url):
    context, page = fresh_page(browser, request_log, permissions=["clipboard-read", "clipboard-write"])
    open_guide(page, site_url)
    replace_code(page, SHARED_CELL, EDIT)
    cell(page, SHARED_CELL).locator('[data-action="share"]').click()
    page.wait_for_function("([id, text]) => document.querySelector(`[data-cell-id=\"${id}\"] [data-status]`).textContent === text",
                           arg=[SHARED_CELL, STRINGS["share.copied"]])
    link = page.evaluate("navigator.clipboard.readText()")
    assert not page.js_errors
    context.close()
    return link


def test_a_shared_link_shows_the_code_marked_and_not_run(browser, request_log, site_url):
    link = share_from_edited_cell(browser, request_log, site_url)
    assert link.startswith(f"{site_url}{GUIDE}#share={SHARED_CELL}.")
    assert fragment_code(link) == (SHARED_CELL, EDIT)
    assert len(link) <= LINK_LIMIT

    context, page = fresh_page(browser, request_log)  # someone else, who never saw the page
    page.goto(link)
    wait_enhanced(page)
    shown = cell(page, SHARED_CELL)
    page.wait_for_selector(f'[data-cell-id="{SHARED_CELL}"][data-shared="true"]')
    built_output = output_snapshot(page, SHARED_CELL)
    assert built_output and shown.locator("[data-output-origin]").inner_text() == STRINGS["cell.output.build"]
    assert shown.locator("[data-shared-marker]").is_visible()
    assert shown.locator("[data-shared-marker]").inner_text() == STRINGS["share.marker"]
    assert editor_text(page, SHARED_CELL).rstrip("\n") == EDIT.rstrip("\n")
    assert shown.locator("[data-status]").inner_text() == STRINGS["share.opened"]
    # not run: Python runs another cell to the end, and the shared one is still idle, its output the build's
    run_cell(page, OTHER_CELL)
    assert shown.get_attribute("data-state") == "idle"
    assert output_snapshot(page, SHARED_CELL) == built_output
    assert shown.locator("[data-output-origin]").inner_text() == STRINGS["cell.output.build"]
    assert not [key for key in stored_edits(page) if key.endswith(f":{SHARED_CELL}")]  # not saved as theirs

    assert serious_violations(page) == []
    shown.locator('[data-action="unshare"]').click()
    assert editor_text(page, SHARED_CELL).rstrip("\n") == guide_cell(SHARED_CELL)
    assert shown.get_attribute("data-shared") is None
    assert not shown.locator("[data-shared-marker]").is_visible()
    assert page.evaluate("location.hash") == ""
    assert not page.js_errors
    context.close()


def test_editing_shared_code_makes_it_the_readers_own(browser, request_log, site_url):
    link = share_from_edited_cell(browser, request_log, site_url)
    context, page = fresh_page(browser, request_log)
    page.goto(link)
    page.wait_for_selector(f'[data-cell-id="{SHARED_CELL}"][data-shared="true"]')
    replace_code(page, SHARED_CELL, "print('এখন আমার')\n")
    page.wait_for_function("(id) => !document.querySelector(`[data-cell-id=\"${id}\"]`).hasAttribute('data-shared')",
                           arg=SHARED_CELL)
    saved = [json.loads(v) for k, v in stored_edits(page).items() if k.endswith(f":{SHARED_CELL}")]
    assert saved == ["print('এখন আমার')\n"]
    assert cell(page, SHARED_CELL).locator("[data-edited-badge]").is_visible()
    context.close()


def test_a_link_opened_over_the_readers_own_edit_keeps_it(page, site_url):
    """The reader has edited the cell (editor open); a link made here in Python arrives by hashchange:
    the shared code is shown but not saved, and "back" brings the reader's own edit back."""
    open_guide(page, site_url)
    replace_code(page, SHARED_CELL, EDIT)
    page.wait_for_function("() => Object.keys(localStorage).some((k) => k.endsWith(':guide-bumpy'))")
    before = stored_edits(page)
    theirs = "for i in range(3):\n    print('অন্য কারও', i)"
    page.goto(site_url + GUIDE + make_fragment(SHARED_CELL, deflate(theirs.encode())))
    page.wait_for_selector(f'[data-cell-id="{SHARED_CELL}"][data-shared="true"]')
    shown_within(page, SHARED_CELL, theirs)
    assert stored_edits(page) == before
    cell(page, SHARED_CELL).locator('[data-action="unshare"]').click()
    assert all_code(page)[SHARED_CELL] == EDIT
    assert stored_edits(page) == before
    assert not page.js_errors


def test_without_a_clipboard_the_link_shows_selected_in_a_field(browser, request_log, site_url):
    no_clipboard = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"
    context, page = fresh_page(browser, request_log, init_script=no_clipboard)
    page.set_viewport_size({"width": 360, "height": 800})
    open_guide(page, site_url)
    replace_code(page, SHARED_CELL, EDIT)
    cell_action(page, SHARED_CELL, "share")  # on the phone, from the cell's "more" menu
    field = cell(page, SHARED_CELL).locator("[data-share-link]")
    field.wait_for()
    link = field.input_value()
    assert fragment_code(link) == (SHARED_CELL, EDIT)
    assert field.evaluate("(el) => el.readOnly && document.activeElement === el "
                          "&& el.selectionStart === 0 && el.selectionEnd === el.value.length")
    assert cell(page, SHARED_CELL).locator("[data-status]").inner_text() == STRINGS["share.manual"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator('[data-download] input[value="mine"]').check()  # the choice is shown too
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page) == []
    assert not page.js_errors
    context.close()


def test_code_too_big_for_a_link_says_so(page, site_url):
    open_guide(page, site_url)
    noise = random.Random(13)
    big = "\n".join("# " + "".join(noise.choices(string.ascii_letters, k=70)) for _ in range(60))  # ~4 KB, incompressible
    replace_code(page, SHARED_CELL, big)
    cell(page, SHARED_CELL).locator('[data-action="share"]').click()
    expected = STRINGS["share.too_large"].format(limit=format_number(LINK_LIMIT, ",", bangla=True))
    page.wait_for_function("([id, text]) => document.querySelector(`[data-cell-id=\"${id}\"] [data-status]`).textContent === text",
                           arg=[SHARED_CELL, expected])
    assert cell(page, SHARED_CELL).locator("[data-share-link]").count() == 0
    assert not page.js_errors


BAD_LINKS = {
    "unknown cell": (make_fragment("no-such-cell", deflate("print(1)".encode())),
                     STRINGS["share.error.unknown"].format(id="no-such-cell")),
    "not base64": (f"#share={SHARED_CELL}.%%%%", STRINGS["share.error.corrupt"]),
    "not deflate": (make_fragment(SHARED_CELL, b"\xff\x00 this is not deflate at all"), STRINGS["share.error.corrupt"]),
    "cut short": (make_fragment(SHARED_CELL, deflate(("print('x')\n" * 40).encode())[:12]), STRINGS["share.error.corrupt"]),
    "not UTF-8": (make_fragment(SHARED_CELL, deflate(b"print('\xff\xfe')")), STRINGS["share.error.corrupt"]),
    "over the link limit": (make_fragment(SHARED_CELL, random.Random(7).randbytes(3200)), STRINGS["share.error.too_large"]),
    "a deflate bomb": (make_fragment(SHARED_CELL, deflate(b"#" * 2_000_000)), STRINGS["share.error.too_large"]),
}


def test_bad_links_say_why_and_change_nothing(page, site_url):
    open_guide(page, site_url)
    replace_code(page, SHARED_CELL, EDIT)  # the reader's own saved edit must survive every bad link
    page.wait_for_function("() => Object.keys(localStorage).some((k) => k.endsWith(':guide-bumpy'))")
    before_storage, before_code = stored_edits(page), all_code(page)
    assert len(BAD_LINKS["a deflate bomb"][0]) < LINK_LIMIT  # small link, huge code: caught by the size cap
    for name, (fragment, message) in BAD_LINKS.items():
        page.goto(site_url + GUIDE + fragment)  # same page: the hash changes (hashchange)
        problem = page.locator("[data-share-problem]")
        page.wait_for_function("(text) => document.querySelector('[data-share-problem]')?.textContent === text", arg=message)
        assert problem.get_attribute("role") == "alert", name
        assert page.locator("[data-shared]").count() == 0, name
        assert stored_edits(page) == before_storage, name
        assert all_code(page) == before_code, name
    page.reload()  # a fresh load of a bad link
    wait_enhanced(page)
    page.wait_for_function("(text) => document.querySelector('[data-share-problem]')?.textContent === text",
                           arg=BAD_LINKS["a deflate bomb"][1])
    assert stored_edits(page) == before_storage and all_code(page) == before_code
    assert wait_state(page, SHARED_CELL, states=("idle",)) == "idle"
    assert serious_violations(page) == []
    assert not page.js_errors
