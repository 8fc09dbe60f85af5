"""Explorable figures: a matplotlib figure drawn by a Python function of the course, with a
slider per parameter.

The functions are a lesson's content and live beside the lesson (``explorables.py`` in its
folder, found by convention like ``steppers.py``); this module registers them, checks their
parameters, validates values and renders the figure as SVG. They run twice, in the same Pyodide:
at build time (the default figure in the page) and in the reader's worker when a slider moves.
Standard library only at import; matplotlib is imported by :func:`render`.

    @explorable("sigmoid_slope", title="সিগময়েডের ঢাল",
                params=[Param("k", "ঢাল k", minimum=0.5, maximum=5, step=0.5, default=1)])
    def sigmoid_slope(k):
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 3))
        ...
        return fig            # or draw on the current figure and return nothing

A parameter's values are the grid ``minimum + n * step`` up to ``maximum``: what an
``<input type="range">`` can take. Values on a whole-number grid reach the function as ``int``.
"""

from __future__ import annotations

import inspect
import itertools
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

from . import content
from .catalogue import t
from .figures import figure_to_svg, tight_frame
from .numbers import format_number

__all__ = ["Param", "ExplorableDef", "EXPLORABLES", "ExplorableError", "explorable", "describe", "describe_param",
           "validate", "render", "value_text", "places", "salt_of"]

# How far (in steps) a value may sit from its grid point and still be taken as that point:
# a browser's or JSON's float noise, never an author's different number.
_GRID_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Param:
    name: str
    label: str           # Bangla, shown beside the slider
    minimum: float
    maximum: float
    step: float
    default: float
    unit: str = ""       # shown after the value (and read out with it), e.g. "°"


@dataclass(frozen=True)
class ExplorableDef:
    name: str
    title: str
    params: tuple[Param, ...]
    func: Callable = field(repr=False)


EXPLORABLES: dict[str, ExplorableDef] = content.registry({})


class ExplorableError(ValueError):
    """An author's mistake or a value the explorable cannot take; the message is Bangla."""


def explorable(name: str, *, title: str, params: list[Param]):
    """Register a figure-drawing function under ``name``. Its parameters are checked when a page
    uses it (:func:`describe`), so a mistake is reported with that page's line."""

    def register(func):
        if name in EXPLORABLES:
            raise RuntimeError(f"explorable {name!r} registered twice")
        names = [param.name for param in params]
        if len(set(names)) != len(names):
            raise RuntimeError(f"explorable {name!r} has duplicate parameter names")
        for taken in ("name", "frame"):  # render(name, frame, **values) takes these itself
            if taken in names:
                raise RuntimeError(f"explorable {name!r}: a parameter may not be called {taken!r}")
        EXPLORABLES[name] = ExplorableDef(name, title, tuple(params), func)
        return func

    return register


def _lookup(name: str) -> ExplorableDef:
    try:
        return content.lookup(EXPLORABLES, name)
    except KeyError:
        raise ExplorableError(t("explorable.unknown", name=name) + content.did_you_mean(EXPLORABLES, name)) from None


# ---------------------------------------------------------------------------
# The step grid
# ---------------------------------------------------------------------------

def _places(x: float) -> int:
    """Decimal places of a number as written: 0.05 -> 2, 1e-3 -> 3, 2.0 -> 0."""
    exponent = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -exponent)


def places(param: Param) -> int:
    """Decimal places of the param's grid (of its minimum and its step)."""
    return max(_places(param.minimum), _places(param.step))


def _grid_value(param: Param, value: float) -> float | int | None:
    """``value`` as its grid point (exact decimals), or None when it is not on the grid."""
    steps = (value - param.minimum) / param.step
    nearest = round(steps)
    if abs(steps - nearest) > _GRID_TOLERANCE:
        return None
    decimals = places(param)
    snapped = round(param.minimum + nearest * param.step, decimals)
    if snapped == 0:
        snapped = 0.0  # never -0.0, which would print as "−0"
    return int(snapped) if decimals == 0 else snapped


