"""The benchmark's phone profile: a fresh Chromium context 360 px wide whose page gets a 4x CPU
throttle and a 20 Mbit/s, 20 ms network through the DevTools protocol (set before the page opens).

DevTools throttles the CPU of pages only ("Operation is only supported for pages, not workers"
for a worker's target): the page's main thread is 4x slower, the Python worker is not. The network
limit does hold for the worker's fetches (Pyodide's files, the wheels)."""

from __future__ import annotations

PHONE_VIEWPORT = {"width": 360, "height": 740}
CPU_SLOWDOWN = 4
NETWORK = {"offline": False, "latency": 20,  # ms
           "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8}  # bytes per second

# What the benchmark's JSON says the phone profile was.
PROFILE = {"viewport_px": PHONE_VIEWPORT["width"], "cpu_slowdown": CPU_SLOWDOWN,
           "cpu_slowdown_applies_to": "the page's main thread, not the Python worker",
           "download_mbit_s": NETWORK["downloadThroughput"] * 8 / 1e6, "latency_ms": NETWORK["latency"]}


def phone_page(context):
    """A new page of ``context`` (made with PHONE_VIEWPORT) under the phone's CPU and network."""
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    devtools.send("Network.enable")
    devtools.send("Network.emulateNetworkConditions", NETWORK)
    return page
