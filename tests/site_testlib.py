"""Helpers the site tests import (conftest.py itself is not importable by name: tests/gpu_runs
has a conftest too, and both would be the module "conftest")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_site(site_dir: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "--site-dir", str(site_dir)],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
