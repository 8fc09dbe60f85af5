"""Lighthouse on the built site: the home page and every lesson, mobile defaults (a simulated
mid-range phone: 4x CPU, slow 4G), categories performance and accessibility; prints JSON.

    ./pathshala bench --lighthouse [--repeat 3]
    PYTHONPATH=tests .venv/bin/python -m support.bench_lighthouse SITE [--repeat 3] [--reports DIR]

Lighthouse (the root package.json pins it) drives Debian's Chromium, offline, against the site
served on 127.0.0.1 with its gzip copies (support/local_server.py). Each page is audited --repeat
times, each run in a fresh browser (empty caches); the figures are the medians of those runs, the
failing audits those of the run with the median performance score (Lighthouse's own advice for
variable scores). Targets of issue 15: performance >= 0.9, CLS <= 0.1, TBT <= 200 ms,
accessibility 1.0.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from .local_server import CHROMIUM_ARGS, serve

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility")
TOP_FAILING = 6

# report name -> (Lighthouse audit id, factor applied to its numericValue, digits)
METRICS = {"cls": ("cumulative-layout-shift", 1, 3), "tbt_ms": ("total-blocking-time", 1, 0),
           "lcp_s": ("largest-contentful-paint", 1e-3, 2), "fcp_s": ("first-contentful-paint", 1e-3, 2),
           "dom_elements": ("dom-size", 1, 0)}


def lesson_pages(site: Path) -> list[str]:
    """Paths of the home page and every part of every lesson of the built site (a lesson's first
    part is its folder's page, the others are pages in that folder)."""
    parts = sorted(page.parent.relative_to(site).as_posix() for page in (site / "lessons").glob("**/index.html"))
    return ["/"] + [f"/{part}/" for part in parts]


def audit(url: str, report: Path) -> dict:
    """One Lighthouse run on ``url`` in a fresh headless Chromium; the report as a dict."""
    chromium = shutil.which("chromium")
    if chromium is None or not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse needs Debian's chromium and the root npm packages (./pathshala setup)")
    done = subprocess.run(
        [str(LIGHTHOUSE), url, "--output=json", f"--output-path={report}", "--quiet",
         f"--only-categories={','.join(CATEGORIES)}",
         f"--chrome-flags={' '.join(['--headless=new', *CHROMIUM_ARGS])}"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium})
    if done.returncode != 0:
        raise RuntimeError(f"Lighthouse failed on {url}:\n{done.stderr[-2000:]}")
    return json.loads(report.read_text(encoding="utf-8"))


def failing_audits(report: dict, top: int = TOP_FAILING) -> list[str]:
    """Ids of the scored audits of the two categories below 0.9, worst (then heaviest) first."""
    weights = {ref["id"]: ref.get("weight", 0) for name in CATEGORIES for ref in report["categories"][name]["auditRefs"]}
    failing = [(found["score"], -weights[audit_id], audit_id) for audit_id, found in report["audits"].items()
               if audit_id in weights and found.get("score") is not None and found["score"] < 0.9
               and found.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")]
    return [audit_id for *_, audit_id in sorted(failing)[:top]]


def summary(report: dict) -> dict:
    """The figures one run gives: scores, the metrics above, and its failing audits."""
    figures = {f"{name}_score": report["categories"][name]["score"] for name in CATEGORIES}
    for name, (audit_id, factor, _) in METRICS.items():
        value = report["audits"][audit_id].get("numericValue")  # none when the run failed (NO_FCP)
        figures[name] = None if value is None else value * factor
    figures["failing_audits"] = failing_audits(report)
    if report.get("runtimeError"):
        figures["runtime_error"] = report["runtimeError"].get("code")
    return figures


def median_of_runs(runs: list[dict]) -> dict:
    """Medians of the numbers; failing audits (and any error) of the median-performance run."""
    numeric = [f"{name}_score" for name in CATEGORIES] + list(METRICS)
    digits = {name: spec[2] for name, spec in METRICS.items()}
    merged = {}
    for name in numeric:
        values = [run[name] for run in runs if run[name] is not None]
        merged[name] = round(statistics.median(values), digits.get(name, 2)) if values else None
    by_score = sorted(runs, key=lambda run: run["performance_score"] or 0)  # null when the run failed
    middle = by_score[(len(by_score) - 1) // 2]
    merged["failing_audits"] = middle["failing_audits"]
    merged["runtime_errors"] = [run["runtime_error"] for run in runs if "runtime_error" in run]
    merged["performance_runs"] = [run["performance_score"] for run in runs]
    return merged


def lighthouse_table(site: Path, repeat: int = 3, reports: Path | None = None) -> dict[str, dict]:
    """Page path -> median figures over ``repeat`` Lighthouse runs; full reports kept in ``reports``."""
    server, url = serve(site)
    scratch = Path(tempfile.mkdtemp(prefix="pathshala-lighthouse-"))
    table = {}
    try:
        for path in lesson_pages(site):
            runs = []
            for n in range(repeat):
                name = (path.strip("/").replace("/", "_") or "home") + f"-{n}.json"
                report = audit(url + path, (reports or scratch) / name)
                runs.append(summary(report))
            table[path] = median_of_runs(runs)
    finally:
        server.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return table


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (mkdocs build --site-dir SITE)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reports", type=Path, help="keep every Lighthouse JSON report in this folder")
    args = parser.parse_args(argv)
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    table = lighthouse_table(args.site, args.repeat, args.reports)
    print(json.dumps({"lighthouse": table, "repeat": args.repeat, "cpu_count": os.cpu_count(),
                      "load_average": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
