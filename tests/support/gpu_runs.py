"""Helpers shared by the gpu_runs tests."""
import os
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "gpu_runs" / "results"


def run_cli(*args: str, env_extra: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "gpu_runs", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout)


