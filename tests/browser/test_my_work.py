""""My work" on the home page, in real Chromium: the reader's work exported as one file (checked
against its JSON schema), brought to another device (another origin, the course served elsewhere)
with a preview and newer-wins merging, wrong files refused with nothing lost, and erasing behind a
confirmation dialog."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

import jsonschema
import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import EDITOR_TEXT, component, editor_text, replace_code, wait_components, wait_enhanced
from support.work import SCHEMA, choose_file, export_work, namespace, open_home, stored, work_file

pytestmark = pytest.mark.browser

BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
LESSON = "/lessons/optimization/"             # where its items are kept, for every part
PART = "/lessons/optimization/practice/"      # the part with the cell and questions used here
MY_CODE = "print('আমার নিজের কোড', 6 * 7)"


def bn(value) -> str:
    return str(value).translate(BN)


def work(page):
    return page.locator('[data-component="my-work"]')


def settled(page, state: str) -> None:
    """The dialog's close event comes after the key or click: wait for its outcome."""
    page.wait_for_function("(state) => document.querySelector('[data-component=\"my-work\"]').dataset.state === state",
                           arg=state)


def status(page) -> str:
    return work(page).locator("[data-status]").inner_text()


def do_some_work(page, base):
    """On the optimisation lesson: an edited cell, a quiz answer and the finished stamp."""
    page.goto(base + PART)
    wait_components(page)  # the quiz and the stamp too, not only the cells: their clicks below
    replace_code(page, "opt-try", MY_CODE)
    page.wait_for_function("() => Object.keys(localStorage).some((k) => k.endsWith(':opt-try'))")
    quiz = component(page, "mcq", "opt-q1")
    quiz.locator('input[type="radio"]').nth(1).check()
    quiz.locator('[data-action="check"]').click()
    page.locator('[data-component="complete"] [data-action="complete"]').click()