def _numbers(param: Param) -> dict:
    """The param's limits as the messages quote them."""
    decimals = places(param)
    return {"label": param.label, "name": param.name, "step": format_number(param.step, sig=6),
            "minimum": format_number(float(param.minimum), f".{decimals}f"),
            "maximum": format_number(float(param.maximum), f".{decimals}f")}


def _check_param(param: Param) -> None:
    for number in (param.minimum, param.maximum, param.step, param.default):
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
            raise ExplorableError(t("explorable.param.not_number", label=param.label, name=param.name, value=number))
    numbers = _numbers(param)
    if param.step <= 0:
        raise ExplorableError(t("explorable.param.bad_step", **numbers))
    if param.minimum >= param.maximum:
        raise ExplorableError(t("explorable.param.bad_range", **numbers))
    if _grid_value(param, param.maximum) is None:
        raise ExplorableError(t("explorable.param.max_off_grid", **numbers))
    value = format_number(float(param.default), sig=6)
    if not param.minimum <= param.default <= param.maximum:
        raise ExplorableError(t("explorable.param.default_outside", value=value, **numbers))
    if _grid_value(param, param.default) is None:
        raise ExplorableError(t("explorable.param.default_off_grid", value=value, **numbers))


def _check_signature(defn: ExplorableDef) -> None:
    """Every param is an argument of the function, and every argument without a default a param."""
    signature = inspect.signature(defn.func)
    arguments = signature.parameters
    takes_any = any(a.kind is inspect.Parameter.VAR_KEYWORD for a in arguments.values())
    names = {param.name for param in defn.params}
    for name in names:
        if not takes_any and (name not in arguments or arguments[name].kind is inspect.Parameter.POSITIONAL_ONLY):
            raise ExplorableError(t("explorable.param.not_accepted", explorable=defn.name, name=name))
    for name, argument in arguments.items():
        needed = argument.default is inspect.Parameter.empty and argument.kind not in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        if needed and name not in names:
            raise ExplorableError(t("explorable.param.missing", explorable=defn.name, name=name))


def _checked(name: str) -> ExplorableDef:
    defn = _lookup(name)
    _check_signature(defn)
    for param in defn.params:
        _check_param(param)
    return defn


# ---------------------------------------------------------------------------
# The public entry points (build and page)
# ---------------------------------------------------------------------------

def value_text(param: Param | dict, value) -> str:
    """A value as the reader sees and hears it: Bangla digits at the grid's decimals, then the
    unit (the page's script writes the same text for a moved slider: explorable.js)."""
    spec = param if isinstance(param, dict) else describe_param(param)
    text = format_number(float(value), f".{spec['places']}f", bangla=True)
    return f"{text} {spec['unit']}" if spec["unit"] else text


def describe_param(param: Param) -> dict:
    """One parameter, JSON-ready, with its default on the grid and the grid's decimal places."""
    return {"name": param.name, "label": param.label, "minimum": param.minimum, "maximum": param.maximum,
            "step": param.step, "default": _grid_value(param, param.default), "unit": param.unit,
            "places": places(param)}


def describe(name: str) -> dict:
    """The explorable's title and parameters, JSON-ready; an author's mistake in them (a bad
    range or step, a default off the grid, a param the function does not take) raises."""
    defn = _checked(name)
    return {"name": defn.name, "title": defn.title, "params": [describe_param(p) for p in defn.params]}


def validate(name: str, values: dict) -> dict:
    """Every parameter's value, in the registered order: the given ones (numbers or numeric text)
    on their grid point, the others at their default. Raises ExplorableError (Bangla, naming the
    parameter) for an unknown parameter or a value off the grid or outside its range."""
    defn = _checked(name)
    params = {param.name: param for param in defn.params}
    for key in values:
        if key not in params:
            raise ExplorableError(t("explorable.param.unknown", explorable=name, name=key,
                                    known=", ".join(params)))
    out = {}
    for param in defn.params:
        raw = values.get(param.name, param.default)
        try:
            if isinstance(raw, bool):
                raise ValueError
            number = float(raw)
        except (TypeError, ValueError):
            raise ExplorableError(t("explorable.param.not_number", label=param.label, name=param.name,
                                    value=raw)) from None
        numbers = _numbers(param)
        shown = format_number(number, sig=6) if math.isfinite(number) else str(raw)
        # a hair outside the range (float noise) snaps onto its end, like a hair off the grid
        slack = param.step * _GRID_TOLERANCE
        if not param.minimum - slack <= number <= param.maximum + slack:
            raise ExplorableError(t("explorable.param.outside", value=shown, **numbers))
        snapped = _grid_value(param, number)
        if snapped is None:
            raise ExplorableError(t("explorable.param.off_grid", value=shown, **numbers))
        out[param.name] = snapped
    return out


