"""``run-chart``: a line chart of a run's series, drawn with matplotlib as inline SVG: the
series' Bangla title, axis and line labels in the cells' Bangla font (the English as tooltips)."""

from __future__ import annotations

import html
import io
import math
import re
from functools import cache

from ....runtime.figures import bangla_ticks
from ....runtime.fonts import BANGLA_FONT_FAMILY
from ...base.fonts import plot_font_file
from ...base.strings import t
from .results import RunError
from .values import format_value, run_attrs


@cache
def _register_bangla_font() -> None:
    """matplotlib measures a chart's Bangla labels with the font the cells' figures use."""
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(plot_font_file()))


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

    _register_bangla_font()
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
            bangla_ticks(fig)
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
    return (f'<figure class="gpu-run-chart" {run_attrs("run-chart", run["experiment"], key)} data-search-exclude>{svg}'
            f"<figcaption{tooltip}>{html.escape(caption)}</figcaption></figure>")
