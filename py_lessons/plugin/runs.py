"""Real-run blocks: ```run-table```, ```run-chart```, ```run-claim```, ```run-provenance```, ```run-index```.

gpu_runs writes one JSON file per experiment (validated against ``gpu_runs/run.schema.json``);
this module reads those files and renders a block's YAML body to HTML. It knows nothing about
MkDocs: :meth:`RunBlocks.render` raises :class:`RunError` with a message naming the run (and key),
and the caller adds the page and line.

Every number a reader sees goes through :func:`py_lessons.runtime.numbers.format_number`, and
every reader-facing word comes from the catalogue (``strings.bn.json``, keys ``runs.*``).
No torch, no mkdocs: the standard library, ``gpu_runs.jsonio``, ``yaml`` and (for charts,
imported lazily) ``matplotlib``, which measures a chart's Bangla labels with the Bangla font the
cells' figures use.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import math
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from gpu_runs import jsonio

from ..runtime.numbers import bn_digits, format_number
from ..runtime.session import BANGLA_FONT_FAMILY
from . import dependencies
from .strings import t
from .vendor import PLOT_FONT, plot_fonts

NAMES = ("run-table", "run-chart", "run-claim", "run-provenance", "run-index")
NONE_TEXT = "—"


class RunError(ValueError):
    """Bad run file, missing key, bad block body, or a claim that does not hold."""


# --------------------------------------------------------------------------- loading
DEVICES = jsonio.DEVICES          # result variants, side by side: <name>.json (cpu), <name>.cuda.json


def _check_device(device: Any, name: Any) -> str:
    if device not in DEVICES:
        raise RunError(f"run {name!r}: unknown device {device!r} (known: {', '.join(DEVICES)})")
    return device


def load_run(results_dir: str | Path, name: str, device: str = "cpu") -> dict:
    """Read the ``device`` variant of run ``name`` (``<name>.json`` for cpu, ``<name>.cuda.json``),
    validate it, decode NaN/inf markers."""
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]+", name or ""):
        raise RunError(f"run name {name!r} is not a valid experiment name")
    _check_device(device, name)
    path = Path(results_dir) / jsonio.result_filename(name, device)
    label = name if device == "cpu" else f"{name}@{device}"
    if not path.is_file():
        hint = "" if device == "cpu" else f" --device {device}"
        raise RunError(f"run {label!r}: result file {path} is missing (run `python -m gpu_runs run {name}{hint}`)")
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


# Validated result files by (path, mtime, size): a page quotes the same run dozens of times, and
# the schema check took 6-7 s of every build (196 validations); a changed file is read again.
_VALIDATED: dict[tuple[str, int, int], dict] = {}


def list_variants(results_dir: str | Path) -> list[tuple[str, str]]:
    """Every (run name, device) with a result file, by name, the CPU variant first."""
    found = [jsonio.parse_result_filename(p.name) for p in Path(results_dir).glob("*.json")]
    return sorted((v for v in found if v is not None), key=lambda v: (v[0], DEVICES.index(v[1])))


def list_runs(results_dir: str | Path) -> list[str]:
    """Run names with at least one result file (any device)."""
    return sorted({name for name, _ in list_variants(results_dir)})


# --------------------------------------------------------------------------- formatting
def format_value(value: Any, fmt: str | None = None, *, bangla_digits: bool = False) -> str:
    """A value as a reader sees it: numbers through the one formatter, booleans in words."""
    if value is None:
        return NONE_TEXT
    if isinstance(value, bool):
        return t("runs.value.yes") if value else t("runs.value.no")
    if isinstance(value, (int, float)):
        return format_number(value, fmt or "", bangla=bangla_digits)
    return str(value)


def _get_table(run: dict, key: str) -> dict:
    tables = run.get("tables", {})
    if key not in tables:
        raise RunError(f"run {run['experiment']!r}: no table {key!r} (has: {', '.join(tables) or 'none'})")
    return tables[key]


def _attrs(component: str, run: str, key: str | None = None, device: str | None = None) -> str:
    extra = f' data-key="{html.escape(key)}"' if key else ""
    if device and device != "cpu":
        extra += f' data-device="{html.escape(device)}"'
    return f'data-component="{component}" data-run="{html.escape(run)}"{extra}'


# a number in a column heading: digits not part of a name such as fp32, int8 or macro-F1
_HEADING_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_])")


def render_table(run: dict, key: str, *, bangla_digits: bool = False, columns: list[str] | None = None,
                 caption: str | None = None, device_caption: bool = False) -> str:
    """An HTML table with the Bangla title (its caption, the English as the caption's tooltip) and
    column headings stored in the run; ``bangla_digits`` writes the headings' digits in Bangla too.

    ``device_caption``: end the caption with where the run ran (the GPU's name for a CUDA run),
    for pages that show several device variants of one run."""
    table = _get_table(run, key)
    cols = table["columns"]
    if columns is not None:
        if not isinstance(columns, list):
            raise RunError(f"run {run['experiment']!r} table {key!r}: columns must be a list, got {columns!r}")
        by_key = {c["key"]: c for c in cols}
        unknown = [c for c in columns if c not in by_key]
        if unknown:
            raise RunError(f"run {run['experiment']!r} table {key!r}: unknown column(s) {unknown} "
                           f"(has: {', '.join(by_key)})")
        cols = [by_key[c] for c in columns]
    cap = table["title"]["bn"] if caption is None else str(caption)
    # a page's own caption has no English to show; the run's title does
    tooltip = f' title="{html.escape(table["title"]["en"])}"' if caption is None else ""
    if device_caption:
        cap = f"{cap} · {_where(run)}" if cap else _where(run)
    # the wrapper scrolls sideways on a phone (so it is a named, focusable region); it is the root
    region = html.escape(cap or key)
    device = run["provenance"]["device"]["used"]
    out = [f'<div class="gpu-run-table-wrap" {_attrs("run-table", run["experiment"], key, device)} role="region" '
           f'tabindex="0" aria-label="{region}">', '<table class="gpu-run-table">']
    if cap:
        out.append(f"<caption{tooltip}>{html.escape(cap)}</caption>")

    def heading(text: str) -> str:   # "স্তর 5" as the cells' digits are; fp32, macro-F1 are names
        return _HEADING_NUMBER.sub(lambda m: bn_digits(m[0]), text) if bangla_digits else text

    out.append("<thead><tr>" + "".join(f'<th title="{html.escape(c["en"])}">{html.escape(heading(c["bn"]))}</th>'
                                       for c in cols) + "</tr></thead>")
    out.append("<tbody>")
    for row in table["rows"]:
        cells = []
        for c in cols:
            value = row.get(c["key"])
            text = format_value(value, c.get("format"), bangla_digits=bangla_digits)
            klass = ' class="nonfinite"' if isinstance(value, float) and not math.isfinite(value) else ""
            cells.append(f"<td{klass}>{html.escape(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


@cache
def _bangla_font() -> Path:
    """The TrueType Bangla font the cells' figures are measured with, made from the same npm WOFF
    as staging's copy (this FreeType cannot read WOFF); converted once per machine."""
    from .staging import convert_font

    woff = plot_fonts(dependencies.node_modules())[PLOT_FONT[0]]
    ttf = dependencies.user_cache() / "fonts" / hashlib.sha256(woff.read_bytes()).hexdigest()[:16] / PLOT_FONT[0]
    if not ttf.is_file():
        ttf.parent.mkdir(parents=True, exist_ok=True)
        part = ttf.with_name(ttf.name + ".part")
        convert_font(woff, part)
        os.replace(part, ttf)
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(ttf))
    return ttf


# Okabe & Ito's palette: told apart with every common colour-vision deficiency; in this order the
# first three are the lessons' own colours for float32, bf16 and fp16 (the runs' line order)
LINE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")


def _with_english_tooltips(svg: str, english: dict[str, str]) -> str:
    """Give each drawn Bangla text (its group's id is a key of ``english``) an SVG <title>: the
    English it translates, shown on hover, as the table headers' title= is."""
    for gid, en in english.items():
        svg = svg.replace(f'<g id="{gid}">', f'<g id="{gid}"><title>{html.escape(en)}</title>', 1)
    return svg


def render_chart(run: dict, key: str, *, width: float = 6.4, height: float = 3.6, title: str | None = None,
                 y_clip: float | None = None, log_y: bool | None = None) -> str:
    """An inline SVG line chart of ``run['series'][key]`` drawn with matplotlib: the series' Bangla
    title, axis and line labels (``{"bn", "en"}``), the English as their tooltips."""
    series = run.get("series", {})
    if key not in series:
        raise RunError(f"run {run['experiment']!r}: no series {key!r} (has: {', '.join(series) or 'none'})")
    s = series[key]
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    _bangla_font()
    clip = s.get("y_clip") if y_clip is None else y_clip
    use_log = s.get("log_y", False) if log_y is None else log_y
    # a salt per chart keeps clip-path ids unique when several charts share a page
    salt = f"{run['experiment']}-{key}"
    english: dict[str, str] = {}

    def bangla(artist, label: dict, part: str) -> None:
        artist.set_gid(f"{salt}-{part}")
        english[f"{salt}-{part}"] = label["en"]

    # DejaVu Sans has no Bengali glyphs: matplotlib falls back to the next family, as in the cells
    from cycler import cycler

    rc = {"svg.fonttype": "none", "svg.hashsalt": salt, "font.size": 9,
          "font.family": ["DejaVu Sans", BANGLA_FONT_FAMILY, "sans-serif"],
          "axes.prop_cycle": cycler(color=LINE_COLOURS)}
    with plt.rc_context(rc):
        fig, ax = plt.subplots(figsize=(width, height))
        try:
            for line in s["lines"]:
                ys = [v if isinstance(v, (int, float)) and math.isfinite(v) else math.nan for v in line["values"]]
                if clip is not None:
                    ys = [min(v, clip) if not math.isnan(v) else v for v in ys]
                drawn = ax.plot(s["x"], ys, marker="o" if len(ys) <= 40 else None, markersize=3,
                                label=line["label"]["bn"])
                band = line.get("band")
                if band:   # a shaded range (e.g. min-max over seeds) in the line's colour
                    lo, hi = ([v if isinstance(v, (int, float)) and math.isfinite(v) else math.nan for v in vs]
                              for vs in (band["low"], band["high"]))
                    if clip is not None:
                        lo, hi = ([min(v, clip) if not math.isnan(v) else v for v in vs] for vs in (lo, hi))
                    ax.fill_between(s["x"], lo, hi, color=drawn[0].get_color(), alpha=0.2, linewidth=0)
            if use_log:
                ax.set_yscale("log")
            if clip is not None:
                ax.set_ylim(top=clip * 1.02)
            bangla(ax.set_xlabel(s["x_label"]["bn"]), s["x_label"], "x-label")
            bangla(ax.set_ylabel(s["y_label"]["bn"]), s["y_label"], "y-label")
            if title is None:
                bangla(ax.set_title(s["title"]["bn"]), s["title"], "title")
            else:
                ax.set_title(title)
            for i, (text, line) in enumerate(zip(ax.legend(fontsize=8).get_texts(), s["lines"])):
                bangla(text, line["label"], f"line-{i}")
            ax.grid(alpha=0.3)
            fig.tight_layout()
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    # matplotlib's "*{...}" rule would restyle every SVG on the page once inlined
    svg = re.sub(r"<style[^>]*>\s*\*\{[^}]*\}\s*</style>", "", svg, count=1)
    svg = _with_english_tooltips(svg, english)
    caption = str(title) if title is not None else s["title"]["bn"]
    tooltip = "" if title is not None else f' title="{html.escape(s["title"]["en"])}"'
    clipped = clip is not None and any(isinstance(v, (int, float)) and v > clip
                                       for line in s["lines"] for v in line["values"])
    if clipped:
        caption = t("runs.chart.clipped", caption=caption, clip=format_value(clip))
    return (f'<figure class="gpu-run-chart" {_attrs("run-chart", run["experiment"], key)} data-search-exclude>{svg}'
            f"<figcaption{tooltip}>{html.escape(caption)}</figcaption></figure>")


def _date(run: dict) -> str:
    return run["provenance"]["finished_utc"][:10]


def _where(run: dict) -> str:
    p = run["provenance"]
    dev = p["device"]
    if dev["used"] == "cuda":
        return dev["name"]
    return t("runs.provenance.cpu", model=p["cpu"]["model"], threads=format_number(p["threads"]))


def provenance_text(run: dict) -> str:
    p = run["provenance"]
    quick = f" ({t('runs.provenance.quick')})" if run.get("quick") else ""
    duration = t("runs.provenance.seconds", seconds=format_number(p["duration_s"], ".1f"))
    return f"{_where(run)} · torch {p['packages'].get('torch')} · {_date(run)} · {duration}{quick} · {p['command']}"


def render_provenance(run: dict) -> str:
    """One line: device, torch version, date, command to reproduce."""
    p = run["provenance"]
    absent = "; ".join(f"{v['variant']}: {v['reason']}" for v in run.get("variants_absent", []))
    absent_html = f' <span class="absent">({html.escape(absent)})</span>' if absent else ""
    device = p["device"]["used"]
    return (f'<p class="gpu-run-provenance" {_attrs("run-provenance", run["experiment"], None, device)}>'
            f"{html.escape(t('runs.provenance.real'))}: {html.escape(_where(run))} · "
            f"torch {html.escape(str(p['packages'].get('torch')))} · "
            f"{html.escape(_date(run))} · {html.escape(t('runs.provenance.rerun'))}: "
            f"<code>{html.escape(p['command'])}</code>{absent_html}</p>")


# --------------------------------------------------------------------------- claims
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]|\[([^=\]]+)=([^\]]+)\]")


