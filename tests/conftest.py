"""Shared fixtures: the course's content modules, the site built once per test session, served on
127.0.0.1, and a real Chromium (Debian's package) driven by Playwright. Helpers live in the
``support`` package (tests/support), never in a test module."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from support.course import content_state, load_course_content, restore_content
from support.course_site import CourseSite
from support.local_server import CHROMIUM_ARGS, serve


@pytest.fixture(scope="session", autouse=True)
def course_content():
    """The course's steppers (site/**/steppers.py), as the plugin loads them at build time."""
    load_course_content()


@pytest.fixture(autouse=True)
def course_content_kept(course_content):
    """A test that loads other course modules (a site's build loads its own, and only those)
    leaves the registries as it found them."""
    state = content_state()
    yield
    restore_content(state)


def _shared_folder(config) -> Path:
    """The run's temporary folder, the same for every pytest-xdist worker of the run."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # <run>/popen-gwN -> <run>


def pytest_collection_modifyitems(config, items):
    """Browser tests run last, and the course they need starts building now, in the background."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/browser/"))
    if any(item.nodeid.startswith("tests/browser/") for item in items):
        config.course_site = CourseSite(_shared_folder(config))
        config.course_site.start_in_background()


def pytest_unconfigure(config):
    if hasattr(config, "course_site"):
        config.course_site.stop()


@pytest.fixture(scope="session")
def built_site(request) -> Path:
    """The course, built once per run (support/course_site.py)."""
    site = getattr(request.config, "course_site", None) or CourseSite(_shared_folder(request.config))
    return site.get()


@pytest.fixture(scope="session")
def site_url(built_site) -> str:
    server, url = serve(built_site)
    yield url
    server.shutdown()


@pytest.fixture()
def course_server(built_site, tmp_path):
    """The built site served from a sub-path (/course/): (server, base URL), to prove it needs no root."""
    shutil.copytree(built_site, tmp_path / "course")
    server, url = serve(tmp_path)
    yield server, url + "/course"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is not installed (the test command installs it)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class RequestLog:
    """Every request the pages and their workers make, and those off the site's origin (there is
    no network here: such a request fails at once, and the test that reads this log says so).
    Recorded from the context's events, not by routing every request through the test, which
    would also keep the browser from caching anything."""

    def __init__(self, origin: str):
        self.origin = origin
        self.urls: list[str] = []
        self.off_origin: list[str] = []

    def record(self, request) -> None:
        self.urls.append(request.url)
        if not (request.url.startswith(self.origin + "/") or request.url.startswith(("data:", "blob:"))):
            self.off_origin.append(request.url)


@pytest.fixture(scope="session")
def request_log(site_url) -> RequestLog:
    return RequestLog(site_url)


@pytest.fixture()
def page(browser, site_url, request_log, request):
    # Service workers are tested on their own (test_offline.py); here they would precache the
    # whole site in every test's fresh context.
    context = browser.new_context(service_workers="block")
    context.on("request", request_log.record)
    if request.node.get_closest_marker("no_python"):
        # A test of the page alone (quizzes, storage, layout): Pyodide's files are held back, so
        # Python does not start and take the machine's cores from the page the test reads.
        context.route("**/pyodide/**", lambda route: None)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    yield page
    context.close()
