"""Benchmark of the reader's experience; prints JSON (numbers, never pass/fail).

    ./pathshala bench [--repeat 5] [--phone]
    ./pathshala bench --load          the classroom load test instead (support/load.py; --host-from DIR
                                      measures another checkout's host under the same load)
    ./pathshala bench --lighthouse    Lighthouse on the home page and every lesson instead
                                      (support/bench_lighthouse.py; --repeat runs per page)
    ./pathshala bench --author        the author's save -> reload under `mkdocs serve` instead
                                      (support/bench_author.py)
    ./pathshala bench --off bytecode --off startup_snapshot   the site built with those levers off
    ./pathshala bench --work-import 30000   "my work" importing a file of that many items instead
                                      (support/bench_work.py)
    ./pathshala bench --first-visit 60      what opening lesson 1 costs in its first 60 s instead
                                      (support/bench_first_visit.py)
    ./pathshala bench --pages         every page's elements at load and HTML bytes instead
                                      (support/bench_pages.py)
    ./pathshala bench --trace         what stepping through a cell costs instead: each lesson's cells
                                      traced against run, a 10^6-step loop's frame gaps (support/bench_trace.py)

Measured in Debian's Chromium against the built site on 127.0.0.1 (served like a static host
with the build's gzip copies), medians over --repeat fresh browser contexts (empty caches).
Each repeat first opens the bare Pyodide floor (support/bench_floor.py: the official Pyodide and
NumPy, resp. NumPy + matplotlib, in a worker, nothing else) in a fresh context, then the site, so
that ratios_to_floor (median(site) / median(floor), support/bench_ratios.py) compares both under
the same load:
  first_numpy_output_s   page open -> the demo page's NumPy cell has printed (cold)
  first_plot_s           the same for the plotting cell (matplotlib loaded on demand)
  offline_copy_after_output_s   after the first output, until the service worker (installed once
                         Python started) has kept what the visit fetched: a first visit's one
                         background task, awaited before the warm figures below
  next_lesson_s          after that, click to the next lesson (instant navigation, same worker)
                         -> its first NumPy cell has printed
  revisit_s              a new tab on the demo page once the service worker has cached the site
                         (compiled WebAssembly and scripts come from the browser's code cache)
  warm rerun             wall time of a Run in the page vs the time Python itself took
  bytes                  transferred before the first NumPy output (a NumPy-only page), and
                         before any Run (the page itself)
  first_contentful_paint_ms   the demo page's first paint (the worker starts at once: it must
                         not delay the page's own rendering)
  start-up phases        from the worker's performance marks (worker.js), ms after page open
  stop_s                 a busy loop in the NumPy cell: Stop clicked -> the cell has stopped
  explorable_update_ms   for every explorable figure of the site, once Python is warm: a slider
                         moved with the keyboard -> the new figure in the page (its data-update-ms,
                         a first change after a rest draws at once), and the part of it Python took (data-python-ms)
  explorable_first_redraw_s   for every explorable, on a 360 px page opened at its top: the
                         reader scrolls to two screens above it, reads for READ_S seconds, then
                         moves its first slider -> the first figure ("after_reading"); and the same
                         with the slider moved as soon as the page has loaded ("at_once")
  targets                issue 23's targets beside what this run measured (support/bench_targets.py);
                         --lighthouse and --pages print theirs
  phone (--phone)        first NumPy output of floor and site, the bytes before any Run and, file by
                         file, what the median run fetched before its first output, in a
                         360 px context with a 4x CPU throttle (the page's main thread only: DevTools
                         cannot throttle the worker) and a 20 Mbit/s, 20 ms network
                         (support/bench_phone.py)
and the same cells in CPython for ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from .bench_floor import time_floor, write_floor_pages
from .bench_first_visit import first_visit
from .bench_pages import page_census
from .bench_trace import trace_bench
from .browser import first_visit_kept, start_then_stop
from .bench_author import main as author_main
from .bench_phone import PHONE_VIEWPORT, PROFILE, phone_page
from .bench_ratios import files_of_median_run
from .bench_ratios import medians as medians_of
from .bench_ratios import ratios_to_floor
from .bench_targets import census_targets, judged, lighthouse_targets
from .bench_lighthouse import lighthouse_table
from .bench_work import work_import
from .load import classroom_load
from .local_server import CHROMIUM_ARGS, serve
from .worker_probe import python_workers, wait_for_mark

ROOT = Path(__file__).resolve().parents[2]
NUMPY_CELL = "demo-numpy"
PLOT_CELL = "demo-plot"
NEXT_LESSON = "lessons/numerical-stability/"  # its first cell uses NumPy only

# Worker start-up marks (worker.js) -> benchmark names.
PHASES = {"pathshala:start": "worker_started_ms", "pathshala:pyodide-ready": "pyodide_ready_ms",
          "pathshala:runtime-ready": "runtime_ready_ms", "pathshala:packages-loaded": "numpy_loaded_ms",
          "pathshala:preimported": "numpy_imported_ms", "pathshala:snapshot-restored": "snapshot_restored_ms"}


def _wait_done(page, cell_id):
    page.wait_for_function(
        "id => ['done', 'error'].includes(document.querySelector(`[data-cell-id=\"${id}\"]`).dataset.state)",
        arg=cell_id, timeout=120_000)


def _byte_counter(context):
    """Bytes moved so far, in all ("bytes") and per file of the site ("files": path -> bytes)."""
    moved = {"bytes": 0, "files": {}}

    def count(request):
        try:
            size = request.sizes()["responseBodySize"]  # as sent: brotli or gzip where served so
        except Exception:  # noqa: BLE001 - a request that failed moved nothing
            return
        moved["bytes"] += size
        path = urlsplit(request.url).path
        moved["files"][path] = moved["files"].get(path, 0) + size

    context.on("requestfinished", count)
    return moved


def _phases(page, worker):
    """Start-up marks of the Python worker, in ms since the page began loading."""
    page_origin = page.evaluate("performance.timeOrigin")
    worker_origin, marks = worker.evaluate(
        "() => [performance.timeOrigin, performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])]")
    phases = {}
    for name, at in marks:
        if name in PHASES and PHASES[name] not in phases:
            phases[PHASES[name]] = worker_origin + at - page_origin
    return phases


def _open_demo_and_run(page, url, cell_id, on_loaded=lambda: None):
    """Open the demo page and Run one cell; seconds from page open to its output.
    ``on_loaded`` is called once the cell is ready, just before Run is clicked."""
    began = time.perf_counter()
    page.goto(url + "/demo/", wait_until="load")
    page.wait_for_selector(f'[data-cell-id="{cell_id}"][data-enhanced]')
    on_loaded()
    page.click(f'[data-cell-id="{cell_id}"] [data-action="run"]')
    _wait_done(page, cell_id)
    return time.perf_counter() - began


def _cold_run(browser, url, cell_id, phone=False):
    # service workers allowed: a revisit is measured afterwards
    context = browser.new_context(viewport=PHONE_VIEWPORT) if phone else browser.new_context()
    moved = _byte_counter(context)
    page = phone_page(context) if phone else context.new_page()
    workers = python_workers(page)
    loaded = {}
    seconds = _open_demo_and_run(page, url, cell_id, on_loaded=lambda: loaded.setdefault("bytes", moved["bytes"]))
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    out = {"seconds": seconds, "bytes_before_output": moved["bytes"], "page_bytes_before_run": loaded["bytes"],
           "files_before_output": dict(moved["files"]),
           "first_contentful_paint_ms": paint,
           "phases": _phases(page, workers[0]) if workers else {}}
    return out, context, page


def _floor_run(browser, url, path, phone=False):
    """(seconds from opening the floor page to its output, bytes transferred until then)."""
    context = browser.new_context(service_workers="block", **({"viewport": PHONE_VIEWPORT} if phone else {}))
    moved = _byte_counter(context)
    seconds = time_floor(phone_page(context) if phone else context.new_page(), url, path)
    moved_before_output = moved["bytes"]
    context.close()
    return seconds, moved_before_output


# Click the sidebar link to the next lesson (the theme swaps the page), then Run its first cell;
# resolves to ms from the click to that cell's output.
_NEXT_LESSON = """async (target) => {
  const began = performance.now();
  const old = document.querySelector("article");
  document.querySelector(`.md-sidebar--primary a.md-nav__link[href$="${target}"]`).click();
  const cell = await new Promise((resolve) => {
    const look = () => {
      const found = !old.isConnected && document.querySelector(".pycell[data-enhanced]");
      found ? resolve(found) : requestAnimationFrame(look);
    };
    look();
  });
  const swapped = performance.now() - began;
  await new Promise((resolve) => {
    new MutationObserver((_, watch) => {
      if (['done', 'error'].includes(cell.dataset.state)) { watch.disconnect(); resolve(); }
    }).observe(cell, { attributes: true, attributeFilter: ['data-state'] });
    cell.querySelector('[data-action="run"]').click();
  });
  return [performance.now() - began, swapped, Number(cell.dataset.runMs)];
}"""


def _revisit(context, url, cell_id):
    """A new tab on the demo page, later: once the first visit's service worker has kept what that
    visit fetched (the start-up snapshot the build ships included)."""
    first_visit_kept(context.pages[0])
    page = context.new_page()
    workers = python_workers(page)
    seconds = _open_demo_and_run(page, url, cell_id)
    controlled = page.evaluate("navigator.serviceWorker.controller !== null")
    restored = bool(workers) and wait_for_mark(page, workers[0], "pathshala:snapshot-restored", seconds=1)
    return seconds, controlled, restored, (_phases(page, workers[0]) if workers else {})


# Click Run inside the page and resolve when data-state says the run ended: no polling delay.
_TIMED_RUN = """(id) => new Promise((resolve) => {
  const cell = document.querySelector(`[data-cell-id="${id}"]`);
  const began = performance.now();
  const watch = new MutationObserver(() => {
    if (['done', 'error'].includes(cell.dataset.state)) { watch.disconnect(); resolve(performance.now() - began); }
  });
  watch.observe(cell, { attributes: true, attributeFilter: ['data-state'] });
  cell.querySelector('[data-action="run"]').click();
})"""


def _warm_rerun(page, cell_id):
    """(wall ms in the page, ms Python itself ran inside Pyodide) for one Run of a loaded cell."""
    wall_ms = page.evaluate(_TIMED_RUN, cell_id)
    inside_ms = float(page.get_attribute(f'[data-cell-id="{cell_id}"]', "data-run-ms"))
    return wall_ms, inside_ms


def _cpython_seconds(site_md: Path, cell_id: str):
    """The same cell's code timed in this machine's CPython (None when numpy is not installed)."""
    from py_lessons.plugin.page.cells import cell_specs
    from py_lessons.plugin.page.fences import read_fences

    cells = cell_specs(read_fences(site_md.read_text(encoding="utf-8")), "demo")
    code = next(c.code for c in cells if c.cell_id == cell_id)
    script = ("import time,io,contextlib,os\nos.environ['MPLBACKEND']='agg'\n"
              "t=time.perf_counter()\nwith contextlib.redirect_stdout(io.StringIO()):\n"
              f"    exec(compile({code!r}, '<cell>', 'exec'), {{'__name__': '__main__'}})\n"
              "print(time.perf_counter()-t)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    return float(done.stdout.strip()) if done.returncode == 0 else None


def _explorables(site: Path) -> list[tuple[str, str]]:
    """(page path, explorable id) of every explorable figure on the built site."""
    found = []
    for html in sorted(site.rglob("index.html")):
        if "pyodide" in html.parts:
            continue
        folder = html.parent.relative_to(site).as_posix()
        path = "/" if folder == "." else f"/{folder}/"
        found += [(path, eid) for eid in re.findall(r'data-component="explorable" data-id="([^"]+)"',
                                                        html.read_text(encoding="utf-8"))]
    return found


def _explorable_updates(browser, url, path, explorable_id, changes=6):
    """[(ms from a slider's change to its new figure, ms of it in Python)] for ``changes`` moves of
    the explorable's first slider (alternately up and down), after one move that warmed Python."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    root_selector = f'[data-component="explorable"][data-id="{explorable_id}"]'
    page.goto(url + path, wait_until="load")
    page.wait_for_selector(root_selector + "[data-enhanced]")
    root = page.locator(root_selector)
    slider = root.locator("input[data-param]").first
    at_top = slider.evaluate("(input) => Number(input.value) >= Number(input.max)")
    keys = ["ArrowLeft", "ArrowRight"] if at_top else ["ArrowRight", "ArrowLeft"]
    slider.focus()
    measured = []
    for n in range(changes + 1):
        page.keyboard.press(keys[n % 2])
        page.wait_for_function("([el, n]) => el.dataset.computations === String(n) && el.dataset.state !== 'computing'",
                               arg=[root.element_handle(), n + 1], timeout=120_000)
        if n:  # the first one loaded Python and matplotlib
            measured.append((float(root.get_attribute("data-update-ms")), float(root.get_attribute("data-python-ms"))))
    context.close()
    return measured


READ_S = 20  # reading two phone screens of Bangla prose takes a reader longer than this


def _explorable_first_redraw(browser, url, path, explorable_id, read_s):
    """Seconds from the first move of the explorable's slider to its figure (its data-update-ms),
    for a reader who opened the page at its top and, ``read_s`` seconds before, reached two screens
    above the explorable (0: moved at once, scrolled straight to it)."""
    context = browser.new_context(viewport=PHONE_VIEWPORT, is_mobile=True, has_touch=True, service_workers="block")
    page = context.new_page()
    root_selector = f'[data-component="explorable"][data-id="{explorable_id}"]'
    page.goto(url + path, wait_until="load")
    page.wait_for_selector(root_selector + "[data-enhanced]")
    root = page.locator(root_selector)
    if read_s:
        root.evaluate("(el) => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 2 * innerHeight)")
        page.wait_for_timeout(read_s * 1000)
    root.scroll_into_view_if_needed()
    slider = root.locator("input[data-param]").first
    at_top = slider.evaluate("(input) => Number(input.value) >= Number(input.max)")
    slider.focus()
    page.keyboard.press("ArrowLeft" if at_top else "ArrowRight")
    page.wait_for_function("(el) => el.dataset.computations === '1' && el.dataset.state !== 'computing'",
                           arg=root.element_handle(), timeout=180_000)
    seconds = float(root.get_attribute("data-update-ms")) / 1000
    context.close()
    return seconds


def _rounded(runs: dict[str, list[float]]) -> dict[str, list[float]]:
    return {name: [round(value, 3) for value in values] for name, values in runs.items()}


# The plugin's start-up levers (mkdocs.yml options of py_lessons) that --off can turn off.
LEVERS = ("bytecode", "startup_snapshot")


def _build(site: Path, off: list[str]) -> None:
    """Build the course into ``site``; with ``off`` levers, from a copy of mkdocs.yml (beside it,
    removed afterwards) whose py_lessons options turn them off."""
    config = ROOT / "mkdocs.yml"
    if off:
        text = config.read_text(encoding="utf-8")
        marker = "\n  - py_lessons:"
        head, tail = text.split(marker, 1)
        first_line, rest = tail.split("\n", 1)
        options = "".join(f"\n      {lever}: false" for lever in off)
        config = ROOT / "mkdocs.bench.yml"
        config.write_text(head + marker + first_line + options + "\n" + rest, encoding="utf-8")
    try:
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "--site-dir", str(site)],
                       cwd=ROOT, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    finally:
        if off:
            config.unlink()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--phone", action="store_true", help="also measure the phone profile")
    parser.add_argument("--load", action="store_true", help="run the classroom load test on the host instead")
    parser.add_argument("--host-from", type=Path, default=None,
                        help="with --load: the host of another checkout (e.g. a worktree of an older commit)")
    parser.add_argument("--lighthouse", action="store_true",
                        help="run Lighthouse on the home page and every lesson instead (support/bench_lighthouse.py)")
    parser.add_argument("--off", action="append", default=[], choices=LEVERS,
                        help="build with this start-up lever of the plugin off (repeatable), to measure what it gives")
    parser.add_argument("--work-import", type=int, metavar="ITEMS",
                        help='time "my work" importing a file of ITEMS items instead (support/bench_work.py)')
    parser.add_argument("--first-visit", type=float, metavar="SECONDS",
                        help="bytes sent in the first SECONDS of opening lesson 1 instead (support/bench_first_visit.py)")
    parser.add_argument("--pages", action="store_true",
                        help="every page's elements at load and HTML bytes instead (support/bench_pages.py)")
    parser.add_argument("--trace", action="store_true",
                        help="what stepping through costs instead (support/bench_trace.py)")
    parser.add_argument("--skip-explorables", action="store_true", help="leave out explorable_update_ms")
    parser.add_argument("--author", action="store_true", help="time the author's save -> reload under `mkdocs serve` "
                        "instead (its own options: --edits, --plugin-from; support/bench_author.py)")
    args, rest = parser.parse_known_args(argv)
    if args.author:
        author_main(rest)
        return
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")

    from playwright.sync_api import sync_playwright

    site = Path(tempfile.mkdtemp(prefix="pathshala-bench-"))
    _build(site, args.off)
    if args.load:
        load = classroom_load(site, args.host_from) if args.host_from else classroom_load(site)
        print(json.dumps({"classroom_load": load}, indent=1, ensure_ascii=False))
        shutil.rmtree(site, ignore_errors=True)
        return
    if args.work_import:
        print(json.dumps({"work_import": work_import(site, args.work_import, args.repeat)}, indent=1))
        shutil.rmtree(site, ignore_errors=True)
        return
    if args.first_visit:
        print(json.dumps({"first_visit": first_visit(site, args.first_visit, args.repeat)}, indent=1))
        shutil.rmtree(site, ignore_errors=True)
        return
    if args.pages:
        census = page_census(site)
        print(json.dumps({"page_census": census, "targets": census_targets(census["pages"])}, indent=1))
        shutil.rmtree(site, ignore_errors=True)
        return
    if args.trace:
        print(json.dumps({"trace": trace_bench(site, args.repeat)}, indent=1))
        shutil.rmtree(site, ignore_errors=True)
        return
    if args.lighthouse:
        table = lighthouse_table(site, args.repeat)
        print(json.dumps({"lighthouse": table, "targets": lighthouse_targets(table)}, indent=1, ensure_ascii=False))
        shutil.rmtree(site, ignore_errors=True)
        return
    floor_pages = write_floor_pages(site)
    server, url = serve(site)
    runs = {"first_numpy_output_s": [], "first_plot_s": [], "next_lesson_s": [], "next_lesson_page_swap_ms": [],
            "next_lesson_cell_python_ms": [], "revisit_s": [], "stop_s": [],
            "bytes_before_first_output": [], "page_bytes_before_run": [], "first_contentful_paint_ms": [],
            "warm_rerun_wall_ms": [], "warm_rerun_in_pyodide_ms": [], "offline_copy_after_output_s": []}
    phases: dict[str, list[float]] = {}
    revisits = []
    phases_revisit: dict[str, list[float]] = {}
    explorable_ms: dict[str, list[float]] = {}
    explorable_python_ms: dict[str, list[float]] = {}
    first_redraw_s: dict[str, dict[str, list[float]]] = {}
    floor_runs = {"numpy": [], "plot": [], "numpy_bytes_before_output": []}
    phone_runs = {"first_numpy_output_s": [], "bytes_before_first_output": [], "page_bytes_before_run": []}
    phone_floor_runs = {"numpy": [], "numpy_bytes_before_output": []}
    phone_files = []  # per run: path -> bytes fetched before the first output
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        for _ in range(args.repeat):
            seconds, moved = _floor_run(browser, url, floor_pages["numpy"])
            floor_runs["numpy"].append(seconds)
            floor_runs["numpy_bytes_before_output"].append(moved)
            numpy_run, context, page = _cold_run(browser, url, NUMPY_CELL)
            runs["first_numpy_output_s"].append(numpy_run["seconds"])
            runs["bytes_before_first_output"].append(numpy_run["bytes_before_output"])
            runs["page_bytes_before_run"].append(numpy_run["page_bytes_before_run"])
            runs["first_contentful_paint_ms"].append(numpy_run["first_contentful_paint_ms"])
            for name, ms in numpy_run["phases"].items():
                phases.setdefault(name, []).append(ms)
            # a first visit's one background task: the service worker installed and keeping what was
            # fetched (after Python's start-up); the warm figures below are taken once it has ended
            began = time.perf_counter()
            first_visit_kept(page)
            runs["offline_copy_after_output_s"].append(time.perf_counter() - began)
            for _ in range(5):
                wall, inside = _warm_rerun(page, NUMPY_CELL)
                runs["warm_rerun_wall_ms"].append(wall)
                runs["warm_rerun_in_pyodide_ms"].append(inside)
            page.set_viewport_size({"width": 1280, "height": 900})  # the sidebar with the lessons
            total_ms, swap_ms, python_ms = page.evaluate(_NEXT_LESSON, NEXT_LESSON)
            runs["next_lesson_s"].append(total_ms / 1000)
            runs["next_lesson_page_swap_ms"].append(swap_ms)
            runs["next_lesson_cell_python_ms"].append(python_ms)
            seconds, controlled, restored, revisit_phases = _revisit(context, url, NUMPY_CELL)
            for name, ms in revisit_phases.items():
                phases_revisit.setdefault(name, []).append(ms)
            runs["revisit_s"].append(seconds)
            revisits.append({"service_worker": controlled, "python_snapshot": restored})
            context.close()
            floor_runs["plot"].append(_floor_run(browser, url, floor_pages["plot"])[0])
            plot_run, context, plot_page = _cold_run(browser, url, PLOT_CELL)
            runs["first_plot_s"].append(plot_run["seconds"])
            # last on this page: Stop ends the worker, and Python starts afresh
            runs["stop_s"].append(start_then_stop(plot_page, NUMPY_CELL, "while True:\n    pass", 15_000))
            context.close()
            if args.phone:
                seconds, moved = _floor_run(browser, url, floor_pages["numpy"], phone=True)
                phone_floor_runs["numpy"].append(seconds)
                phone_floor_runs["numpy_bytes_before_output"].append(moved)
                phone_run, context, _ = _cold_run(browser, url, NUMPY_CELL, phone=True)
                phone_runs["first_numpy_output_s"].append(phone_run["seconds"])
                phone_runs["bytes_before_first_output"].append(phone_run["bytes_before_output"])
                phone_runs["page_bytes_before_run"].append(phone_run["page_bytes_before_run"])
                phone_files.append(phone_run["files_before_output"])
                context.close()
            for path, explorable_id in ([] if args.skip_explorables else _explorables(site)):
                for wall, python in _explorable_updates(browser, url, path, explorable_id):
                    explorable_ms.setdefault(f"{path}#{explorable_id}", []).append(wall)
                    explorable_python_ms.setdefault(f"{path}#{explorable_id}", []).append(python)
                first = first_redraw_s.setdefault(f"{path}#{explorable_id}", {"after_reading": [], "at_once": []})
                first["after_reading"].append(_explorable_first_redraw(browser, url, path, explorable_id, READ_S))
                first["at_once"].append(_explorable_first_redraw(browser, url, path, explorable_id, 0))
        browser.close()
    server.shutdown()
    shutil.rmtree(site, ignore_errors=True)

    medians = medians_of(runs)
    medians["warm_overhead_ms"] = round(medians["warm_rerun_wall_ms"] - medians["warm_rerun_in_pyodide_ms"], 1)
    demo = ROOT / "site" / "demo" / "index.md"
    cpython = {cell: _cpython_seconds(demo, cell) for cell in (NUMPY_CELL, PLOT_CELL)}
    phone = {"profile": PROFILE, "ratios_to_floor": ratios_to_floor(phone_runs, phone_floor_runs, {"first_numpy_output_s": "numpy"}),
             "medians": medians_of(phone_runs), "floor_medians": medians_of(phone_floor_runs),
             "runs": _rounded(phone_runs), "floor_runs": _rounded(phone_floor_runs),
             "files_before_first_output": files_of_median_run(phone_files, phone_runs["bytes_before_first_output"])}
    desktop_ratios = ratios_to_floor(runs, floor_runs)
    explorable_update = {k: round(statistics.median(v)) for k, v in explorable_ms.items()}
    explorable_first = {k: {how: round(statistics.median(v), 2) for how, v in hows.items()}
                        for k, hows in first_redraw_s.items()}
    worst_of = lambda figures: max(figures.items(), key=lambda item: item[1]) if figures else (None, None)
    slowest_update, slowest_first = worst_of(explorable_update), worst_of(
        {k: hows["after_reading"] for k, hows in explorable_first.items()})
    phone_ratio = phone["ratios_to_floor"].get("first_numpy_output_s", {}).get("ratio_to_floor")
    phone_bytes = phone["medians"].get("bytes_before_first_output")
    targets = {
        "next_lesson_s": judged("next_lesson_s", medians.get("next_lesson_s")),
        "desktop_first_numpy_ratio_to_floor": judged(
            "desktop_first_numpy_ratio_to_floor", desktop_ratios.get("first_numpy_output_s", {}).get("ratio_to_floor")),
        "phone_first_numpy_ratio_to_floor": judged("phone_first_numpy_ratio_to_floor", phone_ratio),
        "phone_bytes_before_first_output_mb": judged(
            "phone_bytes_before_first_output_mb", None if phone_bytes is None else round(phone_bytes / 1e6, 2)),
        "explorable_first_redraw_s": judged("explorable_first_redraw_s", slowest_first[1], slowest_first[0]),
        "explorable_warm_redraw_ms": judged("explorable_warm_redraw_ms", slowest_update[1], slowest_update[0]),
    }
    print(json.dumps({"targets": targets, "ratios_to_floor": desktop_ratios,
                      "medians": medians, "floor_medians": medians_of(floor_runs),
                      "cold_start_phases_ms": {k: round(statistics.median(v)) for k, v in phases.items()},
                      "revisit_phases_ms": {k: round(statistics.median(v)) for k, v in phases_revisit.items()},
                      "runs": _rounded(runs), "floor_runs": _rounded(floor_runs),
                      **({"phone": phone} if args.phone else {}),
                      "revisits_served_by": revisits,
                      "explorable_update_ms": explorable_update,
                      "explorable_first_redraw_s": explorable_first, "explorable_read_s": READ_S,
                      "explorable_update_python_ms": {k: round(statistics.median(v))
                                                      for k, v in explorable_python_ms.items()},
                      "cpython_seconds": cpython, "levers_off": args.off, "repeat": args.repeat, "cpu_count": os.cpu_count(),
                      "load_average": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
