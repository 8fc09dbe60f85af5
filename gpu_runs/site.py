"""Build-time rendering of run results for the site (no torch, no transformers).

The mkdocs plugin calls :func:`make_fences` and registers the returned
entries as pymdownx.superfences custom fences.  Every renderer raises
:class:`RunError` with a message naming the run (and key) on bad input, so
the plugin can fail the build with a useful line.
"""
from __future__ import annotations

import html
import io
import json
import math
import re
from pathlib import Path
from typing import Any, Callable

from gpu_runs import jsonio

BANGLA_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
FENCES = ("run-table", "run-chart", "run-claim", "run-provenance", "run-index")


class RunError(ValueError):
    """Bad run file, missing key, or a claim that does not hold."""


# --------------------------------------------------------------------------- loading
def load_run(results_dir: str | Path, name: str) -> dict:
    """Read ``<results_dir>/<name>.json``, validate it, decode NaN/inf markers."""
    path = Path(results_dir) / f"{name}.json"
    if not re.fullmatch(r"[a-z0-9_]+", name or ""):
        raise RunError(f"run name {name!r} is not a valid experiment name")
    if not path.is_file():
        raise RunError(f"run {name!r}: result file {path} is missing (run `python -m gpu_runs run {name}`)")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"run {name!r}: cannot read {path}: {exc}") from exc
    try:
        jsonio.validate(raw, where=str(path))
    except ValueError as exc:
        raise RunError(f"run {name!r}: {exc}") from exc
    if raw.get("experiment") != name:
        raise RunError(f"run {name!r}: {path} holds experiment {raw.get('experiment')!r}")
    return jsonio.decode(raw)


def list_runs(results_dir: str | Path) -> list[str]:
    return sorted(p.stem for p in Path(results_dir).glob("*.json"))


# --------------------------------------------------------------------------- formatting
def format_value(value: Any, fmt: str | None = None, *, bangla_digits: bool = False) -> str:
    if value is None:
        text = "—"
    elif isinstance(value, bool):
        text = "হ্যাঁ" if value else "না"
    elif isinstance(value, float) and math.isnan(value):
        text = "NaN"
    elif isinstance(value, float) and math.isinf(value):
        text = "inf" if value > 0 else "−inf"
    elif isinstance(value, (int, float)):
        text = format(value, fmt) if fmt else (f"{value:.4g}" if isinstance(value, float) else str(value))
        text = text.replace("-", "−") if text.startswith("-") else text
    else:
        text = str(value)
    if bangla_digits and not isinstance(value, str):
        text = text.translate(BANGLA_DIGITS)
    return text


def _get_table(run: dict, key: str) -> dict:
    tables = run.get("tables", {})
    if key not in tables:
        raise RunError(f"run {run['experiment']!r}: no table {key!r} (has: {', '.join(tables) or 'none'})")
    return tables[key]


def _attrs(component: str, run: str, key: str | None = None) -> str:
    extra = f' data-key="{html.escape(key)}"' if key else ""
    return f'data-component="{component}" data-run="{html.escape(run)}"{extra}'


