"""Cache keys, fingerprints and provenance of the models gpu_runs trains or fine-tunes.

A cached model is keyed on what decides its weights: the training settings,
the sha256 of the generated corpus it was trained on and the sha256 of the
code that trains it.  The torch version is deliberately *not* part of the
key (a GPU machine with another torch must find the stand-in prepared here,
see `python -m gpu_runs prepare-gpu`); it is recorded in the cache's
``gpu_runs_meta.json`` instead, and a run that loads a model trained under
another torch says so in its provenance (``provenance.stand_ins``) and
warnings instead of silently retraining different weights.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import warnings
from pathlib import Path
from typing import Any, Callable

META = "gpu_runs_meta.json"
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def corpus_sha256(obj: Any) -> str:
    """sha256 of generated data (texts, labels) in a canonical JSON form."""
    return sha256_bytes(json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode())


def code_sha256(*objects: Callable | Any) -> str:
    """sha256 of the source of the functions/modules that train a model."""
    h = hashlib.sha256()
    for obj in objects:
        h.update(f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', ''))}"
                 .encode())
        h.update(inspect.getsource(obj).encode())
    return h.hexdigest()


def cache_key(**parts: Any) -> str:
    """12 hex digits over the given parts (training settings, corpus and code sha256)."""
    return sha256_bytes(json.dumps(parts, sort_keys=True, default=str).encode())[:12]


def weight_files(folder: Path) -> list[Path]:
    return sorted(p for p in Path(folder).iterdir() if p.is_file() and p.suffix in WEIGHT_SUFFIXES)


def weights_sha256(folder: Path) -> dict[str, str]:
    """{file name: sha256} of the weight files save_pretrained wrote."""
    return {p.name: sha256_file(p) for p in weight_files(folder)}


def folder_fingerprint(folder: Path) -> str:
    """sha256 over config.json and the weight files of a local checkpoint folder."""
    h = hashlib.sha256()
    for p in sorted(Path(folder).iterdir()):
        if p.is_file() and (p.name == "config.json" or p.suffix in WEIGHT_SUFFIXES):
            h.update(p.name.encode())
            h.update(sha256_file(p).encode())
    return h.hexdigest()


def model_name(path_or_id: str) -> str:
    """A model's name for provenance: never a local absolute path.

    A local folder is named by its config's ``_name_or_path``/``name_or_path``
    when that is a hub-style id (not a local path), else by the folder's name;
    anything else is taken as a hub id and kept.
    """
    path = Path(path_or_id).expanduser()
    if not path.is_dir():
        return path_or_id
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        config = {}
    for key in ("_name_or_path", "name_or_path"):
        value = config.get(key)
        if isinstance(value, str) and value.strip() and not _looks_local(value):
            return value.strip()
    return path.resolve().name


def _looks_local(value: str) -> bool:
    return (value.startswith(("/", "~", ".", "\\")) or ":" in value[:3] or os.path.isdir(value)
            or value.count("/") > 1)


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)[:40].strip("-.") or "model"


def read_meta(folder: Path) -> dict | None:
    path = Path(folder) / META
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def write_meta(folder: Path, meta: dict) -> None:
    (Path(folder) / META).write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")


def torch_version() -> str:
    import torch

    return torch.__version__


def provenance_entry(role: str, info: dict, folder: Path | None) -> dict:
    """The ``provenance.stand_ins`` entry for a model a run used.

    Recomputes the weights' sha256 (the files are small) and compares the
    torch version that trained them with the one running now; a difference
    is stated in the entry and raised as a warning (which the run records).
    """
    now = torch_version()
    trained_with = info.get("trained_with_torch")
    mismatch = None if trained_with is None else trained_with != now
    weights = weights_sha256(folder) if folder is not None and Path(folder).is_dir() else None
    notes = []
    if mismatch:
        notes.append(f"loaded from the cache: trained under torch {trained_with}, this run uses torch {now}; "
                     "the weights were not retrained")
        warnings.warn(f"{role} {info.get('name')!r}: cached weights were trained under torch {trained_with}, "
                      f"this run uses torch {now} (not retrained; see provenance.stand_ins)", RuntimeWarning)
    recorded = info.get("weights_sha256")
    if weights is not None and recorded and recorded != weights:
        notes.append("the cached weight files differ from the sha256 recorded when they were trained")
        warnings.warn(f"{role} {info.get('name')!r}: cached weights changed since training", RuntimeWarning)
    return {
        "role": role,
        "name": str(info.get("name")),
        "source": str(info.get("source", "")),
        "cache_key": info.get("cache_key"),
        "loaded_from_cache": bool(info.get("cached", False)),
        "training": info.get("training"),
        "corpus_sha256": info.get("corpus_sha256"),
        "code_sha256": info.get("code_sha256"),
        "weights_sha256": weights,
        "trained_with_torch": trained_with,
        "torch_now": now,
        "torch_mismatch": mismatch,
        "note": "; ".join(notes) or None,
    }
