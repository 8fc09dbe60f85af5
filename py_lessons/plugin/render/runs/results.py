"""Run results: gpu_runs' JSON files (one per experiment and device, validated against
``gpu_runs/run.schema.json``), read for the run blocks and the ``{{ run:… }}`` macros.

Each file is read and schema-checked once while it is unchanged on disk (a page quotes the same
run dozens of times; checking took 6-7 s of every build); every load gets its own decoded copy.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from gpu_runs import jsonio

from ...base.errors import BlockError

DEVICES = jsonio.DEVICES          # result variants, side by side: <name>.json (cpu), <name>.cuda.json


class RunError(BlockError):
    """Bad run file, missing key, bad block body, or a claim that does not hold."""


def check_device(device: Any, name: Any) -> str:
    if device not in DEVICES:
        raise RunError(f"run {name!r}: unknown device {device!r} (known: {', '.join(DEVICES)})")
    return device


def valid_name(name: Any) -> bool:
    return isinstance(name, str) and re.fullmatch(r"[a-z0-9_]+", name) is not None


# Validated result files by (path, mtime, size): a changed file is read again.
_VALIDATED: dict[tuple[str, int, int], dict] = {}


def load_run(results_dir: str | Path, name: str, device: str = "cpu") -> dict:
    """Read the ``device`` variant of run ``name`` (``<name>.json`` for cpu, ``<name>.cuda.json``),
    validate it, decode NaN/inf markers. The caller may change what it gets."""
    if not valid_name(name):
        raise RunError(f"run name {name!r} is not a valid experiment name")
    check_device(device, name)
    path = Path(results_dir) / jsonio.result_filename(name, device)
    label = name if device == "cpu" else f"{name}@{device}"
    if not path.is_file():
        hint = "" if device == "cpu" else f" --device {device}"
        known = sorted({found.name.split(".")[0] for found in Path(results_dir).glob("*.json")})
        close = difflib.get_close_matches(name, known, n=1)
        meant = f"; did you mean {close[0]!r}?" if close else ""
        raise RunError(f"run {label!r}: result file {path} is missing (run `python -m gpu_runs run {name}{hint}`){meant}")
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _VALIDATED:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RunError(f"run {name!r}: cannot read {path}: {exc}") from exc
        try:
            jsonio.validate(raw, where=str(path))
        except ValueError as exc:
            raise RunError(f"run {name!r}: {exc}") from exc
        _VALIDATED[key] = raw
    raw = _VALIDATED[key]
    if raw.get("experiment") != name:
        raise RunError(f"run {name!r}: {path} holds experiment {raw.get('experiment')!r}")
    used = raw["provenance"]["device"]["used"]
    if used != device:
        raise RunError(f"run {label!r}: {path} holds a run on {used!r}, not {device!r}")
    return jsonio.decode(raw)


def list_variants(results_dir: str | Path) -> list[tuple[str, str]]:
    """Every (run name, device) with a result file, by name, the CPU variant first."""
    found = [jsonio.parse_result_filename(p.name) for p in Path(results_dir).glob("*.json")]
    return sorted((v for v in found if v is not None), key=lambda v: (v[0], DEVICES.index(v[1])))


def list_runs(results_dir: str | Path) -> list[str]:
    """Run names with at least one result file (any device)."""
    return sorted({name for name, _ in list_variants(results_dir)})
