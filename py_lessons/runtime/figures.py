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


def figure_to_svg(fig, salt: str) -> str:
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = _XML_PROLOGUE.sub("", buffer.getvalue(), count=1)
    svg = _GLOBAL_STYLE.sub("", svg, count=1)
    return svg.replace("<svg ", '<svg class="mpl-figure" role="img" ', 1)


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