@pytest.mark.no_python
def test_export_is_one_file_of_every_item_valid_against_the_schema(page, site_url, built_site):
    do_some_work(page, site_url)
    ns = namespace(built_site)
    # work kept before items had times: still read, exported as undated
    page.evaluate(f"""() => localStorage.setItem({ns!r} + ':exercise:/guide/:guide-ex-lr',
        JSON.stringify({{attempts: 2, hints: 1, passed: false}}))""")
    open_home(page, site_url)
    before = {key: json.loads(value) for key, value in stored(page).items() if key != "saved-at"}
    name, data = export_work(page)

    jsonschema.validate(data, json.loads(SCHEMA.read_text(encoding="utf-8")),
                        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    assert name == f"pathshala-work-{datetime.now().strftime('%Y-%m-%d')}.json"
    assert data["site"] == ns and data["version"] == 2
    items = {item["key"]: item for item in data["items"]}
    # everything, as stored, and the id the export made for this learner (kept with the work)
    assert {key: item["value"] for key, item in items.items()} == {**before, "learner:id": data["learner"]["id"]}
    assert data["learner"]["name"] == ""
    assert items["cell:/lessons/optimization/:opt-try"]["value"] == MY_CODE
    assert items["mcq:/lessons/optimization/:opt-q1"]["value"] == {"choice": 1, "first": 1, "tries": 1}
    assert items["complete:optimization"]["value"] is True
    assert items["exercise:/guide/:guide-ex-lr"]["saved"] is None
    exported = datetime.fromisoformat(data["exported"])
    dated = [datetime.fromisoformat(item["saved"]) for item in data["items"] if item["saved"]]
    assert len(dated) == len(items) - 1 and all(saved <= exported for saved in dated)
    _, again = export_work(page)
    assert again["learner"]["id"] == data["learner"]["id"]  # made once
    assert status(page) == t("work.exported", count=bn(len(items)), file=name)
    assert not page.js_errors


@pytest.mark.no_python
def test_the_file_brings_the_work_to_another_device_serving_the_course_elsewhere(page, site_url, browser,
                                                                                    course_server, tmp_path):
    do_some_work(page, site_url)
    open_home(page, site_url)
    _, data = export_work(page)
    _, base = course_server  # another origin: another device's storage; the course under /course/
    other = browser.new_context(service_workers="block")
    there = other.new_page()
    open_home(there, base)
    assert stored(there) == {}
    choose_file(there, tmp_path, json.dumps(data, ensure_ascii=False))
    preview = work(there).locator("[data-import-preview]")
    preview.wait_for()
    counts = {kind: preview.locator(f'[data-preview="{kind}"]').get_attribute("data-count")
              for kind in ("new", "replaced", "kept")}
    assert counts == {"new": str(len(data["items"])), "replaced": "0", "kept": "0"}
    assert stored(there) == {}  # a preview changes nothing
    assert serious_violations(there) == []
    preview.locator('[data-action="apply-import"]').click()
    assert status(there) == t("work.imported", new=bn(len(data["items"])), replaced=bn(0), kept=bn(0))
    # the home page shows it at once, and the lesson, served from /course/, has the reader's code
    assert there.locator('[data-lesson="optimization"]').get_attribute("data-state") == "complete"
    there.goto(base + PART)
    wait_enhanced(there)
    assert editor_text(there, "opt-try") == MY_CODE
    assert component(there, "mcq", "opt-q1").get_attribute("data-state") in ("correct", "wrong")
    other.close()


@pytest.mark.no_python
def test_merging_keeps_whichever_item_was_saved_later(page, site_url, built_site, tmp_path):
    do_some_work(page, site_url)  # saved now: between the file's old and future times below
    open_home(page, site_url)
    items = [
        {"key": "cell:/lessons/optimization/:opt-try", "value": "print('পুরোনো')", "saved": "2000-01-01T00:00:00Z"},
        {"key": "mcq:/lessons/optimization/:opt-q1", "value": {"choice": 0}, "saved": "2999-01-01T00:00:00Z"},
        {"key": "complete:optimization", "value": True, "saved": None},
        {"key": "mcq:/lessons/optimization/:opt-q2", "value": {"choice": 2}, "saved": "2001-01-01T00:00:00Z"},
        {"key": "cell-run:/lessons/optimization/:opt-grad-check", "value": 1, "saved": None},
    ]
    before = stored(page)
    choose_file(page, tmp_path, work_file(namespace(built_site), items), name="from-school.json")
    preview = work(page).locator("[data-import-preview]")
    preview.wait_for()
    assert preview.locator("[data-preview-title]").inner_text() == t(
        "work.preview.title", file="from-school.json", date=bn(datetime(2030, 1, 1, tzinfo=timezone.utc)
                                                               .astimezone().strftime("%Y-%m-%d %H:%M")))
    lines = [preview.locator(f'[data-preview="{kind}"]').inner_text() for kind in ("new", "replaced", "kept")]
    assert lines == [t("work.preview.new", n=bn(2)), t("work.preview.replaced", n=bn(1)), t("work.preview.kept", n=bn(2))]
    assert t("work.rules") in work(page).inner_text()  # the rules are stated where the reader decides

    preview.locator('[data-action="cancel-import"]').click()  # first: no
    assert status(page) == t("work.import.cancelled") and stored(page) == before and preview.is_hidden()

    choose_file(page, tmp_path, work_file(namespace(built_site), items), name="from-school.json")
    preview.locator('[data-action="apply-import"]').click()
    after = {key: json.loads(value) for key, value in stored(page).items()}
    assert after["cell:/lessons/optimization/:opt-try"] == MY_CODE            # this device's is newer
    assert after["mcq:/lessons/optimization/:opt-q1"] == {"choice": 0}        # the file's is newer
    assert after["complete:optimization"] is True
    assert after["mcq:/lessons/optimization/:opt-q2"] == {"choice": 2}        # new here
    assert after["cell-run:/lessons/optimization/:opt-grad-check"] == 1
    card = page.locator('[data-lesson="optimization"]')
    assert card.locator("[data-lesson-progress]").inner_text().endswith(f"{bn(2)}/{bn(3)}")  # two answers now
    # importing the same file again: nothing left to change
    choose_file(page, tmp_path, work_file(namespace(built_site), items), name="from-school.json")
    preview.wait_for()
    assert preview.locator('[data-preview="kept"]').get_attribute("data-count") == str(len(items))
    assert not page.js_errors


BAD_FILES = {
    "not JSON at all (cut short)": (lambda ns: work_file(ns, [])[:40], "work.error.corrupt"),
    "some other JSON": (lambda ns: json.dumps({"cells": [], "nbformat": 4}), "work.error.wrong"),
    "a malformed item": (lambda ns: work_file(ns, [{"key": "no colon", "value": 1, "saved": None}]), "work.error.corrupt"),
    "a later version": (lambda ns: work_file(ns, [], version=3), "work.error.future"),
    "another course": (lambda ns: work_file("pathshala-0123456789", [], course="অন্য কোর্স"), "work.error.other_course"),
}


@pytest.mark.no_python
def test_the_name_typed_goes_into_the_file_and_comes_back_with_it(page, site_url, browser, course_server, tmp_path):
    open_home(page, site_url)
    field = work(page).locator("[data-learner-name]")
    field.fill("  রাহেলা <খাতুন>  ")
    field.press("Tab")
    assert status(page) == t("work.name.saved", name="রাহেলা <খাতুন>")
    _, data = export_work(page)
    assert data["learner"]["name"] == "রাহেলা <খাতুন>"
    page.reload()
    open_home(page, site_url)
    assert work(page).locator("[data-learner-name]").input_value() == "রাহেলা <খাতুন>"
    _, base = course_server  # another device: the file brings the name and the id
    other = browser.new_context(service_workers="block")
    there = other.new_page()
    open_home(there, base)
    choose_file(there, tmp_path, json.dumps(data, ensure_ascii=False))
    work(there).locator('[data-action="apply-import"]').click()
    assert work(there).locator("[data-learner-name]").input_value() == "রাহেলা <খাতুন>"
    _, theirs = export_work(there)
    assert theirs["learner"] == data["learner"]
    other.close()
    assert not page.js_errors


@pytest.mark.no_python
@pytest.mark.parametrize("case", BAD_FILES)
def test_a_wrong_file_is_refused_in_bangla_and_nothing_is_lost(page, site_url, built_site, tmp_path, case):
    ns = namespace(built_site)
    open_home(page, site_url)
    page.evaluate(f"() => localStorage.setItem({ns!r} + ':cell:{LESSON}:opt-try', {json.dumps(json.dumps(MY_CODE))})")
    before = stored(page)
    content, key = BAD_FILES[case]
    choose_file(page, tmp_path, content(ns))
    settled(page, "error")
    assert status(page) == t(key, version=bn(3), supported=bn(2), course="অন্য কোর্স")
    assert stored(page) == before
    assert work(page).locator("[data-import-preview]").is_hidden()
    assert serious_violations(page) == []
    assert not page.js_errors


@pytest.mark.no_python
def test_erasing_asks_first_escape_cancels_and_yes_erases_this_course_only(page, site_url):
    do_some_work(page, site_url)
    open_home(page, site_url)
    page.evaluate("() => localStorage.setItem('another-course:complete:x', 'true')")
    before = stored(page)
    count = len([key for key in before if key != "saved-at"])
    erase = work(page).locator('[data-action="erase-work"]')
    dialog = work(page).locator("[data-erase-dialog]")

    erase.click()
    assert dialog.is_visible()
    assert page.evaluate("() => document.activeElement.dataset.action") == "cancel-erase"  # the safe choice
    assert dialog.locator("h3").inner_text() == t("work.erase.title")
    assert serious_violations(page, "document.querySelector('[data-erase-dialog]')") == []
    page.set_viewport_size({"width": 360, "height": 800})
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.keyboard.press("Escape")
    settled(page, "cancelled")
    assert dialog.is_hidden() and stored(page) == before
    assert status(page) == t("work.erase.cancelled")
    assert page.evaluate("() => document.activeElement.dataset.action") == "erase-work"

    erase.click()
    dialog.locator('[data-action="confirm-erase"]').click()
    settled(page, "erased")
    assert stored(page) == {}
    assert page.evaluate("() => localStorage.getItem('another-course:complete:x')") == "true"
    assert status(page) == t("work.erased", n=bn(count))
    card = page.locator('[data-lesson="optimization"]')  # the front door shows it at once
    assert card.get_attribute("data-progress") == "0" and card.get_attribute("data-state") == "incomplete"
    assert page.evaluate("() => document.activeElement.dataset.action") == "erase-work"
    assert not page.js_errors


# -- big files, and a browser that has no room left ---------------------------------------
FILL_STORAGE = """(room) => {
    // another site's items, until the browser refuses even one character more; then `room`
    // characters are given back, so that much (and no more than a little over it) fits again
    let size = 1 << 20, n = 0;
    while (size >= 1) {
        try { localStorage.setItem(`filler:${n}`, 'x'.repeat(size)); n += 1; } catch { size >>= 1; }
    }
    if (room) localStorage.setItem('filler:0', localStorage.getItem('filler:0').slice(room));
    return n;
}"""
COUNT_TIME_INDEX_WRITES = """(key) => {
    window.indexWrites = 0;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (name, value) {
        if (name === key) window.indexWrites += 1;
        return setItem.call(this, name, value);
    };
    window.statusLines = [];
    new MutationObserver(() => window.statusLines.push(
        document.querySelector('[data-component="my-work"] [data-status]').textContent))
        .observe(document.querySelector('[data-component="my-work"] [data-status]'), {childList: true, characterData: true, subtree: true});
}"""


@pytest.mark.no_python
def test_a_file_of_30000_items_is_imported_in_one_pass_with_a_progress_line(page, site_url, built_site, tmp_path):
    count = 30_000  # 3 MB: well under the file limit; the old import rewrote the time index per item
    items = [{"key": f"cell:/lessons/optimization/:many-{i}", "value": f"print({i})",
              "saved": "2020-01-01T00:00:00Z"} for i in range(count)]
    content = work_file(namespace(built_site), items)
    assert len(content.encode()) > 3_000_000
    open_home(page, site_url)
    page.evaluate(COUNT_TIME_INDEX_WRITES, f"{namespace(built_site)}:saved-at")
    choose_file(page, tmp_path, content, name="big.json")
    preview = work(page).locator("[data-import-preview]")
    preview.wait_for()
    assert preview.locator('[data-preview="new"]').get_attribute("data-count") == str(count)
    preview.locator('[data-action="apply-import"]').click()
    settled(page, "imported")
    assert status(page) == t("work.imported", new=bn(count), replaced=bn(0), kept=bn(0))
    saved = stored(page)
    assert sum(key.startswith("cell:/lessons/optimization/:many-") for key in saved) == count
    assert json.loads(saved[f"cell:/lessons/optimization/:many-{count - 1}"]) == f"print({count - 1})"
    times = json.loads(saved["saved-at"])
    assert times["cell:/lessons/optimization/:many-0"] == int(datetime(2020, 1, 1, tzinfo=timezone.utc).timestamp() * 1000)
    writes = page.evaluate("window.indexWrites")
    assert writes == 1, writes  # one write of the time index, not one per item
    lines = page.evaluate("window.statusLines")
    assert t("work.import.reading", file="big.json") in lines
    progress = re.escape(t("work.import.progress", done="DONE", total=bn(count))).replace("DONE", "[০-৯]+")
    assert any(re.fullmatch(progress, line) for line in lines), lines
    assert not page.js_errors


@pytest.mark.no_python
def test_an_import_that_leaves_little_room_says_so(page, site_url, built_site, tmp_path):
    open_home(page, site_url)
    page.evaluate(FILL_STORAGE, 20_000)
    items = [{"key": "mcq:/lessons/optimization/:opt-q2", "value": {"choice": 2}, "saved": "2001-01-01T00:00:00Z"}]
    choose_file(page, tmp_path, work_file(namespace(built_site), items))
    work(page).locator('[data-action="apply-import"]').click()
    settled(page, "little-room")
    assert status(page) == f'{t("work.imported", new=bn(1), replaced=bn(0), kept=bn(0))} {t("work.import.little_room")}'
    assert json.loads(stored(page)["mcq:/lessons/optimization/:opt-q2"]) == {"choice": 2}
    assert not page.js_errors


@pytest.mark.no_python
def test_an_edit_the_browser_refuses_to_store_is_said_at_once_kept_and_exported(page, site_url):
    page.goto(site_url + PART)
    wait_enhanced(page)
    replace_code(page, "opt-try", MY_CODE)  # saved: storage has room
    page.evaluate(FILL_STORAGE, 0)
    held = []  # the notice's stylesheet, held back: the notice waits for it, never shown unstyled
    page.route("**/css/save-notice.css", lambda route: held.append(route))
    big_edit = "# " + "আমার দীর্ঘ নোট " * 2_000 + "\nprint('শেষ')"  # 30 KB
    replace_code(page, "opt-try", big_edit)
    notice = page.locator("[data-save-notice]")
    page.wait_for_function("() => document.querySelector('link[href$=\"save-notice.css\"]')")
    for _ in range(200):  # the request reaches the route a moment after the link is added
        if held:
            break
        page.wait_for_timeout(50)
    assert held and notice.count() == 0
    held[0].continue_()
    notice.wait_for()
    assert notice.locator('[role="alert"]').inner_text() == t("save.refused.text", n=bn(1))
    assert notice.get_attribute("aria-label") == t("save.refused.label")
    assert page.evaluate(EDITOR_TEXT, "opt-try") == big_edit         # the edit stays in the page
    assert json.loads(stored(page)["cell:/lessons/optimization/:opt-try"]) == MY_CODE  # the browser kept the older one
    box = notice.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"] + 1 and box["width"] <= page.viewport_size["width"]
    with page.expect_download() as info:
        notice.locator('[data-action="export-unsaved"]').click()
    data = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA.read_text(encoding="utf-8")))
    exported = {item["key"]: item["value"] for item in data["items"]}
    assert exported["cell:/lessons/optimization/:opt-try"] == big_edit
    assert notice.locator('[role="status"]').inner_text() == t(
        "work.exported", count=bn(len(data["items"])), file=info.value.suggested_filename)
    assert serious_violations(page) == []
    # closing the tab would lose it: the browser asks first
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]
