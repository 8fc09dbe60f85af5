"""Turn matplotlib figures into inline SVG output items.

SVG keeps text as text (``svg.fonttype: none``) so the browser shapes Bangla labels with the
site's own Bangla font; a raster (Agg) image cannot shape Bengali conjuncts.
matplotlib is imported only when a cell has imported pyplot itself, so numpy-only cells never
pay for it.
"""

from __future__ import annotations

import io
import re
import sys

BACKEND = "module://py_lessons.runtime.mpl_backend"

_state: dict = {"emit": None, "prefix": "fig", "count": 0}

_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)
# matplotlib writes a global "*{...}" rule; inline in a page it would restyle every SVG there.
_GLOBAL_STYLE = re.compile(r"<style[^>]*>\s*\*\{[^}]*\}\s*</style>")


def begin_cell(emit, prefix: str) -> None:
    _state.update(emit=emit, prefix=prefix, count=0)


def end_cell() -> None:
    _state.update(emit=None)


_MATHTEXT_POWER = re.compile(r"\$\\mathdefault\{(?:(?P<mantissa>[0-9.]+)\\times)?10\^\{(?P<exp>[-\u2212]?[0-9]+)\}\}\$")


def bangla_ticks(fig) -> None:
    """Every axis of ``fig`` labels its ticks (and their offset, "1e6") in Bangla digits, as the
    legends and titles beside them are Bangla; a formatter's mathtext ($10^{3}$, log axes) is kept,
    since its fonts have no Bangla digits, and so are a name's digits (a category tick "fp16")."""
    from matplotlib.ticker import Formatter

    from .numbers import MINUS, bangla_numbers, powers_of_ten

    def shown(text: str) -> str:
        power = _MATHTEXT_POWER.fullmatch(text)
        if power:  # a log axis: $\mathdefault{10^{-3}}$ or $\mathdefault{5\times10^{-3}}$ -> ৫ × ১০⁻³
            text = f"{power['mantissa']}e{power['exp']}" if power["mantissa"] else f"1e{power['exp']}"
            text = powers_of_ten(text)
            text = text.removeprefix("1 × ") if not power["mantissa"] else text
        elif "$" in text:
            return text
        return bangla_numbers(powers_of_ten(text).replace("-", MINUS))

    class BanglaDigits(Formatter):
        def __init__(self, inner):
            self.inner = inner

        def set_axis(self, axis):
            super().set_axis(axis)
            self.inner.set_axis(axis)

        def set_locs(self, locs):
            self.inner.set_locs(locs)

        def __call__(self, x, pos=None):
            return shown(self.inner(x, pos))

        def format_ticks(self, values):
            return [shown(text) for text in self.inner.format_ticks(values)]

        def get_offset(self):
            return shown(self.inner.get_offset())

    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for get, put in ((axis.get_major_formatter, axis.set_major_formatter),
                             (axis.get_minor_formatter, axis.set_minor_formatter)):
                if type(get()).__name__ != "BanglaDigits":
                    put(BanglaDigits(get()))


def figure_to_svg(fig, salt: str, frame: tuple[float, float, float, float] | None = None) -> str:
    """``fig`` as inline SVG, cut tight around what it draws, or to ``frame`` ((x0, y0, x1, y1) in
    inches of the figure) when one is given and no label falls outside it.

    A tight cut costs matplotlib a second layout of every label (a dry draw, then the bounding
    box): two thirds of the time of a figure with many labels. A fixed frame is drawn once, and
    keeps the picture's size: an explorable's figure does not resize as its slider moves."""
    import matplotlib

    bangla_ticks(fig)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        svg = _framed_svg(fig, frame) if frame is not None else None
        if svg is None:
            svg = _svg(fig, "tight")
    svg = _XML_PROLOGUE.sub("", svg, count=1)
    svg = _GLOBAL_STYLE.sub("", svg, count=1)
    return svg.replace("<svg ", '<svg class="mpl-figure" role="img" ', 1)


def tight_frame(fig) -> tuple[float, float, float, float]:
    """The frame a tight cut of ``fig`` would have: what it draws, padded as ``savefig`` pads."""
    import matplotlib
    from matplotlib.backends.backend_svg import RendererSVG

    bangla_ticks(fig)
    dpi = fig.dpi
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        try:
            fig.dpi = 72  # as the SVG writer measures: in points
            width, height = fig.get_size_inches()
            renderer = RendererSVG(width * 72, height * 72, io.StringIO(), image_dpi=dpi)
            box = fig.get_tightbbox(renderer).padded(matplotlib.rcParams["savefig.pad_inches"])
        finally:
            fig.dpi = dpi
    return tuple(float(value) for value in box.extents)


def _svg(fig, bbox_inches) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches=bbox_inches, metadata={"Date": None})
    return buffer.getvalue()


# how far (points) a label's box may reach past the frame: the measure's rounding, not a clipped glyph
_SPILL_TOLERANCE = 0.5


def _framed_svg(fig, frame) -> str | None:
    """``fig`` drawn once into ``frame``; None if a label (title, tick label, legend...) reached
    outside it, which the frame would clip."""
    from matplotlib.backends.backend_svg import RendererSVG
    from matplotlib.transforms import Affine2D, Bbox

    draw_text = RendererSVG.draw_text
    spilled = []

    def checked_draw_text(renderer, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None:
            # a one-line Text (matplotlib passes its artist only then): its box, turned with it,
            # from the layout just made for this draw; measuring it again would double the
            # figure's text shaping
            box = mtext.get_window_extent(renderer)
        else:
            # a line of a longer text: (x, y) is its baseline start in the frame's points, y
            # downwards (the SVG writer's flipy); its box turns with it about that point
            width, height, descent = renderer.get_text_width_height_descent(s, prop, ismath)
            up = renderer.height - y if renderer.flipy() else y
            corners = Affine2D().rotate_deg(angle).translate(x, up).transform(
                [(0, -descent), (width, -descent), (width, height - descent), (0, height - descent)])
            box = Bbox.null()
            box.update_from_data_xy(corners)
        if (box.x0 < -_SPILL_TOLERANCE or box.y0 < -_SPILL_TOLERANCE
                or box.x1 > renderer.width + _SPILL_TOLERANCE or box.y1 > renderer.height + _SPILL_TOLERANCE):
            spilled.append(s)
        return draw_text(renderer, gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    RendererSVG.draw_text = checked_draw_text  # for this one draw (Python is single-threaded here)
    try:
        svg = _svg(fig, Bbox.from_extents(*frame))
    finally:
        RendererSVG.draw_text = draw_text
    return None if spilled else svg


def emit_figure(fig) -> None:
    emit = _state["emit"]
    if emit is None:
        return
    _state["count"] += 1
    salt = f"{_state['prefix']}-{_state['count']}"
    emit({"type": "figure", "svg": figure_to_svg(fig, salt)})


def _pyplot():
    return sys.modules.get("matplotlib.pyplot")


def flush_open_figures() -> None:
    """Show figures the cell drew but never passed to ``plt.show()`` (as notebooks do), then close them."""
    plt = _pyplot()
    if plt is None:
        return
    for number in plt.get_fignums():
        emit_figure(plt.figure(number))
    plt.close("all")


def discard_open_figures() -> None:
    plt = _pyplot()
    if plt is not None:
        plt.close("all")
