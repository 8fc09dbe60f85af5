"""``explorable`` blocks: a figure with a slider per parameter, drawn by a function registered with
``@explorable`` (py_lessons.runtime.explorables) in an ``explorables.py`` beside the page.

    ```explorable
    id: sigmoid-demo
    function: sigmoid_slope
    values: {k: 2}          # optional: other starting values than the registered defaults
    caption: "…"            # optional: the registered title otherwise
    ```

Parsing checks the block, the function's parameters and the values. The default figure is drawn
at build time by the build's Pyodide (:meth:`Explorable.check`, once the page's cells ran), the
very Python the reader's worker redraws it with when a slider moves: the same values give the
same SVG bytes. Every error names the page and line.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Callable

from ....runtime import explorables, session
from ...base.errors import BlockError
from ...base.html import attr, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, nonempty_text, read_block
from .base import Component, NotebookPart

KIND = "explorable"
MODULE = explorables.__name__  # what the page's worker and the build's runner call
ALWAYS_IMPORTED = ("matplotlib.pyplot",)  # render() draws with it


def _content_module(name: str):
    return sys.modules[explorables.EXPLORABLES[name].func.__module__]


def imports_of(source: str) -> str:
    """Import lines of the packages a drawing needs loaded in Pyodide first: matplotlib, and
    what the author's module imports besides the standard library and py_lessons."""
    names = [*ALWAYS_IMPORTED, *session.modules_imported_by([source])]
    wanted = [n for n in names if n.split(".")[0] not in sys.stdlib_module_names
              and n.split(".")[0] not in ("py_lessons", "py_lessons_content")]
    return "\n".join(f"import {n}" for n in dict.fromkeys(wanted))


def parse(source: str) -> dict:
    data = read_block(source, KIND, {"id", "function"}, {"values", "caption"})
    cid = block_id(data, KIND)
    name = str(data["function"])
    if name not in explorables.EXPLORABLES:
        raise BlockError(f"explorable '{cid}': unknown function {name!r} "
                         f"(known: {', '.join(sorted(explorables.EXPLORABLES)) or 'none'})")
    values = data.get("values") or {}
    if not isinstance(values, dict):
        raise BlockError(f"explorable '{cid}': values must be a mapping of parameter name to number")
    try:
        spec = explorables.describe(name)
        values = explorables.validate(name, values)
    except explorables.ExplorableError as exc:
        raise BlockError(f"explorable '{cid}' ({name}): {exc}") from None
    caption = nonempty_text(data, "caption", KIND) if "caption" in data else spec["title"]
    module = _content_module(name)
    # the source the build loaded (content.load keeps it), not the file as it is now
    module_source = getattr(module, "__source__", None) or Path(module.__file__).read_text(encoding="utf-8")
    return {"id": cid, "function": name, "values": values, "caption": caption, "spec": spec,
            "imports": imports_of(module_source),
            "source_sha": hashlib.sha256(module_source.encode("utf-8")).hexdigest(), "svg": None, "frame": None}


def draw(parsed: dict, call: Callable[[str, str, dict, str, str], dict]) -> None:
    """The default figure, from ``call(module, function, kwargs, imports, content_sha)`` (the
    build's Pyodide; content_sha: the author's module, for the cache): a function that raises or
    draws nothing is the author's error."""
    answer = call(MODULE, "render", {"name": parsed["function"], **parsed["values"]}, parsed["imports"],
                  parsed["source_sha"])
    if not answer["ok"]:
        raise BlockError(f"explorable '{parsed['id']}' ({parsed['function']}): "
                         f"{answer['error']}: {answer['message']}")
    parsed["svg"] = answer["value"]["svg"]
    parsed["frame"] = answer["value"]["frame"]  # the page's redraws keep it (explorables.render)


def values_text(parsed: dict) -> str:
    """Every parameter with its value, for the figure's accessible name."""
    return "; ".join(f"{p['label']} {explorables.value_text(p, parsed['values'][p['name']])}"
                     for p in parsed["spec"]["params"])


def _number(value: float, places: int) -> str:
    """A number for an <input>'s min/max/step/value: plain decimals at the grid's places."""
    return f"{value:.{places}f}"


def render_slider(cid: str, param: dict, value) -> str:
    field_id = f"{cid}-{param['name']}"
    places = param["places"]
    shown = explorables.value_text(param, value)
    return (
        f'<div class="pz-slider"><label for="{attr(field_id)}">{text(param["label"])}</label>'
        f'<input type="range" id="{attr(field_id)}" name="{attr(param["name"])}" data-param="{attr(param["name"])}" '
        f'min="{_number(param["minimum"], places)}" max="{_number(param["maximum"], places)}" '
        f'step="{_number(param["step"], places)}" value="{_number(value, places)}" '
        f'data-places="{places}" data-unit="{attr(param["unit"])}" aria-valuetext="{attr(shown)}" disabled>'
        # the slider itself says its value (aria-valuetext): the <output> need not announce it again
        f'<output for="{attr(field_id)}" data-value-of="{attr(param["name"])}" aria-live="off">{text(shown)}</output>'
        f'</div>'
    )


def render(parsed: dict) -> str:
    if parsed["svg"] is None:
        raise BlockError(f"explorable '{parsed['id']}': its figure was not drawn")
    cid = parsed["id"]
    caption = parsed["caption"]
    label = t("explorable.figure", caption=caption, values=values_text(parsed))
    svg = parsed["svg"].replace("<svg ", f'<svg aria-label="{attr(label)}" ', 1)
    sliders = "".join(render_slider(cid, p, parsed["values"][p["name"]]) for p in parsed["spec"]["params"])
    return (
        f'<div class="pz-explorable" role="group" data-component="explorable" data-id="{attr(cid)}" '
        f'data-function="{attr(parsed["function"])}" data-state="ready" data-imports="{attr(parsed["imports"])}" '
        f'data-frame="{attr(json.dumps(parsed["frame"]))}" '
        f'aria-labelledby="{attr(cid)}-caption">'
        f'<p class="pz-explorable-caption" id="{attr(cid)}-caption">{text(caption)}</p>'
        f'<div class="pz-explorable-figure" data-figure>{svg}</div>'
        f'<div class="pz-explorable-controls">{sliders}'
        f'<p class="pz-explorable-hint">{text(t("explorable.hint"))}</p>'
        f'<div class="pz-actions"><button type="button" class="pz-button" data-action="reset" disabled>'
        f'{text(t("explorable.reset"))}</button></div></div>'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p>'
        f'</div>'
    )


class Explorable(Component):
    kind = KIND
    script = "explorable.js"
    read = staticmethod(parse)
    html = staticmethod(render)

    def check(self, parsed, page, python):
        draw(parsed, lambda *call: python.call(page, *call))

    def notebook(self, parsed):
        return NotebookPart(t("download.explorable", caption=parsed["caption"]))
