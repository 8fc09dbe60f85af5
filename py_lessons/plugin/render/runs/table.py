"""``run-table``: a table of a run, its Bangla title as the caption (the English as its tooltip)
and its column headings as stored in the run."""

from __future__ import annotations

import html
import math

from ....runtime.numbers import bangla_numbers
from .values import format_value, run_attrs
from .results import RunError
from .provenance import where_ran


def _get_table(run: dict, key: str) -> dict:
    tables = run.get("tables", {})
    if key not in tables:
        raise RunError(f"run {run['experiment']!r}: no table {key!r} (has: {', '.join(tables) or 'none'})")
    return tables[key]


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
        cap = f"{cap} · {where_ran(run)}" if cap else where_ran(run)
    # the wrapper scrolls sideways on a phone (so it is a named, focusable region); it is the root
    region = html.escape(cap or key)
    device = run["provenance"]["device"]["used"]
    out = [f'<div class="gpu-run-table-wrap" {run_attrs("run-table", run["experiment"], key, device)} role="region" '
           f'tabindex="0" aria-label="{region}">', '<table class="gpu-run-table">']
    if cap:
        out.append(f"<caption{tooltip}>{html.escape(cap)}</caption>")

    def heading(text: str) -> str:   # "স্তর 5" as the cells' digits are; fp32, macro-F1 are names
        return bangla_numbers(text) if bangla_digits else text

    out.append("<thead><tr>" + "".join(f'<th title="{html.escape(c["en"])}">{html.escape(heading(c["bn"]))}</th>'
                                       for c in cols) + "</tr></thead>")
    out.append("<tbody>")
    for row in table["rows"]:
        cells = []
        for c in cols:
            value = row.get(c["key"])
            if c.get("format") == "code" and isinstance(value, str):  # a call or a name: code, as written
                cells.append(f"<td><code>{html.escape(value)}</code></td>")
                continue
            text = format_value(value, c.get("format"), bangla_digits=bangla_digits)
            klass = ' class="nonfinite"' if isinstance(value, float) and not math.isfinite(value) else ""
            cells.append(f"<td{klass}>{html.escape(text)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)
