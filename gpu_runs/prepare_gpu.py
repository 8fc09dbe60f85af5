"""`python -m gpu_runs prepare-gpu --out DIR`: everything an offline GPU machine needs for the CUDA runs.

The folder holds

* ``wheels/``: the wheels pinned (with sha256) in ``gpu_runs/requirements-gpu.txt``,
  downloaded here from PyPI for CPython 3.12 on manylinux x86_64 (pip checks the hashes);
* ``requirements-gpu.txt``: a copy of that file;
* ``cache/lm-…/``: the stand-in LM trained here (on the CPU), under the folder name the GPU
  side computes, which does not depend on the torch version (gpu_runs.standins), so the CUDA run
  measures the same weights as the CPU run and records which torch trained them;
* ``run_gpu.sh``: installs the wheels offline and runs
  ``python -m gpu_runs run lowbit_llm mixed_precision --device cuda``, writing
  ``gpu_runs/results/<name>.cuda.json`` beside the CPU files (``--dry-run`` prints the commands);
* ``MANIFEST.json``: every file with its size and sha256.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from gpu_runs import provenance

REQUIREMENTS = Path(__file__).with_name("requirements-gpu.txt")
EXPERIMENTS = ("lowbit_llm", "mixed_precision")
SIZE_LIMIT_MB = 60
PYTHON_VERSION = "3.12"
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64")

SCRIPT = r"""#!/usr/bin/env bash
# Written by `python -m gpu_runs prepare-gpu` (gpu_runs/prepare_gpu.py); see gpu_runs/README.md.
# On the GPU machine, from the repository root (no internet needed):
#   bash BUNDLE/run_gpu.sh            install the bundled wheels, then run the CUDA variants
#   bash BUNDLE/run_gpu.sh --dry-run  print the commands only
# Options: --out DIR (default gpu_runs/results), --device cuda|cpu|auto (default cuda),
#          --no-install (skip pip), --quick (tiny sizes; the default when the bundle was made with --quick).
# Environment: PYTHON (default python3); GPU_RUNS_PIP_TARGET=DIR installs there (pip --target)
#              and puts DIR on PYTHONPATH, for a read-only Python environment.
set -euo pipefail
BUNDLE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"
EXPERIMENTS=(@EXPERIMENTS@)
DEVICE=cuda; OUT=""; QUICK="@QUICK@"; DRY=0; INSTALL=1
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=1 ;;
    --no-install) INSTALL=0 ;;
    --quick) QUICK=--quick ;;
    --device) DEVICE="$2"; shift ;;
    --out) OUT="$2"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "run_gpu.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -f gpu_runs/__main__.py ]; then
  echo "run_gpu.sh: run me from the repository root (no gpu_runs/ here)" >&2; exit 2
fi
step() { printf '+'; printf ' %q' "$@"; printf '\n'; if [ "$DRY" = 0 ]; then "$@"; fi; }
if [ "$INSTALL" = 1 ]; then
  PIP=(install --no-index --no-deps --require-hashes --find-links "$BUNDLE/wheels" -r "$BUNDLE/requirements-gpu.txt")
  if [ -n "${GPU_RUNS_PIP_TARGET:-}" ]; then
    PIP+=(--target "$GPU_RUNS_PIP_TARGET")
    export PYTHONPATH="$GPU_RUNS_PIP_TARGET${PYTHONPATH:+:$PYTHONPATH}"
    echo "+ export PYTHONPATH=$PYTHONPATH"
  fi
  step "$PYTHON" -m pip "${PIP[@]}"
fi
export GPU_RUNS_CACHE="$BUNDLE/cache"
echo "+ export GPU_RUNS_CACHE=$GPU_RUNS_CACHE"
RUN=(-m gpu_runs run "${EXPERIMENTS[@]}" --device "$DEVICE")
if [ -n "$QUICK" ]; then RUN+=("$QUICK"); fi
if [ -n "$OUT" ]; then RUN+=(--out "$OUT"); fi
step "$PYTHON" "${RUN[@]}"
"""


class PrepareError(Exception):
    pass


def _download_wheels(dest: Path) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--no-deps",
           "--only-binary=:all:", "--require-hashes", "--implementation", "cp", "--python-version", PYTHON_VERSION,
           *[arg for p in PLATFORMS for arg in ("--platform", p)], "-d", str(dest), "-r", str(REQUIREMENTS)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        raise PrepareError(f"pip download failed: {tail}")


def _lm_folder(quick: bool) -> Path:
    """The stand-in LM in the local cache (trained on the CPU first if it is not there)."""
    from gpu_runs.context import Context
    from gpu_runs.models import causal_lm

    ctx = Context(device="cpu", quick=quick, seeds=[0])
    folder, _info, _held = causal_lm.get_lm(ctx)
    return Path(folder)


def _manifest(out: Path) -> dict:
    from gpu_runs.standins import sha256_file

    files = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name != "MANIFEST.json"):
        files[path.relative_to(out).as_posix()] = {"bytes": path.stat().st_size, "sha256": sha256_file(path)}
    return files


def prepare(out: Path, *, quick: bool = False, wheels_from: str | None = None, no_wheels: bool = False) -> int:
    try:
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise PrepareError(f"--out {out} exists and is not an empty folder")
        wheels = out / "wheels"
        wheels.mkdir(parents=True, exist_ok=True)
        if wheels_from:
            found = sorted(Path(wheels_from).glob("*.whl"))
            if not found:
                raise PrepareError(f"--wheels-from {wheels_from}: no .whl files there")
            for whl in found:
                shutil.copy2(whl, wheels / whl.name)
        elif not no_wheels:
            _download_wheels(wheels)
        shutil.copy2(REQUIREMENTS, out / REQUIREMENTS.name)
        lm = _lm_folder(quick)
        shutil.copytree(lm, out / "cache" / lm.name)
        script = out / "run_gpu.sh"
        script.write_text(SCRIPT.replace("@EXPERIMENTS@", " ".join(EXPERIMENTS))
                          .replace("@QUICK@", "--quick" if quick else ""), encoding="utf-8")
        script.chmod(0o755)
        meta = json.loads((lm / "gpu_runs_meta.json").read_text(encoding="utf-8"))
        files = _manifest(out)
        total = sum(f["bytes"] for f in files.values())
        manifest = {"created_utc": provenance.utc_now(), "git_commit": provenance.git_state()[0], "quick": quick,
                    "experiments": list(EXPERIMENTS), "python_for_wheels": PYTHON_VERSION,
                    "platforms": list(PLATFORMS), "stand_in_lm": lm.name,
                    "stand_in_trained_with_torch": meta.get("trained_with_torch"),
                    "total_bytes": total, "files": files}
        (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    except PrepareError as exc:
        print(f"gpu_runs: error: {exc}", file=sys.stderr)
        return 2
    total_mb = total / 1e6
    print(f"prepared {out}: {len(files)} files, {total_mb:.1f} MB "
          f"(wheels {sum(f['bytes'] for k, f in files.items() if k.startswith('wheels/')) / 1e6:.1f} MB, "
          f"stand-in LM {lm.name})")
    print(f"on the GPU machine, from the repository root: bash {out}/run_gpu.sh")
    if total_mb > SIZE_LIMIT_MB:
        print(f"gpu_runs: warning: the folder is {total_mb:.1f} MB, over {SIZE_LIMIT_MB} MB", file=sys.stderr)
    return 0
