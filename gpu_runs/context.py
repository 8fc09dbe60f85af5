"""The object an experiment receives: settings, helpers and its result."""
from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from gpu_runs.provenance import REPO_ROOT


def cache_root() -> Path:
    env = os.environ.get("GPU_RUNS_CACHE")
    return Path(env) if env else REPO_ROOT / ".cache" / "gpu_runs"


def _label(text: tuple[str, str]) -> dict:
    bn, en = text
    return {"bn": bn, "en": en}


class Result:
    """Collects what an experiment measured; becomes one JSON file."""

    def __init__(self) -> None:
        self.config: dict = {}
        self.models: list[dict] = []
        self.data: dict = {}
        self.tables: dict = {}
        self.series: dict = {}
        self.values: dict = {}
        self.notes: list[str] = []
        self.variants_absent: list[dict] = []

    def table(self, key: str, title: tuple[str, str], columns: list[tuple], rows: list[dict]) -> None:
        """*title* is ``(bn, en)``: the page's caption, the English as its tooltip."""
        cols = []
        for col in columns:
            key_, bn, en, *fmt = col
            entry = {"key": key_, "bn": bn, "en": en}
            if fmt and fmt[0]:
                entry["format"] = fmt[0]
            cols.append(entry)
        known = {c["key"] for c in cols}
        for row in rows:
            missing = known - set(row)
            if missing:
                raise ValueError(f"table {key}: row {row} lacks {sorted(missing)}")
        self.tables[key] = {"title": _label(title), "columns": cols, "rows": rows}

    def add_series(self, key: str, title: tuple[str, str], x: list, lines: dict[tuple[str, str], list], *,
                   x_label: tuple[str, str], y_label: tuple[str, str], log_y: bool = False,
                   y_clip: float | None = None, bands: dict[tuple[str, str], tuple[list, list]] | None = None) -> None:
        """Chart text is ``(bn, en)``: the page draws the Bangla and keeps the English as its tooltip.
        *lines* and *bands* are keyed by the line's ``(bn, en)`` label; *bands* is an optional
        ``{label: (low, high)}``, a shaded range around a line (e.g. min-max over seeds)."""
        bands = bands or {}
        self.series[key] = {
            "title": _label(title), "x_label": _label(x_label), "y_label": _label(y_label), "log_y": log_y,
            "y_clip": y_clip,
            "x": list(x), "lines": [{"label": _label(k), "values": list(v)} |
                                    ({"band": {"low": list(bands[k][0]), "high": list(bands[k][1])}}
                                     if k in bands else {}) for k, v in lines.items()],
        }

    def model(self, role: str, name: str, *, stand_in: str | None = None, source: str = "",
              parameters: int | None = None, **details: Any) -> None:
        entry: dict = {"role": role, "name": name, "stand_in": stand_in, "source": source}
        if parameters is not None:
            entry["parameters"] = int(parameters)
        if details:
            entry["details"] = details
        self.models.append(entry)


@dataclass
class Context:
    device: str                 # "cpu" or "cuda", already resolved
    quick: bool
    seeds: list[int]
    model_id: str | None = None
    progress: Any = None        # rich Progress or None
    result: Result = field(default_factory=Result)
    # models trained/fine-tuned/loaded for this run -> provenance.stand_ins (gpu_runs.standins.provenance_entry)
    stand_ins: list = field(default_factory=list)

    def record_stand_in(self, entry: dict) -> None:
        """Note a model the run used (once per role and name)."""
        if not any(e["role"] == entry["role"] and e["name"] == entry["name"] for e in self.stand_ins):
            self.stand_ins.append(entry)

    @property
    def cache(self) -> Path:
        path = cache_root()
        path.mkdir(parents=True, exist_ok=True)
        return path

    def track(self, iterable: Iterable, description: str, total: int | None = None):
        """Iterate with a progress bar when a console is attached."""
        if self.progress is None:
            yield from iterable
            return
        if total is None:
            try:
                total = len(iterable)  # type: ignore[arg-type]
            except TypeError:
                total = None
        task = self.progress.add_task(description, total=total)
        try:
            for item in iterable:
                yield item
                self.progress.advance(task)
        finally:
            self.progress.remove_task(task)

    def log(self, message: str) -> None:
        if self.progress is not None:
            self.progress.console.log(message)


def scrub_paths(text: str) -> str:
    """Replace machine-specific folders in a message by short placeholders."""
    import re
    import sys

    for prefix, label in ((sys.prefix, "<venv>"), (str(REPO_ROOT), "<repo>"), (str(Path.home()), "~")):
        if prefix and len(prefix) > 1:
            text = text.replace(prefix, label)
    return re.sub(r"/tmp/[^\s'\":]*", "<tmp>", text)


class WarningCapture:
    """Records Python warnings and library log warnings raised during a run."""

    def __init__(self) -> None:
        self.records: dict[tuple, dict] = {}
        self._catcher = warnings.catch_warnings(record=True)
        self._handler = _ListHandler(self)

    def add(self, category: str, message: str, source: str = "") -> None:
        message = scrub_paths(message.strip())
        key = (category, message)
        if key in self.records:
            self.records[key]["count"] += 1
        else:
            self.records[key] = {"category": category, "message": message, "source": source, "count": 1}

    def __enter__(self) -> "WarningCapture":
        self._list = self._catcher.__enter__()
        warnings.simplefilter("always")
        for name in ("transformers", "torchao", "bitsandbytes", "torch"):
            logging.getLogger(name).addHandler(self._handler)
        return self

    def __exit__(self, *exc) -> None:
        for name in ("transformers", "torchao", "bitsandbytes", "torch"):
            logging.getLogger(name).removeHandler(self._handler)
        for w in self._list:
            module = Path(w.filename).parent.name + "/" + Path(w.filename).name
            self.add(w.category.__name__, str(w.message), module)
        self._catcher.__exit__(*exc)

    def as_list(self) -> list[dict]:
        return list(self.records.values())


class _ListHandler(logging.Handler):
    def __init__(self, capture: WarningCapture) -> None:
        super().__init__(level=logging.WARNING)
        self.capture = capture

    def emit(self, record: logging.LogRecord) -> None:
        self.capture.add(f"log.{record.levelname}", record.getMessage(), record.name)
