"""Classroom load on the host (py_lessons.host): forty learners open the same lesson at once.

    ./pathshala bench --load            (or: PYTHONPATH=tests python -m support.load --site build/site)

Prints JSON (figures, never pass/fail):
  first_visit          what a learner's first visit to a lesson fetches, recorded once with
                       Chromium (service workers blocked, as on a LAN address): requests, bytes
  learners_40          40 simultaneous clients, each fetching exactly that list over up to six
                       keep-alive connections like a browser, with gzip: total MB, seconds per
                       client (median, max), errors, wall_s until the last client and learner
                       ended; meanwhile one more client starts Pyodide's WebAssembly and resets
                       its connection after 256 KB
  chromium_learners    3 real Chromium learners opening the lesson and running its first (NumPy)
                       cell during that load: seconds from opening to the output, against one
                       learner alone on an idle host, and the same 3 without the 40 clients (on
                       one machine the learners' browsers share its cores with each other too)
  readers_200          200 simultaneous clients fetching every page of the site (reading, not
                       running): MB, seconds per client, errors
  host                 the host process's memory (RSS idle, peak while loaded, from /proc) and
                       its own summary line at the end (MB sent, downloads cut off)
  slow_clients_256     another host, under `prlimit --nofile=256:256` (macOS's default limit): 300
                       connections that never finish their request, then one learner: seconds until
                       the lesson's page and its first visit's files arrived, errors, the host's
                       CPU seconds over that time (a busy accept loop shows here)
--host-from DIR: the host of another checkout (a worktree of an older commit), the same load.
Traffic to 127.0.0.1 only; every loop is bounded in count and every wait in time.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import queue
import shutil
import socket
import statistics
import struct
import threading
import time
from pathlib import Path

from .host import start_host, stop_host
from .site import ROOT
from .local_server import CHROMIUM_ARGS

LESSON = "/lessons/numerical-stability/"  # a lesson whose first cell uses NumPy
CLIENTS = 40
CHROMIUM_LEARNERS = 3
READERS = 200
CONNECTIONS_PER_CLIENT = 6  # what a browser opens to one host
CUT_AFTER_BYTES = 256 * 1024
SOCKET_TIMEOUT_S = 120
PHASE_LIMIT_S = 900  # no phase may hang the benchmark
ACCEPT = {"Accept-Encoding": "gzip, deflate, br", "User-Agent": "pathshala-load"}
FIRST_CELL = "() => document.querySelector('article .pycell[data-cell-id]').dataset.cellId"


# -- the host's memory --------------------------------------------------------------------------

def _rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


class MemoryWatch:
    """The largest RSS seen, sampled every 0.2 s until stopped."""

    def __init__(self, pid: int):
        self.pid, self.peak_mb, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self):
        while not self._stop.wait(0.2):
            self.peak_mb = max(self.peak_mb, _rss_mb(self.pid))

    def stop(self) -> float:
        self._stop.set()
        self._thread.join(timeout=5)
        return self.peak_mb


# -- what a first visit fetches -----------------------------------------------------------------

def record_first_visit(browser, url: str) -> list[str]:
    """Every same-origin path a fresh learner's visit to LESSON requests, up to the first cell's
    output, in order, once each (as the browser's own cache would have it)."""
    context = browser.new_context(service_workers="block")
    seen: list[str] = []

    def record(request):
        if request.url.startswith(url + "/"):
            seen.append(request.url[len(url):])

    context.on("request", record)  # the page's and its workers' requests
    page = context.new_page()
    page.goto(url + LESSON, wait_until="load")
    page.wait_for_selector("article .pycell[data-enhanced]")
    cell_id = page.evaluate(FIRST_CELL)
    page.click(f'[data-cell-id="{cell_id}"] [data-action="run"]')
    page.wait_for_function("id => ['done', 'error'].includes(document.querySelector(`[data-cell-id=\"${id}\"]`)"
                           ".dataset.state)", arg=cell_id, timeout=300_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    context.close()
    return list(dict.fromkeys(seen))


# -- HTTP clients -------------------------------------------------------------------------------

def _fetch(connection: http.client.HTTPConnection, path: str) -> tuple[int, str | None]:
    """GET ``path`` and read its body to the end: (bytes received, error or None)."""
    connection.request("GET", path, headers=ACCEPT)
    answer = connection.getresponse()
    received = 0
    while chunk := answer.read(1 << 20):
        received += len(chunk)
    expected = answer.getheader("Content-Length")
    if answer.status != 200:
        return received, f"{path}: HTTP {answer.status}"
    if expected is not None and int(expected) != received:
        return received, f"{path}: {received} of {expected} bytes"
    if answer.will_close:
        connection.close()  # http.client opens a new connection for the next request
    return received, None


def visit(base: str, paths: list[str], connections: int) -> dict:
    """One client fetching ``paths`` over up to ``connections`` keep-alive connections."""
    host, port = base.removeprefix("http://").split(":")
    todo: queue.Queue[str] = queue.Queue()
    for path in paths:
        todo.put(path)
    totals = {"bytes": 0, "errors": []}
    lock = threading.Lock()

    def work():
        connection = http.client.HTTPConnection(host, int(port), timeout=SOCKET_TIMEOUT_S)
        try:
            while True:
                try:
                    path = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    received, error = _fetch(connection, path)
                except (OSError, http.client.HTTPException) as exc:
                    received, error = 0, f"{path}: {type(exc).__name__}: {exc}"
                    connection.close()
                with lock:
                    totals["bytes"] += received
                    if error:
                        totals["errors"].append(error)
        finally:
            connection.close()

    began = time.perf_counter()
    workers = [threading.Thread(target=work) for _ in range(min(connections, len(paths)))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=PHASE_LIMIT_S)
    return {"seconds": time.perf_counter() - began, **totals}


def crowd(base: str, paths: list[str], clients: int, connections: int) -> tuple[list[threading.Thread], list[dict]]:
    """``clients`` visits started together (released by one barrier); returns (threads, results)."""
    results: list[dict] = []
    gate = threading.Barrier(clients)

    def client():
        gate.wait(timeout=60)
        results.append(visit(base, paths, connections))

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    return threads, results


def summarise(results: list[dict], clients: int, wall_s: float) -> dict:
    seconds = [result["seconds"] for result in results]
    errors = [error for result in results for error in result["errors"]]
    return {"clients": clients, "finished": len(results), "wall_s": round(wall_s, 2),
            "total_mb": round(sum(result["bytes"] for result in results) / 1e6, 1),
            "client_s_median": round(statistics.median(seconds), 2) if seconds else None,
            "client_s_max": round(max(seconds), 2) if seconds else None,
            "errors": len(errors) + clients - len(results), "error_examples": errors[:5]}


def quitter(base: str) -> dict:
    """A client that starts the biggest download (Pyodide's WebAssembly, uncompressed) and resets
    its connection after CUT_AFTER_BYTES; then asks again on a new connection, to see the host
    still answers."""
    host, port = base.removeprefix("http://").split(":")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # a small window, as over Wi-Fi: the 10 MB file cannot all sit in loopback's buffers
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        sock.settimeout(SOCKET_TIMEOUT_S)
        sock.connect((host, int(port)))
        sock.sendall(b"GET /pyodide/pyodide.asm.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
        received = 0
        while received < CUT_AFTER_BYTES:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += len(chunk)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST, not FIN
    after = visit(base, ["/sitemap.xml"], 1)
    return {"received_before_cut": received, "host_answered_after": not after["errors"]}


# -- real learners ------------------------------------------------------------------------------

async def _learner(browser, url: str) -> dict:
    """Seconds from opening LESSON in a fresh context to its first cell's output."""
    context = await browser.new_context(service_workers="block")
    page = await context.new_page()
    try:
        began = time.perf_counter()
        await page.goto(url + LESSON, wait_until="load", timeout=300_000)
        await page.wait_for_selector("article .pycell[data-enhanced]", timeout=300_000)
        cell_id = await page.evaluate(FIRST_CELL)
        await page.click(f'[data-cell-id="{cell_id}"] [data-action="run"]')
        await page.wait_for_function("id => ['done', 'error'].includes(document.querySelector("
                                     "`[data-cell-id=\"${id}\"]`).dataset.state)", arg=cell_id, timeout=300_000)
        seconds = time.perf_counter() - began
        state = await page.get_attribute(f'[data-cell-id="{cell_id}"]', "data-state")
        return {"seconds": round(seconds, 2), "state": state}
    finally:
        await context.close()


async def _learners(url: str, count: int, on_ready=lambda: None) -> list[dict]:
    """``count`` learners at once; ``on_ready`` is called once Chromium has started, just before."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            on_ready()
            return list(await asyncio.gather(*(_learner(browser, url) for _ in range(count))))
        finally:
            await browser.close()


# -- the whole test -----------------------------------------------------------------------------

def _page_paths(site: Path) -> list[str]:
    paths = []
    for html in sorted(site.rglob("index.html")):
        folder = html.parent.relative_to(site).as_posix()
        paths.append("/" if folder == "." else f"/{folder}/")
    return paths


SLOW_CLIENTS = 300
SLOW_LIMIT = "256:256"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def slow_clients(site: Path, paths: list[str], checkout: Path) -> dict:
    """SLOW_CLIENTS connections that send half a request and wait, then a learner's first visit."""
    process, url = start_host(site, checkout=checkout, nofile=SLOW_LIMIT)
    port = int(url.rsplit(":", 1)[1])
    held = []
    try:
        for _ in range(SLOW_CLIENTS):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
                held.append(sock)
            except OSError:
                break
        cpu = _cpu_seconds(process.pid)
        began = time.perf_counter()
        done: dict = {}
        worker = threading.Thread(target=lambda: done.update(visit(url, paths, CONNECTIONS_PER_CLIENT)), daemon=True)
        worker.start()
        worker.join(timeout=PHASE_LIMIT_S)
        seconds = time.perf_counter() - began
        return {"limit": SLOW_LIMIT, "slow_connections": len(held),
                "learner_first_visit_s": round(seconds, 2) if done else None,
                "learner_errors": done.get("errors", "did not finish"),
                "host_cpu_s": round(_cpu_seconds(process.pid) - cpu, 2)}
    finally:
        for sock in held:
            sock.close()
        stop_host(process)


def classroom_load(site: Path, checkout: Path = ROOT) -> dict:
    from playwright.sync_api import sync_playwright

    process, url = start_host(site, checkout=checkout)
    try:
        idle_mb = _rss_mb(process.pid)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            paths = record_first_visit(browser, url)
            browser.close()
        first_visit = visit(url, paths, CONNECTIONS_PER_CLIENT)
        alone = asyncio.run(_learners(url, 1))[0]
        three_alone = asyncio.run(_learners(url, CHROMIUM_LEARNERS))  # their share of the CPU, no clients

        watch = MemoryWatch(process.pid)
        load_average_before = os.getloadavg()
        started: dict = {}

        def start_crowd():  # the 40 clients, the one that drops out, and the 3 learners start together
            started["at"] = time.perf_counter()
            started["threads"], started["results"] = crowd(url, paths, CLIENTS, CONNECTIONS_PER_CLIENT)
            started["cut"] = {}
            started["quitter"] = threading.Thread(target=lambda: started["cut"].update(quitter(url)), daemon=True)
            started["quitter"].start()

        loaded = asyncio.run(_learners(url, CHROMIUM_LEARNERS, on_ready=start_crowd))
        for thread in [*started["threads"], started["quitter"]]:
            thread.join(timeout=PHASE_LIMIT_S)
        learners_40 = {**summarise(started["results"], CLIENTS, time.perf_counter() - started["at"]),
                       "cut_off_client": started["cut"]}
        load_average_during = os.getloadavg()

        began = time.perf_counter()
        pages = _page_paths(site)
        threads, results = crowd(url, pages, READERS, 1)
        for thread in threads:
            thread.join(timeout=PHASE_LIMIT_S)
        readers = {**summarise(results, READERS, time.perf_counter() - began), "pages_each": len(pages)}
        peak_mb = watch.stop()
        high_water_mb = _rss_mb(process.pid, "VmHWM")
    finally:
        final = stop_host(process).strip().splitlines()
    return {
        "first_visit": {"requests": len(paths), "mb": round(first_visit["bytes"] / 1e6, 2),
                        "errors": first_visit["errors"], "paths": paths},
        "learners_40": learners_40,
        "chromium_learners": {"alone_s": alone["seconds"],
                              "three_without_clients_s": [learner["seconds"] for learner in three_alone],
                              "during_load_s": [learner["seconds"] for learner in loaded],
                              "states": [learner["state"] for learner in [alone, *three_alone, *loaded]]},
        "readers_200": readers,
        "host": {"rss_idle_mb": round(idle_mb, 1), "rss_peak_mb": round(max(peak_mb, high_water_mb), 1),
                 "summary": final[-1] if final else None},
        "slow_clients_256": slow_clients(site, paths, checkout),
        "host_from": str(checkout),
        "cpu_count": os.cpu_count(), "load_average_before": load_average_before,
        "load_average_during": load_average_during, "load_average_after": os.getloadavg(),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site (mkdocs build's site_dir)")
    parser.add_argument("--host-from", type=Path, default=ROOT, help="a checkout whose py_lessons.host runs")
    args = parser.parse_args(argv)
    print(json.dumps({"classroom_load": classroom_load(args.site, args.host_from)}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
