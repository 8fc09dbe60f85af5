import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "gpu_runs" / "results"


def run_cli(*args: str, env_extra: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "gpu_runs", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout)


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory):
    """`run --all --quick` once for the whole session, with its own model cache."""
    base = tmp_path_factory.mktemp("quick")
    out = base / "results"
    proc = run_cli("run", "--all", "--quick", "--device", "cpu", "--out", str(out),
                   env_extra={"GPU_RUNS_CACHE": str(base / "cache")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out