def resolve(run: dict, path: str) -> Any:
    """Follow a path like ``values.plain_final_loss``,
    ``tables.final_table.rows[0].val_acc`` or
    ``tables.final_table.rows[model=plain].final_loss``."""
    if not isinstance(path, str):
        raise RunError(f"run {run['experiment']!r}: path must be text, got {path!r}")
    node: Any = run
    pos = 0
    for m in _PATH_PART.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            raise RunError(f"run {run['experiment']!r}: malformed path {path!r}")
        pos = m.end()
        name, index, sel_key, sel_val = m.groups()
        try:
            if name is not None:
                node = node[name]
            elif index is not None:
                node = node[int(index)]
            else:
                matches = [r for r in node if str(r.get(sel_key)) == sel_val]
                if len(matches) != 1:
                    raise KeyError(f"{len(matches)} rows with {sel_key}={sel_val}")
                node = matches[0]
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise RunError(f"run {run['experiment']!r}: path {path!r} not found ({exc})") from None
    if pos != len(path):
        raise RunError(f"run {run['experiment']!r}: malformed path {path!r}")
    return node


def _show(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return repr(value)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def check_claim(run: dict, path: str, *, equals: Any = None, approx: float | None = None,
                tol: float | None = None, lt: float | None = None, gt: float | None = None) -> Any:
    """Assert something about a value in a run; return the value when it holds."""
    value = resolve(run, path)
    name = run["experiment"]
    checks = []
    if equals is not None:
        if isinstance(equals, str) and equals in jsonio.NONFINITE:
            equals = jsonio.NONFINITE[equals]
        checks.append((f"== {equals!r}", _same(value, equals)))
    if approx is not None:
        if tol is None:
            raise RunError(f"run {name!r}: claim on {path!r} gives approx without tol")
        ok = isinstance(value, (int, float)) and math.isfinite(value) and abs(value - approx) <= tol
        checks.append((f"≈ {approx!r} ± {tol!r}", ok))
    if lt is not None:
        checks.append((f"< {lt!r}", isinstance(value, (int, float)) and value < lt))
    if gt is not None:
        checks.append((f"> {gt!r}", isinstance(value, (int, float)) and value > gt))
    if not checks:
        raise RunError(f"run {name!r}: claim on {path!r} states nothing (give equals, approx+tol, lt or gt)")
    failed = [text for text, ok in checks if not ok]
    if failed:
        raise RunError(f"run {name!r}: claim failed: {path} {' and '.join(failed)}; actual value: {_show(value)}")
    return value


# --------------------------------------------------------------------------- index
def lesson_url(slug: str, root_url: str = "") -> str:
    """The lesson page of ``slug``, relative to the page that links to it."""
    return f"{root_url}lessons/{slug}/"


def render_run_index(results_dir: str | Path, root_url: str = "", *, load=None) -> str:
    """Every run variant in ``results_dir`` (one row per device): its lesson (a link), what it
    measures, where and how it ran."""
    load = load or (lambda name, device="cpu": load_run(results_dir, name, device))
    heads = [t("runs.index.run"), t("runs.index.lesson"), t("runs.index.measured"), t("runs.index.provenance"),
             t("runs.index.absent")]
    out = ['<div class="gpu-run-index" data-component="run-index" data-run="*">', "<table>",
           "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr></thead><tbody>"]
    for name, device in list_variants(results_dir):
        run = load(name) if device == "cpu" else load(name, device)
        absent = "; ".join(f"{v['variant']}: {v['reason']}" for v in run["variants_absent"]) or NONE_TEXT
        slug = html.escape(run["lesson"])
        href = html.escape(lesson_url(run["lesson"], root_url))
        variant = "" if device == "cpu" else f" · {html.escape(device)}"
        device_attr = "" if device == "cpu" else f' data-device="{html.escape(device)}"'
        out.append(f'<tr data-run="{html.escape(name)}"{device_attr}>'
                   f'<td><code>{html.escape(name)}</code>{variant}</td>'
                   f'<td><a href="{href}">{slug}</a></td>'
                   f'<td title="{html.escape(run["title"]["en"])}">{html.escape(run["title"]["bn"])}</td>'
                   f"<td>{html.escape(provenance_text(run))}</td><td>{html.escape(absent)}</td></tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


# --------------------------------------------------------------------------- blocks
def _parse_body(source: str, block: str) -> dict:
    import yaml

    try:
        body = yaml.safe_load(source) or {}
    except yaml.YAMLError as exc:
        raise RunError(f"{block}: body is not valid YAML: {exc}") from None
    if not isinstance(body, dict):
        raise RunError(f"{block}: body must be a YAML mapping, got {source!r}")
    return body


def _need(body: dict, block: str, *keys: str) -> None:
    missing = [k for k in keys if k not in body]
    if missing:
        raise RunError(f"{block}: missing {', '.join(missing)} in {body!r}")


def _allowed(body: dict, block: str, allowed: set[str]) -> None:
    extra = set(body) - allowed
    if extra:
        raise RunError(f"{block} (run {body.get('run')!r}): unknown option(s) {sorted(extra)}")


class RunBlocks:
    """Renders run blocks from the result files in ``results_dir``; each file is read once
    (again only when it changes on disk)."""

    def __init__(self, results_dir: Path):
        self.results_dir = Path(results_dir)
        self._runs: dict[tuple[str, str], tuple[tuple[int, int], dict]] = {}

    def load(self, name: str, device: str = "cpu") -> dict:
        """The ``device`` variant of run ``name``, from the cache while its file is unchanged."""
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]+", name) or device not in DEVICES:
            return load_run(self.results_dir, name, device)  # raises the usual error
        try:
            st = (self.results_dir / jsonio.result_filename(name, device)).stat()
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            return load_run(self.results_dir, name, device)  # raises "missing"
        cached = self._runs.get((name, device))
        if cached is not None and cached[0] == stamp:
            return cached[1]
        run = load_run(self.results_dir, name, device)
        self._runs[(name, device)] = (stamp, run)
        return run

    def variants(self, body: dict) -> list[dict]:
        """The runs a block shows: the one named by ``device:``; without it every device variant
        that exists (the CPU one first), or the CPU one's "missing" error when none does."""
        name = body["run"]
        if "device" in body:
            return [self.load(name, _check_device(body["device"], name))]
        found = [d for d in DEVICES if isinstance(name, str) and re.fullmatch(r"[a-z0-9_]+", name)
                 and (self.results_dir / jsonio.result_filename(name, d)).is_file()]
        return [self.load(name, d) for d in (found or ["cpu"])]

    def render(self, name: str, body: str, root_url: str = "") -> str:
        """One block's YAML ``body`` as HTML; :class:`RunError` says what is wrong."""
        if name not in NAMES:
            raise RunError(f"unknown run block {name!r} (known: {', '.join(NAMES)})")
        method = getattr(self, "_" + name.replace("-", "_"))
        return method(body or "", root_url)

    def _run_table(self, source: str, root_url: str) -> str:
        body = _parse_body(source, "run-table")
        _need(body, "run-table", "run", "key")
        _allowed(body, "run-table", {"run", "key", "bangla_digits", "columns", "caption", "device"})
        runs = self.variants(body)
        # a caption names the device when the page shows several variants, or a non-CPU one
        named = len(runs) > 1 or any(r["provenance"]["device"]["used"] != "cpu" for r in runs)
        return "\n".join(render_table(run, body["key"], bangla_digits=bool(body.get("bangla_digits", False)),
                                       columns=body.get("columns"), caption=body.get("caption"),
                                       device_caption=named) for run in runs)

    def _run_chart(self, source: str, root_url: str) -> str:
        body = _parse_body(source, "run-chart")
        _need(body, "run-chart", "run", "key")
        _allowed(body, "run-chart", {"run", "key", "title", "y_clip", "log_y", "width", "height", "device"})
        extra = {k: body[k] for k in ("title", "y_clip", "log_y", "width", "height") if k in body}
        device = _check_device(body.get("device", "cpu"), body["run"])
        return render_chart(self.load(body["run"], device), body["key"], **extra)

    def _run_claim(self, source: str, root_url: str) -> str:
        body = _parse_body(source, "run-claim")
        _need(body, "run-claim", "run", "path")
        _allowed(body, "run-claim", {"run", "path", "equals", "approx", "tol", "lt", "gt", "show", "format",
                                     "bangla_digits", "device"})
        run = self.load(body["run"], _check_device(body.get("device", "cpu"), body["run"]))
        value = check_claim(run, body["path"], equals=body.get("equals"), approx=body.get("approx"),
                            tol=body.get("tol"), lt=body.get("lt"), gt=body.get("gt"))
        path = html.escape(str(body["path"]))
        if not body.get("show", False):
            return (f'<span class="gpu-run-claim" hidden {_attrs("run-claim", run["experiment"])} '
                    f'data-path="{path}"></span>')
        text = format_value(value, body.get("format"), bangla_digits=bool(body.get("bangla_digits", False)))
        return (f'<span class="gpu-run-claim" {_attrs("run-claim", run["experiment"])} '
                f'data-path="{path}">{html.escape(text)}</span>')

    def _run_provenance(self, source: str, root_url: str) -> str:
        body = _parse_body(source, "run-provenance")
        _need(body, "run-provenance", "run")
        _allowed(body, "run-provenance", {"run", "device"})
        return "\n".join(render_provenance(run) for run in self.variants(body))

    def _run_index(self, source: str, root_url: str) -> str:
        return render_run_index(self.results_dir, root_url, load=self.load)
