"""Facts about the machine and the code that ran an experiment."""
from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import platform
import subprocess
import sys
from pathlib import Path

# Instruction-set extensions that decide which int8 / bf16 / fp16 kernels
# the CPU can use (VNNI and AMX for int8 dot products, AVX512-BF16/AMX-BF16
# for bfloat16, F16C/AVX512-FP16 for half precision).
RELEVANT_FLAGS = (
    "sse4_2", "fma", "f16c", "avx", "avx2", "avx_vnni", "avx512f", "avx512bw", "avx512vl",
    "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_int8", "amx_bf16",
)

PACKAGES = ("torch", "transformers", "tokenizers", "accelerate", "safetensors", "bitsandbytes", "torchao", "numpy")

REPO_ROOT = Path(__file__).resolve().parent.parent


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def package_versions() -> dict:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def cpu_info() -> dict:
    model = platform.processor() or platform.machine()
    flags: set[str] = set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name") and model in ("", platform.machine(), platform.processor()):
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    capability = None
    try:
        import torch

        capability = torch.backends.cpu.get_cpu_capability()
    except Exception:  # torch missing or too old
        pass
    return {
        "model": model or "unknown",
        "logical_cpus": os.cpu_count() or 1,
        "flags": [f for f in RELEVANT_FLAGS if f in flags],
        "torch_cpu_capability": capability,
    }


def cuda_info(device: str) -> dict:
    """CUDA facts for provenance.device: all None unless the run used CUDA."""
    info = {"cuda_version": None, "cuda_driver_version": None, "gpu_name": None, "gpu_compute_capability": None}
    if device != "cuda":
        return info
    import torch

    info["cuda_version"] = torch.version.cuda
    info["gpu_name"] = torch.cuda.get_device_name(0)
    major, minor = torch.cuda.get_device_capability(0)
    info["gpu_compute_capability"] = f"{major}.{minor}"
    info["cuda_driver_version"] = _nvidia_driver()
    return info


def _nvidia_driver() -> str | None:
    """The NVIDIA driver version (nvidia-smi), else the CUDA driver API version torch sees."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader", "-i", "0"],
                             capture_output=True, text=True, timeout=20)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        import torch

        version = int(torch._C._cuda_getDriverVersion())   # e.g. 13000 for CUDA 13.0
        return f"CUDA driver API {version // 1000}.{version % 1000 // 10}"
    except Exception:  # noqa: BLE001 - private API, best effort
        return None


def public_arg(arg: str) -> str:
    """An argv entry as stored: an absolute local path loses the machine-specific part."""
    if not arg.startswith("/") and not arg.startswith("~"):
        if arg.startswith("--") and "=" in arg:
            key, value = arg.split("=", 1)
            return f"{key}={public_arg(value)}"
        return arg
    path = Path(arg).expanduser()
    for base, label in ((REPO_ROOT, ""), (Path.home(), "~/")):
        try:
            rel = path.resolve().relative_to(base.resolve())
            return f"{label}{rel}" if str(rel) != "." else (label.rstrip("/") or ".")
        except (ValueError, OSError):
            continue
    return f"<local>/{path.name}"


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def git_state() -> tuple[str | None, bool | None]:
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain", "--", ".", ":(exclude)gpu_runs/results")
    return commit, (None if status is None else bool(status))


def python_version() -> str:
    return f"{platform.python_implementation()} {sys.version.split()[0]}"