def render_table(run: dict, key: str, *, bangla_digits: bool = False, columns: list[str] | None = None,
                 caption: str | None = None) -> str:
    """An HTML table with the Bangla column headings stored in the run."""
    table = _get_table(run, key)
    cols = table["columns"]
    if columns is not None:
        by_key = {c["key"]: c for c in cols}
        unknown = [c for c in columns if c not in by_key]
        if unknown:
            raise RunError(f"run {run['experiment']!r} table {key!r}: unknown column(s) {unknown} "
                           f"(has: {', '.join(by_key)})")
        cols = [by_key[c] for c in columns]
    cap = table["title"] if caption is None else caption
    # the wrapper scrolls sideways on a phone (so it is a named, focusable region); it is the root
    region = html.escape(caption if caption is not None else (table["title"] or key))
    out = [f'<div class="gpu-run-table-wrap" {_attrs("run-table", run["experiment"], key)} role="region" '
           f'tabindex="0" aria-label="{region}">', '<table class="gpu-run-table">']
    if cap:
        out.append(f"<caption>{html.escape(cap)}</caption>")
    out.append("<thead><tr>" + "".join(f'<th title="{html.escape(c["en"])}">{html.escape(c["bn"])}</th>'
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


def render_chart(run: dict, key: str, *, width: float = 6.4, height: float = 3.6, title: str | None = None,
                 y_clip: float | None = None, log_y: bool | None = None) -> str:
    """An inline SVG line chart of ``run['series'][key]`` drawn with matplotlib."""
    series = run.get("series", {})
    if key not in series:
        raise RunError(f"run {run['experiment']!r}: no series {key!r} (has: {', '.join(series) or 'none'})")
    s = series[key]
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    clip = s.get("y_clip") if y_clip is None else y_clip
    use_log = s.get("log_y", False) if log_y is None else log_y
    # a salt per chart keeps clip-path ids unique when several charts share a page
    salt = f"{run['experiment']}-{key}"
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt, "font.size": 9}):
        fig, ax = plt.subplots(figsize=(width, height))
        try:
            for line in s["lines"]:
                ys = [v if isinstance(v, (int, float)) and math.isfinite(v) else math.nan for v in line["values"]]
                if clip is not None:
                    ys = [min(v, clip) if not math.isnan(v) else v for v in ys]
                ax.plot(s["x"], ys, marker="o" if len(ys) <= 40 else None, markersize=3, label=line["label"])
            if use_log:
                ax.set_yscale("log")
            if clip is not None:
                ax.set_ylim(top=clip * 1.02)
            ax.set_xlabel(s["x_label"])
            ax.set_ylabel(s["y_label"])
            ax.set_title(title if title is not None else s["title"])
            ax.legend(fontsize=8)
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
    caption = title if title is not None else s["title"]
    clipped = clip is not None and any(isinstance(v, (int, float)) and v > clip
                                       for line in s["lines"] for v in line["values"])
    if clipped:
        caption += f" ({format_value(clip)}-এর বেশি মান ওপরের কিনারায় আঁকা)"
    return (f'<figure class="gpu-run-chart" {_attrs("run-chart", run["experiment"], key)} data-search-exclude>{svg}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _date(run: dict) -> str:
    return run["provenance"]["finished_utc"][:10]


def provenance_text(run: dict) -> str:
    p = run["provenance"]
    dev = p["device"]
    where = dev["name"] if dev["used"] == "cuda" else f"CPU ({p['cpu']['model']}, {p['threads']} threads)"
    quick = " (quick)" if run.get("quick") else ""
    return (f"{where} · torch {p['packages'].get('torch')} · {_date(run)} · "
            f"{p['duration_s']:.1f} s{quick} · {p['command']}")


def render_provenance(run: dict) -> str:
    """One line: device, torch version, date, command to reproduce."""
    p = run["provenance"]
    dev = p["device"]
    where = dev["name"] if dev["used"] == "cuda" else f"CPU ({p['cpu']['model']}, {p['threads']} threads)"
    absent = "; ".join(f"{v['variant']}: {v['reason']}" for v in run.get("variants_absent", []))
    absent_html = f' <span class="absent">({html.escape(absent)})</span>' if absent else ""
    return (f'<p class="gpu-run-provenance" {_attrs("run-provenance", run["experiment"])}>'
            f"সত্যিকারের run: {html.escape(where)} · torch {html.escape(str(p['packages'].get('torch')))} · "
            f"{html.escape(_date(run))} · আবার চালাতে: <code>{html.escape(p['command'])}</code>{absent_html}</p>")


# --------------------------------------------------------------------------- claims
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]|\[([^=\]]+)=([^\]]+)\]")


