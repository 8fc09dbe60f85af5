"""Real-run blocks: ```run-table```, ```run-chart```, ```run-claim```, ```run-provenance```,
```run-index```, each a YAML body (base/yaml_blocks.py) naming a run of gpu_runs/results.

:meth:`RunBlocks.render` raises :class:`RunError` with a message naming the run (and key); the
caller adds the page and line. Every number a reader sees goes through the one formatter
(values.py) and every reader-facing word comes from the catalogue (keys ``runs.*``).
"""

from __future__ import annotations

import html
from pathlib import Path

from gpu_runs import jsonio

from ...base.errors import BlockError
from ...base.html import comment
from ...base.yaml_blocks import read_block
from .chart import render_chart
from .provenance import render_provenance, render_run_index
from .results import DEVICES, RunError, check_device, load_run, valid_name
from .table import render_table
from .values import check_claim, format_value, resolve, run_attrs

# kind -> (required keys, optional keys); the renderer of each is RunBlocks._<kind>
KEYS = {
    "run-table": ({"run", "key"}, {"bangla_digits", "columns", "caption", "device"}),
    "run-chart": ({"run", "key"}, {"title", "y_clip", "log_y", "width", "height", "device"}),
    "run-claim": ({"run", "path"}, {"equals", "approx", "tol", "lt", "gt", "show", "format", "bangla_digits",
                                    "device"}),
    "run-provenance": ({"run"}, {"device"}),
    "run-index": (set(), set()),
}
NAMES = tuple(KEYS)


class RunBlocks:
    """Renders run blocks from the result files in ``results_dir``; a lesson of the run index is
    linked at ``<lessons_folder><slug>/``."""

    def __init__(self, results_dir: Path, lessons_folder: str = "lessons/"):
        self.results_dir = Path(results_dir)
        self.lessons_folder = lessons_folder
        self._render = {"run-table": self._table, "run-chart": self._chart, "run-claim": self._claim,
                        "run-provenance": self._provenance, "run-index": self._index}

    def load(self, name: str, device: str = "cpu") -> dict:
        return load_run(self.results_dir, name, device)

    def value(self, name: str, device: str, path: str):
        """A value of a run, for the ``{{ run:… }}`` macros."""
        return resolve(self.load(name, device), path)

    def variants(self, body: dict) -> list[dict]:
        """The runs a block shows: the one named by ``device:``; without it every device variant
        that exists (the CPU one first), or the CPU one's "missing" error when none does."""
        name = body["run"]
        if "device" in body:
            return [self.load(name, check_device(body["device"], name))]
        found = [d for d in DEVICES if valid_name(name) and (self.results_dir / jsonio.result_filename(name, d)).is_file()]
        return [self.load(name, d) for d in (found or ["cpu"])]

    def render(self, kind: str, source: str, root_url: str = "") -> str:
        """One block's YAML body as HTML; :class:`RunError` says what is wrong."""
        if kind not in KEYS:
            raise RunError(f"unknown run block {kind!r} (known: {', '.join(NAMES)})")
        required, optional = KEYS[kind]
        try:
            body = read_block(source or "", kind, required, optional)
        except BlockError as exc:
            raise RunError(str(exc)) from None
        return self._render[kind](body, root_url)

    def _table(self, body: dict, root_url: str) -> str:
        runs = self.variants(body)
        # a caption names the device when the page shows several variants, or a non-CPU one
        named = len(runs) > 1 or any(r["provenance"]["device"]["used"] != "cpu" for r in runs)
        return "\n".join(render_table(run, body["key"], bangla_digits=bool(body.get("bangla_digits", False)),
                                       columns=body.get("columns"), caption=body.get("caption"),
                                       device_caption=named) for run in runs)

    def _chart(self, body: dict, root_url: str) -> str:
        extra = {k: body[k] for k in ("title", "y_clip", "log_y", "width", "height") if k in body}
        device = check_device(body.get("device", "cpu"), body["run"])
        return render_chart(self.load(body["run"], device), body["key"], **extra)

    def _claim(self, body: dict, root_url: str) -> str:
        run = self.load(body["run"], check_device(body.get("device", "cpu"), body["run"]))
        value = check_claim(run, body["path"], equals=body.get("equals"), approx=body.get("approx"),
                            tol=body.get("tol"), lt=body.get("lt"), gt=body.get("gt"))
        path = html.escape(str(body["path"]))
        if not body.get("show", False):  # checked at build; a comment, not an element to lay out
            return comment(f'run-claim {body["run"]}: {body["path"]}')
        text = format_value(value, body.get("format"), bangla_digits=bool(body.get("bangla_digits", False)))
        return (f'<span class="gpu-run-claim" {run_attrs("run-claim", run["experiment"])} '
                f'data-path="{path}">{html.escape(text)}</span>')

    def _provenance(self, body: dict, root_url: str) -> str:
        return "\n".join(render_provenance(run) for run in self.variants(body))

    def _index(self, body: dict, root_url: str) -> str:
        return render_run_index(self.results_dir, lambda slug: f"{root_url}{self.lessons_folder}{slug}/")