def salt_of(name: str) -> str:
    """The SVG id salt of an explorable's figures: fixed, so the same values give the same bytes
    at build and in the page (matplotlib also hashes each element's content into its id)."""
    return f"explorable-{name}"


def render(name: str, frame: list[float] | None = None, **values) -> dict:
    """Validate the values, call the function and return ``{"svg", "values", "frame"}``; the
    figures it opened are closed. A function that raises or draws nothing raises ExplorableError.

    ``frame`` ((x0, y0, x1, y1), inches): the part of the figure shown, the same at every position
    of the sliders, so the picture keeps its size while they move and is drawn once (a tight cut
    lays every label out twice). The build finds it (:func:`_frame`) and the page sends it back."""
    checked = validate(name, values)
    func = EXPLORABLES[name].func
    import matplotlib

    # the settings matplotlib started with, whatever a reader's cell changed since: the same
    # values give the same figure at build and in every page
    with matplotlib.rc_context():
        matplotlib.rc_file_defaults()
        # titles at the axes' top: matplotlib then does not lay out every axis's labels once more
        # to place them (its automatic place differs only where labels sit above the axes)
        matplotlib.rcParams["axes.titley"] = 1.0
        frame = _checked_frame(frame) if frame is not None else _frame(name)
        with _new_figures_closed():
            fig = _figure(name, func, checked)
            return {"svg": figure_to_svg(fig, salt_of(name), frame), "values": checked, "frame": list(frame)}


def _checked_frame(frame) -> tuple[float, float, float, float]:
    if (not isinstance(frame, (list, tuple)) or len(frame) != 4
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in frame)
            or not (frame[0] < frame[2] and frame[1] < frame[3])):
        raise ValueError(f"an explorable's frame is (x0, y0, x1, y1) in inches, not {frame!r}")
    return tuple(float(v) for v in frame)


def _frame(name: str) -> tuple[float, float, float, float]:
    """The union of the tight cuts of the figure at the registered defaults and at every corner of
    the sliders' ranges, where titles and labels are longest in practice; a position whose labels
    reach outside it anyway is drawn tight (figures.figure_to_svg). A corner the function cannot
    draw is left out: it fails when a reader reaches it, with its own message."""
    defn = EXPLORABLES[name]
    params = defn.params
    corners = itertools.product(*((param.minimum, param.maximum) for param in params))
    positions = [{}] + [dict(zip((param.name for param in params), corner)) for corner in corners]
    boxes = []
    for position in positions:
        with _new_figures_closed():
            try:
                boxes.append(tight_frame(_figure(name, defn.func, validate(name, position))))
            except ExplorableError:
                if not position:
                    raise  # the defaults: the build's own figure, which must draw
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@contextmanager
def _new_figures_closed():
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    try:
        yield
    finally:
        for number in plt.get_fignums():
            if number not in before:
                plt.close(number)


def _figure(name: str, func: Callable, checked: dict):
    """The function's figure: the one it returned, or the last one it opened."""
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    before = set(plt.get_fignums())
    try:
        drawn = func(**checked)
    except Exception as exc:  # noqa: BLE001 - the author's function: reported, in Bangla
        raise ExplorableError(t("explorable.failed", name=name, error=type(exc).__name__, message=exc)) from exc
    opened = [number for number in plt.get_fignums() if number not in before]
    fig = drawn if isinstance(drawn, Figure) else plt.figure(opened[-1]) if opened else None
    if fig is None or len(fig.get_children()) <= 1:  # only the background patch
        raise ExplorableError(t("explorable.no_figure", name=name))
    return fig
