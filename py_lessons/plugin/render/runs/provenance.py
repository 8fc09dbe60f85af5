"""``run-provenance`` (where, when and how a run ran, and how to run it again) and ``run-index``
(every run of the course, linked to its lesson)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

from ....runtime.numbers import bangla_numbers, bn_digits, format_number
from ...base.strings import t
from .results import list_variants, load_run
from .values import NONE_TEXT, run_attrs


def _date(run: dict) -> str:
    return bn_digits(run["provenance"]["finished_utc"][:10])


def _absent(run: dict) -> tuple[str, str]:
    """The variants a run lacks: (Bangla for the reader, the run's own English reasons for a tooltip)."""
    absent = run.get("variants_absent", [])
    bangla = "; ".join(t("runs.absent.cuda" if v["variant"].startswith("cuda") else "runs.absent.other") for v in absent)
    return bangla, "; ".join(f"{v['variant']}: {v['reason']}" for v in absent)


def where_ran(run: dict) -> str:
    p = run["provenance"]
    dev = p["device"]
    if dev["used"] == "cuda":
        return dev["name"]
    return t("runs.provenance.cpu", model=p["cpu"]["model"], threads=format_number(p["threads"], bangla=True))


def provenance_html(run: dict) -> str:
    """Where, when, how long and how: the torch version and the command as code."""
    p = run["provenance"]
    quick = f" ({t('runs.provenance.quick')})" if run.get("quick") else ""
    duration = t("runs.provenance.seconds", seconds=format_number(p["duration_s"], ".1f", bangla=True))
    return (f"{html.escape(where_ran(run))} · <code>torch {html.escape(str(p['packages'].get('torch')))}</code> · "
            f"{html.escape(_date(run))} · {html.escape(duration + quick)} · <code>{html.escape(p['command'])}</code>")


def render_provenance(run: dict) -> str:
    """One line: device, torch version, date, command to reproduce."""
    p = run["provenance"]
    absent, why = _absent(run)
    absent_html = f' <span class="absent" title="{html.escape(why)}">({html.escape(absent)})</span>' if absent else ""
    device = p["device"]["used"]
    return (f'<p class="gpu-run-provenance" {run_attrs("run-provenance", run["experiment"], None, device)}>'
            f"{html.escape(t('runs.provenance.real'))}: {html.escape(where_ran(run))} · "
            f"<code>torch {html.escape(str(p['packages'].get('torch')))}</code> · "
            f"{html.escape(_date(run))} · {html.escape(t('runs.provenance.rerun'))}: "
            f"<code>{html.escape(p['command'])}</code>{absent_html}</p>")


def render_run_index(results_dir: str | Path, lesson_href: Callable[[str], str]) -> str:
    """Every run variant in ``results_dir`` (one row per device): its lesson (a link: the href of
    a lesson's slug from the page), what it measures, where and how it ran."""
    heads = [t("runs.index.run"), t("runs.index.lesson"), t("runs.index.measured"), t("runs.index.provenance"),
             t("runs.index.absent")]
    out = ['<div class="gpu-run-index" data-component="run-index" data-run="*">', "<table>",
           "<thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr></thead><tbody>"]
    for name, device in list_variants(results_dir):
        run = load_run(results_dir, name, device)
        absent, why = _absent(run)
        slug = html.escape(run["lesson"])
        href = html.escape(lesson_href(run["lesson"]))
        variant = "" if device == "cpu" else f" · {html.escape(device)}"
        device_attr = "" if device == "cpu" else f' data-device="{html.escape(device)}"'
        out.append(f'<tr data-run="{html.escape(name)}"{device_attr}>'
                   f'<td><code>{html.escape(name)}</code>{variant}</td>'
                   f'<td><a href="{href}">{slug}</a></td>'
                   f'<td title="{html.escape(run["title"]["en"])}">{html.escape(bangla_numbers(run["title"]["bn"]))}</td>'
                   f"<td>{provenance_html(run)}</td>"
                   f'<td title="{html.escape(why)}">{html.escape(absent or NONE_TEXT)}</td></tr>')
    out.append("</tbody></table></div>")
    return "\n".join(out)
