"""``python -m py_lessons.host SITE_DIR [--port N] [--lan]``: serve a built site to a classroom.

Without --lan it listens on 127.0.0.1 only (this laptop). With --lan it listens on every address
of the laptop and prints the URL learners type, with a QR code to scan.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from .lan import learner_addresses, local_addresses, qr_lines
from .server import make_server
from .summary import AccessSummary, summary_line

SUMMARY_EVERY_S = 5

# Browsers give service workers, Cache Storage and SharedArrayBuffer only to secure contexts:
# https, or localhost. A LAN address over plain http is neither (the page says so too, in Bangla).
INSECURE_NOTE = """\
Note: learners reach this laptop over plain http, which browsers do not treat as a secure
address. The course works while this laptop serves it, but it is not kept on the learners'
devices for offline use, input() cannot wait for typing, and Stop restarts Python (variables are
lost). For all of that, serve it over https with a certificate the devices trust, or let learners
use a copy on their own computer (localhost): see the README's "Deploy" section."""


def announcement(site: Path, port: int, lan: list[str] | None) -> str:
    """What the host prints when it starts; ``lan``: the learners' addresses (None: no --lan)."""
    lines = [f"Serving {site} at http://127.0.0.1:{port}/ (this laptop)"]
    if lan is None:
        lines.append("Only this laptop can open it; add --lan to let learners' devices in.")
    elif not lan:
        lines += ["No network address found: join or start the Wi-Fi hotspot, then restart the host.",
                  f"Learners then type http://ADDRESS:{port}/ with this laptop's address.", "", INSECURE_NOTE]
    else:
        urls = [f"http://{address}:{port}/" for address in lan]
        lines.append(f"Learners type: {urls[0]}   (or scan the code)")
        try:
            lines += qr_lines(urls[0])
        except ImportError:  # installed without the extra "host"
            lines.append("(the QR code needs segno: pip install segno)")
        lines += [f"  also reachable at {url}" for url in urls[1:]]
        lines += ["", INSECURE_NOTE]
    lines.append("Ctrl+C stops the host.")
    return "\n".join(lines)


def _report(summary: AccessSummary, stop: threading.Event) -> None:
    """The summary line every few seconds while it changes (rewritten in place on a terminal)."""
    shown = summary.snapshot()  # nothing to say until the first learner arrives
    in_place = sys.stdout.isatty()
    while not stop.wait(SUMMARY_EVERY_S):
        now = summary.snapshot()
        if now != shown:
            print(("\r\033[K" if in_place else "") + summary_line(now), end="" if in_place else "\n", flush=True)
            shown = now


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m py_lessons.host", description="Serve a built site to a classroom.")
    parser.add_argument("site", type=Path, help="the built site (mkdocs build's site_dir)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free port)")
    parser.add_argument("--lan", action="store_true", help="listen on the laptop's network addresses too")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        parser.error(f"{args.site} has no index.html: build the site first (./pathshala build)")

    summary = AccessSummary()
    try:
        server = make_server(args.site, "0.0.0.0" if args.lan else "127.0.0.1", args.port, summary)
    except OSError as exc:
        parser.error(f"cannot listen on port {args.port} ({exc.strerror}): choose another with --port")
    lan = learner_addresses(local_addresses()) if args.lan else None
    print(announcement(args.site.resolve(), server.server_address[1], lan), flush=True)
    stop = threading.Event()
    threading.Thread(target=_report, args=(summary, stop), daemon=True).start()
    try:
        server.serve_forever(until_interrupted=True)
    except KeyboardInterrupt:  # where signals cannot be handled by the loop (Windows)
        pass
    finally:
        stop.set()
        try:
            server.server_close()
        except KeyboardInterrupt:
            pass
        print("\n" + summary_line(summary.snapshot()), flush=True)
