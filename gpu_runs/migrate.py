"""`python -m gpu_runs migrate`: lift result files to the current schema without re-running.

Nothing measured is changed.  Version 1 -> 2 adds provenance.device's CUDA fields,
provenance.packages' accelerate and safetensors, and provenance.stand_ins, as null ("not
recorded").  Version 2 -> 3 turns each chart's English title, axis and line labels into
``{"bn": ..., "en": ...}`` (the Bangla from :data:`CHART_BN`) and rewords the Bangla column
headings in :data:`COLUMN_BN`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from gpu_runs import SCHEMA_VERSION, jsonio

CUDA_FIELDS = ("cuda_version", "cuda_driver_version", "gpu_name", "gpu_compute_capability")

# The Bangla of the chart texts that version-2 files hold, per experiment (the English is kept
# as "en"); since version 3 the experiments write both themselves.
_SEEDS_BN = "ছায়া: ৩টি seed-এর সর্বনিম্ন থেকে সর্বোচ্চ"
CHART_BN = {
    "explode": {
        "Training loss per step (median, band = min-max over 3 seeds)":
            f"প্রতি ধাপে প্রশিক্ষণের loss (median; {_SEEDS_BN})",
        "step": "ধাপ",
        "loss (log scale)": "loss (লগ স্কেল)",
        "no clip": "clip নেই",
        "clip_grad_value_ 0.01": "clip_grad_value_ 0.01",
        "clip_grad_norm_ 1.0": "clip_grad_norm_ 1.0",
    },
    "grad_norms": {
        "Gradient norm at each block output": "প্রতিটি block-এর output-এ gradient-এর norm",
        "layer (1 = next to the input)": "স্তর (১ = input-এর পাশেরটি)",
        "||dL/dh|| (log scale)": "||dL/dh|| (লগ স্কেল)",
        **{name: name for name in ("plain sigmoid", "plain tanh", "plain relu", "residual relu", "residual tanh")},
        "prenorm res relu": "pre-norm residual relu",
    },
    "mixed_precision": {
        "Training loss per step on CPU: fp32, bf16, fp16 + GradScaler":
            "CPU-তে প্রতি ধাপে প্রশিক্ষণের loss: fp32, bf16, fp16 + GradScaler",
        "step": "ধাপ",
        "loss": "প্রশিক্ষণের loss",
        **{name: name for name in ("fp32", "bf16 autocast", "fp16 autocast + GradScaler")},
    },
    "train_deep": {
        "Train loss per epoch, 40-layer MLPs (median, band = min-max over 3 seeds)":
            f"প্রতি epoch-এ প্রশিক্ষণের loss, ৪০ স্তরের MLP (median; {_SEEDS_BN})",
        "Validation accuracy per epoch (median, band = min-max over 3 seeds)":
            f"প্রতি epoch-এ validation accuracy (median; {_SEEDS_BN})",
        "epoch": "epoch নম্বর",
        "train loss": "প্রশিক্ষণের loss",
        "validation accuracy": "validation ডেটায় accuracy",
        "plain": "plain", "residual": "residual", "prenorm residual": "pre-norm residual",
    },
}
# "ঘর" means only a code cell in this course; a tensor's entry is an উপাদান (site/glossary.yml)
COLUMN_BN = {"fp16-এ শূন্য ঘরের ভাগ": "fp16-এ শূন্য হয়ে যাওয়া উপাদানের ভাগ"}


def _to_v2(raw: dict) -> None:
    prov = raw["provenance"]
    for key in CUDA_FIELDS:
        prov["device"].setdefault(key, None)
    for pkg in ("accelerate", "safetensors"):
        prov["packages"].setdefault(pkg, None)
    prov.setdefault("stand_ins", None)


def _to_v3(raw: dict) -> None:
    name = raw["experiment"]
    bangla = CHART_BN.get(name, {})

    def label(en: str, where: str) -> dict:
        if en not in bangla:
            raise ValueError(f"experiment {name!r}, {where}: no Bangla for the chart text {en!r}; add it to "
                             "gpu_runs.migrate.CHART_BN or re-run the experiment")
        return {"bn": bangla[en], "en": en}

    for key, series in raw["series"].items():
        for field in ("title", "x_label", "y_label"):
            series[field] = label(series[field], f"series {key!r} {field}")
        for line in series["lines"]:
            line["label"] = label(line["label"], f"series {key!r} line")
    for table in raw["tables"].values():
        for column in table["columns"]:
            column["bn"] = COLUMN_BN.get(column["bn"], column["bn"])


STEPS = {1: _to_v2, 2: _to_v3}     # version -> the step that lifts a file from it


def migrate_doc(raw: dict) -> bool:
    """Upgrade an encoded document in place; True when it changed."""
    version = raw.get("schema_version")
    if version == SCHEMA_VERSION:
        return False
    if version not in STEPS:
        raise ValueError(f"cannot migrate schema version {version!r} (this code writes {SCHEMA_VERSION})")
    while version != SCHEMA_VERSION:
        STEPS[version](raw)
        version += 1
    raw["schema_version"] = SCHEMA_VERSION
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
