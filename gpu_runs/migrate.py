"""`python -m gpu_runs migrate`: lift result files to the current schema without re-running.

Only adds the fields a newer schema requires, as null ("not recorded"):
nothing measured is changed.  Version 1 -> 2 adds provenance.device's CUDA
fields, provenance.packages' accelerate and safetensors, and
provenance.stand_ins.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from gpu_runs import SCHEMA_VERSION, jsonio

CUDA_FIELDS = ("cuda_version", "cuda_driver_version", "gpu_name", "gpu_compute_capability")


def migrate_doc(raw: dict) -> bool:
    """Upgrade an encoded document in place; True when it changed."""
    version = raw.get("schema_version")
    if version == SCHEMA_VERSION:
        return False
    if version != 1:
        raise ValueError(f"cannot migrate schema version {version!r} (this code writes {SCHEMA_VERSION})")
    prov = raw["provenance"]
    for key in CUDA_FIELDS:
        prov["device"].setdefault(key, None)
    for pkg in ("accelerate", "safetensors"):
        prov["packages"].setdefault(pkg, None)
    prov.setdefault("stand_ins", None)
    raw["schema_version"] = 2
    return True


def migrate_folder(folder: Path) -> list[Path]:
    changed = []
    for path in sorted(Path(folder).glob("*.json")):
        if jsonio.parse_result_filename(path.name) is None:
            continue
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not migrate_doc(raw):
            continue
        jsonio.validate(raw, where=f"{path.name} (migrated)")
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(jsonio.dumps(raw), encoding="utf-8")
        os.replace(tmp, path)
        changed.append(path)
    return changed
