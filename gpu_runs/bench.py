"""Wall-time benchmark of the CPU suites: `python -m gpu_runs bench`.

Each suite runs through the real CLI in a child process (so the import time
counts, as it does for a user).  The smaller-models suite runs twice with one
fresh model cache: first it has to train the stand-in teacher and LM, then it
finds them.
Prints one JSON object.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gpu_runs import provenance
from gpu_runs.registry import SMALLER, SUITES, VANISHING


def _time_suite(names: list[str], out: Path, cache: Path | None) -> float:
    env = dict(os.environ)
    if cache is not None:
        env["GPU_RUNS_CACHE"] = str(cache)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "gpu_runs", "run", *names, "--device", "cpu", "--out", str(out)],
                          cwd=provenance.REPO_ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"gpu_runs bench: suite {names} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return elapsed


def run_bench(out: str | None = None, skip_uncached: bool = False) -> int:
    base = Path(out) if out else provenance.REPO_ROOT / "bench-results"
    base.mkdir(parents=True, exist_ok=True)
    report = {"started_utc": provenance.utc_now(), "cpu": provenance.cpu_info(),
              "threads_env": os.environ.get("GPU_RUNS_THREADS"), "packages": provenance.package_versions()}
    fast, slow = VANISHING.replace("-", "_"), SMALLER.replace("-", "_")
    report[f"{fast}_s"] = round(_time_suite(SUITES[VANISHING], base / VANISHING, None), 2)
    with tempfile.TemporaryDirectory(prefix="gpu_runs_bench_cache_") as tmp:
        cache = None if skip_uncached else Path(tmp)
        if not skip_uncached:
            report[f"{slow}_uncached_s"] = round(_time_suite(SUITES[SMALLER], base / SMALLER, cache), 2)
        report[f"{slow}_cached_s"] = round(_time_suite(SUITES[SMALLER], base / SMALLER, cache), 2)
    report["targets_s"] = {fast: 30, f"{slow}_uncached": 720, f"{slow}_cached": 360}
    print(json.dumps(report, indent=1))
    return 0
