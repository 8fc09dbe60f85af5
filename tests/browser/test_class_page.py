"""The teacher's class page (/class/), in real Chromium: forty learners' "my work" files (several
lessons, wrong answers, old-version files, duplicates of one learner, files it must refuse) give a
table, per-question and per-exercise figures and a CSV file whose every figure equals what
tests/support/class_files.py works out from the files and the lessons' sources alone; the same
from a zip and from a folder; names are text, never markup; 360 px and axe; offline."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from py_lessons.runtime.catalogue import t
from support.a11y import serious_violations
from support.browser import PHONE, first_visit_kept, wait_until
from support.class_files import course, figures, learners_of, make_class, question_figures
from support.work import namespace

pytestmark = [pytest.mark.browser, pytest.mark.no_python]

BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
COLUMNS = ("progress", "cells", "first", "right", "passed", "failed", "last")


def bn(value) -> str:
    return str(value).translate(BN)


@pytest.fixture(scope="module")
def lessons():
    return course()


@pytest.fixture()
def class_files(built_site, tmp_path) -> tuple[dict, Path]:
    files = make_class(namespace(built_site))
    folder = tmp_path / "class"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return files, folder


KEPT = """async (name) => {
    for (const cache of await caches.keys()) {
        if ((await (await caches.open(cache)).keys()).some((request) => request.url.endsWith(name))) return true;
    }
    return false;
}"""


def open_class(page, base: str):
    page.goto(base + "/class/")
    page.wait_for_selector('[data-component="class-view"][data-enhanced] [data-class-actions]:not([hidden])')
    return page.locator('[data-component="class-view"]')


def load(page, paths, action="load-class"):
    view = page.locator('[data-component="class-view"]')
    view.locator(f'[data-action="{action}"]').set_input_files(paths)
    page.wait_for_function("() => document.querySelector('[data-component=\"class-view\"]').dataset.state === 'shown'")
    return view


def table(view) -> dict[str, dict]:
    """Learner id -> the shown row: its name field and each column's data-value."""
    return view.evaluate("""(root) => Object.fromEntries([...root.querySelectorAll('[data-class-table] tbody tr')].map((tr) => [
        tr.dataset.learner, Object.fromEntries([['name', tr.querySelector('[data-learner-name]').value],
        ...[...tr.querySelectorAll('td')].map((td) => [td.dataset.column, td.dataset.value])])]))""")


def expected_row(learner, lessons, **scope):
    f = figures(learner, lessons, **scope)
    return {"name": learner["name"], **{c: "" if f[c] is None else str(int(f[c]) if c == "last" else f[c]) for c in COLUMNS}}


