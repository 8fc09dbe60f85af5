"""JSON encoding shared by the writer (experiments) and the reader (site).

JSON has no NaN or infinity.  A run that blows up is still a result, so
non-finite floats are written as the strings "NaN", "Infinity" and
"-Infinity" (the spellings Python's own json module uses for its
non-standard literals) and turned back into floats when read.  This module
imports only the standard library so the site build can use it.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

NONFINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}

# One result file per experiment and device, side by side, so a CUDA run never
# replaces the CPU results: <name>.json (cpu, the path pages have always used)
# and <name>.cuda.json.
DEVICES = ("cpu", "cuda")


def result_filename(name: str, device: str = "cpu") -> str:
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r} (known: {', '.join(DEVICES)})")
    return f"{name}.json" if device == "cpu" else f"{name}.{device}.json"


def parse_result_filename(filename: str) -> tuple[str, str] | None:
    """``("lowbit_llm", "cuda")`` for ``lowbit_llm.cuda.json``; None for other files."""
    if not filename.endswith(".json"):
        return None
    stem = filename[:-len(".json")]
    name, _, device = stem.partition(".")
    if not device:
        return name, "cpu"
    return (name, device) if device in DEVICES and device != "cpu" else None


def encode(value: Any) -> Any:
    """Return a copy of *value* that json.dumps(allow_nan=False) accepts."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    # numpy scalars and 0-d tensors expose item()
    item = getattr(value, "item", None)
    if callable(item):
        return encode(item())
    raise TypeError(f"cannot store {type(value).__name__} in a run file")


def decode(value: Any) -> Any:
    """Inverse of :func:`encode`: the three marker strings become floats."""
    if isinstance(value, str):
        return NONFINITE.get(value, value)
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def dumps(doc: dict) -> str:
    return json.dumps(encode(doc), ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def schema_path() -> Path:
    return Path(__file__).with_name("run.schema.json")


def load_schema() -> dict:
    return json.loads(schema_path().read_text(encoding="utf-8"))


def validate(raw_doc: dict, *, where: str = "run") -> None:
    """Validate an *encoded* document (as stored on disk) against the schema."""
    import jsonschema

    from gpu_runs import SCHEMA_VERSION

    found = raw_doc.get("schema_version") if isinstance(raw_doc, dict) else None
    if isinstance(found, int) and found < SCHEMA_VERSION:
        raise ValueError(f"{where}: written with schema version {found}, this code reads {SCHEMA_VERSION}; "
                         "run `python -m gpu_runs migrate` (adds the new fields as null, translates and rewords "
                         "the labels and titles; nothing measured changes) or re-run it")
    _check_chart_labels(raw_doc, where)
    _check_title_labels(raw_doc, where)
    validator = jsonschema.Draft202012Validator(load_schema())
    errors = sorted(validator.iter_errors(raw_doc), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        loc = "/".join(str(p) for p in first.path) or "(top)"
        raise ValueError(f"{where}: schema violation at {loc}: {first.message}")


_BENGALI_LETTER = re.compile("[\u0980-\u09ff]")
# a chart's title and axes are phrases, so their Bangla must be Bangla script; a line's label may
# be a code name (fp32, clip_grad_norm_ 1.0) that reads the same in both languages
_PHRASES = ("title", "x_label", "y_label")


def _label_problem(label: Any, phrase: bool) -> str | None:
    if not isinstance(label, dict) or not label.get("bn") or not label.get("en"):
        return f"is {label!r}, not {{\"bn\": ..., \"en\": ...}}"
    if phrase and not (isinstance(label["bn"], str) and _BENGALI_LETTER.search(label["bn"])):
        return f"has no Bangla text (bn is {label['bn']!r})"
    return None


def _check_chart_labels(raw_doc: Any, where: str) -> None:
    """Every chart speaks Bangla: a clear error naming the experiment, series and label, before
    the schema's generic one."""
    if not isinstance(raw_doc, dict) or not isinstance(raw_doc.get("series"), dict):
        return
    for key, series in raw_doc["series"].items():
        if not isinstance(series, dict):
            continue
        labels = [(name, series.get(name), True) for name in _PHRASES]
        labels += [(f"lines[{i}].label", line.get("label"), False)
                   for i, line in enumerate(series.get("lines") or []) if isinstance(line, dict)]
        for name, label, phrase in labels:
            problem = _label_problem(label, phrase)
            if problem:
                raise ValueError(f"{where}: experiment {raw_doc.get('experiment')!r}, series {key!r}: "
                                 f"{name} {problem}")


def _check_title_labels(raw_doc: Any, where: str) -> None:
    """The run's title (the runs index shows it) and every table's (its caption) speak Bangla: a
    clear error naming the experiment and table, before the schema's generic one."""
    if not isinstance(raw_doc, dict):
        return
    named = f"{where}: experiment {raw_doc.get('experiment')!r}"
    if "title" in raw_doc:
        problem = _label_problem(raw_doc["title"], phrase=True)
        if problem:
            raise ValueError(f"{named}: the run's title {problem}")
    tables = raw_doc.get("tables")
    for key, table in (tables.items() if isinstance(tables, dict) else ()):
        if isinstance(table, dict) and "title" in table:
            problem = _label_problem(table["title"], phrase=True)
            if problem:
                raise ValueError(f"{named}, table {key!r}: title {problem}")
