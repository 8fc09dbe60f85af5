"""Shared fixtures: the course's content modules, the site built once per test session, served on
127.0.0.1, and a real Chromium (Debian's package) driven by Playwright. Helpers live in the
``support`` package (tests/support), never in a test module."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support.course import content_state, load_course_content, restore_content
from support.local_server import CHROMIUM_ARGS, serve
from support.site import build_site


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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site")
    done = build_site(site_dir)
    assert done.returncode == 0, done.stderr[-4000:]
    return site_dir


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
    """Every request the pages and their workers make; anything off the site's origin is aborted."""

    def __init__(self, origin: str):
        self.origin = origin
        self.urls: list[str] = []
        self.off_origin: list[str] = []

    def record(self, request) -> None:
        self.urls.append(request.url)
        if not (request.url.startswith(self.origin + "/") or request.url.startswith(("data:", "blob:"))):
            self.off_origin.append(request.url)

    def route(self, route) -> None:
        url = route.request.url
        if url.startswith(self.origin + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.off_origin.append(url)
            route.abort()


@pytest.fixture(scope="session")
def request_log(site_url) -> RequestLog:
    return RequestLog(site_url)


@pytest.fixture()
def page(browser, site_url, request_log):
    # Service workers are tested on their own (test_offline.py); here they would precache the
    # whole site in every test's fresh context.
    context = browser.new_context(service_workers="block")
    context.on("request", request_log.record)
    context.route("**/*", request_log.route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    yield page
    context.close()