def test_forty_learners_give_the_figures_their_files_hold(page, site_url, built_site, lessons, class_files):
    files, folder = class_files
    learners = learners_of(files, namespace(built_site))
    assert len(learners) == 40
    view = open_class(page, site_url)
    view = load(page, [str(folder / name) for name in files])

    # refused: a broken file, another course's, a later version's, one of another format; three
    # learners sent an older file too (the newer counts, and the page says which)
    problems = view.locator("[data-class-problems] li").all_inner_texts()
    assert len(problems) == 7
    for refused in ("broken.json", "other-course.json", "future.json", "notes.json"):
        assert sum(refused in problem for problem in problems) == 1, refused
    for n in (11, 21, 31):
        said = [p for p in problems if f"learner-{n}-old.json" in p]
        assert len(said) == 1 and f"“learner-{n}.json”" in said[0]
    # refused files are errors, listed first; a duplicate is a notice (the newer file counted)
    kinds = view.locator("[data-class-problems] li").evaluate_all("(items) => items.map((li) => li.dataset.kind)")
    assert kinds == ["refused"] * 4 + ["duplicate"] * 3
    status = view.locator("[data-status]").inner_text()
    assert status == t("class.status.read", read=bn(len(files) - 4), refused=bn(4), total=bn(40))

    # the whole course, then a lesson, then one part of it
    shown = table(view)
    assert set(shown) == set(learners)
    assert shown == {key: expected_row(learner, lessons) for key, learner in learners.items()}
    lesson = lessons[2]
    view.locator("[data-class-scope]").select_option(lesson.id)
    assert table(view) == {key: expected_row(learner, lessons, lesson_id=lesson.id) for key, learner in learners.items()}
    view.locator("[data-class-scope]").select_option(f"{lesson.id}/4")
    assert table(view) == {key: expected_row(learner, lessons, lesson_id=lesson.id, k=4) for key, learner in learners.items()}

    # a name with markup in it is text; sorting by progress puts the highest first
    bold = next(key for key, learner in learners.items() if learner["name"].startswith("<b>"))
    row = view.locator(f'tr[data-learner="{bold}"]')
    assert row.locator("[data-learner-name]").input_value() == learners[bold]["name"]
    assert view.locator("[data-class-table] b").count() == 0
    view.locator("[data-class-scope]").select_option("")
    view.locator('[data-sort="progress"]').click()
    order = view.evaluate("(root) => [...root.querySelectorAll('tbody tr td[data-column=\"progress\"]')].map((td) => Number(td.dataset.value))")
    assert order == sorted(order, reverse=True) and len(order) == 40
    assert view.locator('th[data-column="progress"]').get_attribute("aria-sort") == "descending"
    view.locator("[data-class-filter]").fill("রাহেলা")
    assert view.locator("tbody tr").count() == sum("রাহেলা" in learner["name"] for learner in learners.values())
    view.locator("[data-class-filter]").fill("")

    # per question and per exercise
    expected = question_figures(learners, lessons)
    for key, want in expected.items():
        if key.startswith("exercise:"):
            stats = view.locator(f'[data-class-exercise="{key[9:]}"] [data-exercise-stats]')
            assert [stats.get_attribute(f"data-{k}") for k in ("tried", "passed", "failed")] == \
                [str(want["tried"]), str(want["passed"]), str(want["failed"])], key
            continue
        question = view.locator(f'[data-class-question="{key}"]')
        stats = question.locator("[data-question-stats]")
        assert [stats.get_attribute(f"data-{k}") for k in ("answered", "wrong-first", "unknown")] == \
            [str(want["answered"]), str(want["wrong_first"]), str(want["unknown"])], key
        common = question.locator("[data-common-wrong]")
        if want["common"] is None:
            assert common.is_hidden(), key
        else:
            assert common.get_attribute("data-choice") == str(want["common"]), key
            assert common.get_attribute("data-count") == str(want["common_count"]), key
            assert common.locator(".pz-class-choice-text").inner_text().strip()  # the choice's words, then why it is wrong
    assert sum(want.get("unknown", 0) for want in expected.values()) > 0  # the version-1 files' answers

    # the CSV: UTF-8 with a byte-order mark, every scope's figures, the names as edited here
    row.locator("[data-learner-name]").fill("শিক্ষকের দেওয়া নাম")
    row.locator("[data-learner-name]").press("Tab")
    with page.expect_download() as info:
        view.locator('[data-action="class-csv"]').click()
    raw = Path(info.value.path()).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    header, body = rows[0], rows[1:]
    assert len(body) == 40
    scopes = [(None, None)]  # the course, then each lesson followed by its parts
    for lesson in lessons:
        scopes += [(lesson.id, None)] + [(lesson.id, part.k) for part in lesson.parts if len(lesson.parts) > 1]
    assert len(header) == 2 + len(COLUMNS) * len(scopes)
    by_file = {learner["file"]: learner for learner in learners.values()}
    for line in body:
        learner = by_file[line[1]]
        name = "শিক্ষকের দেওয়া নাম" if learner is learners[bold] else learner["name"]
        assert line[0] == name
        for n, (lesson_id, k) in enumerate(scopes):
            f = figures(learner, lessons, lesson_id=lesson_id, k=k)
            got = line[2 + n * len(COLUMNS): 2 + (n + 1) * len(COLUMNS)]
            last = "" if f["last"] is None else datetime.fromtimestamp(f["last"] / 1000, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
            assert got == [str(f[c]) for c in COLUMNS[:-1]] + [last], (line[1], lesson_id, k)
    assert not page.js_errors


def test_a_zip_and_a_folder_give_the_same_class(page, site_url, built_site, lessons, class_files, tmp_path):
    files, folder = class_files
    learners = learners_of(files, namespace(built_site))
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for name, text in files.items():
            out.writestr(f"class/{name}", text)
    # by name: an old file's learner is known by the file, whose path now starts with the zip's or folder's
    expected = {learner["name"]: expected_row(learner, lessons) for learner in learners.values()}
    by_name = lambda rows: {row["name"]: row for row in rows.values()}  # noqa: E731
    view = open_class(page, site_url)
    view = load(page, [str(archive)])
    assert by_name(table(view)) == expected
    view.locator('[data-action="clear-class"]').click()
    assert view.locator("[data-class-view]").is_hidden()
    view = load(page, str(folder), action="load-class-folder")
    assert by_name(table(view)) == expected
    assert not page.js_errors


def test_the_page_reads_on_a_phone_passes_axe_and_works_offline(browser, course_server, class_files):
    files, folder = class_files
    server, base = course_server
    context = browser.new_context(**PHONE)  # service workers allowed: the page is kept when opened
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_class(page, base)
    assert serious_violations(page) == []
    first_visit_kept(page)
    wait_until(page, KEPT, arg="class/index.html", timeout=20_000)  # the keeping goes on after it starts counting
    server.shutdown()  # the classroom server is gone: the teacher's page still reads the files
    server.server_close()
    view = open_class(page, base)
    view = load(page, [str(folder / name) for name in files])
    assert view.locator("tbody tr").count() == 40
    # nothing is wider than the phone but the table's own box, which scrolls (and takes a tab stop)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    scroller = view.locator(".pz-class-scroll")
    assert scroller.evaluate("(el) => el.scrollWidth > el.clientWidth")
    assert scroller.get_attribute("tabindex") == "0"
    # down a long class the header row stays at the top of the table's box
    scroller.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    top = scroller.evaluate("(el) => el.getBoundingClientRect().top")
    assert scroller.evaluate("(el) => el.scrollTop") > 0
    assert abs(view.locator('th[data-column="progress"]').evaluate("(el) => el.getBoundingClientRect().top") - top) <= 1
    assert serious_violations(page) == []
    context.close()
    assert errors == []