def resolve(run: dict, path: str) -> Any:
    """Follow a path like ``values.plain_final_loss``,
    ``tables.final_table.rows[0].val_acc`` or
    ``tables.final_table.rows[model=plain].final_loss``."""
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
        except (KeyError, IndexError, TypeError) as exc:
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
def render_run_index(results_dir: str | Path) -> str:
    names = list_runs(results_dir)
    out = ['<div class="gpu-run-index" data-component="run-index" data-run="*">', "<table>",
           "<thead><tr><th>run</th><th>পাঠ</th><th>কী মাপা হয়েছে</th><th>কোথায়, কবে, কীভাবে</th>"
           "<th>যা চলেনি</th></tr></thead><tbody>"]
    for name in names:
        run = load_run(results_dir, name)
        absent = "; ".join(f"{v['variant']}: {v['reason']}" for v in run["variants_absent"]) or "—"
        out.append(f'<tr data-run="{html.escape(name)}"><td><code>{html.escape(name)}</code></td>'
                   f"<td>{run['lesson']}</td><td>{html.escape(run['title'])}</td>"
                   f"<td>{html.escape(provenance_text(run))}</td><td>{html.escape(absent)}</td></tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


# --------------------------------------------------------------------------- fences
def _parse_body(source: str, fence: str) -> dict:
    import yaml

    try:
        body = yaml.safe_load(source) or {}
    except yaml.YAMLError as exc:
        raise RunError(f"{fence}: body is not valid YAML: {exc}") from None
    if not isinstance(body, dict):
        raise RunError(f"{fence}: body must be a YAML mapping, got {source!r}")
    return body


def _need(body: dict, fence: str, *keys: str) -> None:
    missing = [k for k in keys if k not in body]
    if missing:
        raise RunError(f"{fence}: missing {', '.join(missing)} in {body!r}")


def _allowed(body: dict, fence: str, allowed: set[str]) -> None:
    extra = set(body) - allowed
    if extra:
        raise RunError(f"{fence} (run {body.get('run')!r}): unknown option(s) {sorted(extra)}")


def make_fences(results_dir: str | Path) -> list[dict]:
    """superfences custom-fence entries for run-table, run-chart, run-claim, run-provenance and run-index."""
    results_dir = Path(results_dir)

    def table_fmt(source, language, css_class, options, md, **kwargs):
        body = _parse_body(source, "run-table")
        _need(body, "run-table", "run", "key")
        _allowed(body, "run-table", {"run", "key", "bangla_digits", "columns", "caption"})
        run = load_run(results_dir, body["run"])
        return render_table(run, body["key"], bangla_digits=bool(body.get("bangla_digits", False)),
                            columns=body.get("columns"), caption=body.get("caption"))

    def chart_fmt(source, language, css_class, options, md, **kwargs):
        body = _parse_body(source, "run-chart")
        _need(body, "run-chart", "run", "key")
        _allowed(body, "run-chart", {"run", "key", "title", "y_clip", "log_y", "width", "height"})
        run = load_run(results_dir, body["run"])
        extra = {k: body[k] for k in ("title", "y_clip", "log_y", "width", "height") if k in body}
        return render_chart(run, body["key"], **extra)

    def claim_fmt(source, language, css_class, options, md, **kwargs):
        body = _parse_body(source, "run-claim")
        _need(body, "run-claim", "run", "path")
        _allowed(body, "run-claim", {"run", "path", "equals", "approx", "tol", "lt", "gt", "show", "format",
                                     "bangla_digits"})
        run = load_run(results_dir, body["run"])
        value = check_claim(run, body["path"], equals=body.get("equals"), approx=body.get("approx"),
                            tol=body.get("tol"), lt=body.get("lt"), gt=body.get("gt"))
        if not body.get("show", False):
            return (f'<span class="gpu-run-claim" hidden {_attrs("run-claim", run["experiment"])} '
                    f'data-path="{html.escape(body["path"])}"></span>')
        text = format_value(value, body.get("format"), bangla_digits=bool(body.get("bangla_digits", False)))
        return (f'<span class="gpu-run-claim" {_attrs("run-claim", run["experiment"])} '
                f'data-path="{html.escape(body["path"])}">{html.escape(text)}</span>')

    def prov_fmt(source, language, css_class, options, md, **kwargs):
        body = _parse_body(source, "run-provenance")
        _need(body, "run-provenance", "run")
        _allowed(body, "run-provenance", {"run"})
        return render_provenance(load_run(results_dir, body["run"]))

    def index_fmt(source, language, css_class, options, md, **kwargs):
        return render_run_index(results_dir)

    formats: dict[str, Callable] = {"run-table": table_fmt, "run-chart": chart_fmt, "run-claim": claim_fmt,
                                    "run-provenance": prov_fmt, "run-index": index_fmt}
    return [{"name": name, "class": name, "format": fn} for name, fn in formats.items()]
